import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { loginCli, startWorld, type World } from '../../engine/jobs/helpers/world';

/**
 * Issue 29 in the CLI: it speaks the language of `--lang`, else LC_ALL, LC_MESSAGES or LANG, else
 * English. `--help`, a job's final line and an error are read back in each of the five languages;
 * `--json` is the same bytes in every language; a wrong `--lang` says what is wrong and the
 * choices. The expected words are written here, not taken from the catalogs, so a catalog that
 * lost its translation (or a line the CLI stopped translating) fails.
 */

const LOCALES = {
  en: 'en_GB.UTF-8',
  de: 'de_DE.UTF-8',
  fr: 'fr_FR.UTF-8',
  es: 'es_ES.UTF-8',
  zh: 'zh_CN.UTF-8',
} as const;
type Language = keyof typeof LOCALES;
const LANGUAGES = Object.keys(LOCALES) as Language[];

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cli-languages-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

/** The CLI in this process, as a technician whose system speaks `locale` runs it. */
const runIn = (env: NodeJS.ProcessEnv, args: readonly string[]) =>
  runCliIn(home, args, { env: { PATH: process.env.PATH, ...env } });

describe('--help', () => {
  const expected: Record<
    Language,
    { usage: string; options: string; commands: string; device: string; helpOption: string }
  > = {
    en: {
      usage: 'Usage:',
      options: 'Options:',
      commands: 'Commands:',
      device: 'Attached devices: list them, put firmware and configuration files on them.',
      helpOption: 'display help for command',
    },
    de: {
      usage: 'Aufruf:',
      options: 'Optionen:',
      commands: 'Befehle:',
      device: 'Angeschlossene Geräte: auflisten, Firmware und Konfigurationsdateien aufspielen.',
      helpOption: 'Hilfe zum Befehl anzeigen',
    },
    fr: {
      usage: 'Utilisation :',
      options: 'Options :',
      commands: 'Commandes :',
      device: 'Appareils branchés : les lister, y mettre micrologiciels et fichiers de configuration.',
      helpOption: 'afficher l’aide de la commande',
    },
    es: {
      usage: 'Uso:',
      options: 'Opciones:',
      commands: 'Comandos:',
      device: 'Dispositivos conectados: listarlos, ponerles firmware y archivos de configuración.',
      helpOption: 'mostrar la ayuda del comando',
    },
    zh: {
      usage: '用法：',
      options: '选项：',
      commands: '命令：',
      device: '已连接的设备：列出设备，向其写入固件和配置文件。',
      helpOption: '显示命令的帮助',
    },
  };

  for (const language of LANGUAGES) {
    it(`is in ${language} with LANG=${LOCALES[language]}`, async () => {
      const run = await runIn({ LANG: LOCALES[language] }, ['device', '--help']);
      expect(run.code, run.stderr).toBe(0);
      const words = expected[language];
      expect(run.stdout.startsWith(`${words.usage} provisioner device [options] [command]\n`), run.stdout).toBe(true);
      // Commander wraps long lines: compare with the text's own spacing.
      const text = run.stdout.replace(/\s+/g, ' ');
      expect(text).toContain(words.device);
      expect(text).toContain(`${words.options} -h, --help ${words.helpOption}`);
      expect(text).toContain(` ${words.commands} list [options]`);
      if (language !== 'en') expect(text).not.toContain(expected.en.device);
    });
  }

  it('translates commander’s default and choices words, and keeps option names and values', async () => {
    const run = await runIn({ LANG: LOCALES.de }, ['station', '--help']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.replace(/\s+/g, ' ')).toContain('(Auswahl: "latest", "keep", Standard: "latest")');
    const english = await runIn({}, ['station', '--help']);
    expect(english.stdout.replace(/\s+/g, ' ')).toContain('(choices: "latest", "keep", default: "latest")');
  });
});

describe('how the language is chosen', () => {
  const usageWord = async (env: NodeJS.ProcessEnv, args: readonly string[] = []): Promise<string> => {
    const run = await runIn(env, [...args, '--help']);
    expect(run.code, run.stderr).toBe(0);
    return run.stdout.split(' provisioner')[0]!;
  };

  it('LC_ALL beats LC_MESSAGES, which beats LANG; --lang beats them all', async () => {
    expect(await usageWord({ LANG: LOCALES.de })).toBe('Aufruf:');
    expect(await usageWord({ LANG: LOCALES.de, LC_MESSAGES: LOCALES.es })).toBe('Uso:');
    expect(await usageWord({ LANG: LOCALES.de, LC_MESSAGES: LOCALES.es, LC_ALL: LOCALES.fr })).toBe('Utilisation :');
    expect(await usageWord({ LANG: LOCALES.de, LC_ALL: LOCALES.fr }, ['--lang', 'zh'])).toBe('用法：');
    expect(await usageWord({ LANG: LOCALES.de }, ['--lang=en'])).toBe('Usage:');
  });

  it('is English for C, POSIX, an unknown locale or none', async () => {
    expect(await usageWord({ LANG: LOCALES.de, LC_ALL: 'C' })).toBe('Usage:');
    expect(await usageWord({ LANG: 'POSIX' })).toBe('Usage:');
    expect(await usageWord({ LANG: 'ja_JP.UTF-8' })).toBe('Usage:');
    expect(await usageWord({})).toBe('Usage:');
  });

  it('takes a locale name for --lang as well as a code', async () => {
    expect(await usageWord({}, ['--lang', 'de_AT.UTF-8'])).toBe('Aufruf:');
    expect(await usageWord({}, ['--lang', 'ZH-CN'])).toBe('用法：');
  });
});

describe('a wrong --lang', () => {
  it('says what is wrong and the choices, with exit code 2, before doing anything', async () => {
    const run = await runIn({}, ['--lang', 'xx', 'status']);
    expect(run).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: --lang "xx" is not a language provisioner speaks: use one of en, de, fr, es, zh\n',
    });
  });

  it('says it in the language of the environment', async () => {
    const run = await runIn({ LANG: LOCALES.de }, ['device', 'list', '--lang=klingon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'error: --lang „klingon“ ist keine Sprache, die provisioner spricht: verwenden Sie eine von en, de, fr, es, zh\n',
    );
  });

  it('refuses a missing value and Traditional Chinese, which it does not speak', async () => {
    expect((await runIn({}, ['status', '--lang'])).stderr).toBe(
      'error: --lang "" is not a language provisioner speaks: use one of en, de, fr, es, zh\n',
    );
    expect((await runIn({}, ['--lang', 'zh-TW', 'status'])).code).toBe(2);
  });
});

describe('an error line', () => {
  const expected: Record<Language, string> = {
    en: 'error: no device named: name the device by serial number, by --link (serial:/dev/ttyACM0, udp:192.168.3.10, ble:ADDRESS), or use --all\n',
    de: 'error: kein Gerät genannt: nennen Sie das Gerät per Seriennummer, per --link (serial:/dev/ttyACM0, udp:192.168.3.10, ble:ADDRESS) oder verwenden Sie --all\n',
    fr: 'error: aucun appareil désigné : désignez l’appareil par son numéro de série, par --link (serial:/dev/ttyACM0, udp:192.168.3.10, ble:ADDRESS), ou utilisez --all\n',
    es: 'error: no se indicó ningún dispositivo: indique el dispositivo por número de serie, con --link (serial:/dev/ttyACM0, udp:192.168.3.10, ble:ADDRESS) o use --all\n',
    zh: 'error: 未指定设备：请用序列号、--link（serial:/dev/ttyACM0、udp:192.168.3.10、ble:ADDRESS）指定设备，或使用 --all\n',
  };
  for (const language of LANGUAGES) {
    it(`of a command line is in ${language}`, async () => {
      const run = await runIn({ LANG: LOCALES[language] }, ['device', 'firmware', 'update']);
      expect(run).toEqual({ code: 2, stdout: '', stderr: expected[language] });
    });
  }
});

describe('with a service and a device', () => {
  let world: World;
  const SERIAL = 'EPC000103';
  beforeAll(async () => {
    world = await startWorld('cli-languages');
    expect((await loginCli(world)).code).toBe(0);
    await world.startDevice({ deviceType: 'EPC', serialNumber: SERIAL, link: 'pty' });
    await world.client.devices.register({ serialNumber: SERIAL, name: 'languages' }).catch(() => undefined);
  }, 180_000);
  afterAll(async () => {
    await world?.dispose();
  });

  it(
    'a refused API key is said in each language, with the catalogue’s words and the code',
    { timeout: 120_000 },
    async () => {
      const expected: Record<Language, RegExp> = {
        en: /^error: the service refused the API key \(.+\); log in again: provisioner login --url URL --org ORG --api-key KEY\n$/,
        de: /^error: der Dienst hat den API-Schlüssel abgelehnt \(Der Dienst akzeptiert den Schlüssel nicht .+\); melden Sie sich erneut an: provisioner login --url URL --org ORG --api-key KEY\n$/,
        fr: /^error: le service a refusé la clé API \(Le service n’accepte pas la clé .+\) ; reconnectez-vous : provisioner login --url URL --org ORG --api-key KEY\n$/,
        es: /^error: el servicio rechazó la clave API \(El servicio no acepta la clave .+\); vuelva a iniciar sesión: provisioner login --url URL --org ORG --api-key KEY\n$/,
        zh: /^error: 服务拒绝了该 API 密钥（服务不接受该密钥.+）；请重新登录：provisioner login --url URL --org ORG --api-key KEY\n$/,
      };
      for (const language of LANGUAGES) {
        const other = await mkdtemp(join(tmpdir(), 'cli-languages-login-'));
        try {
          const run = await runCliIn(
            other,
            ['login', '--url', world.url, '--org', world.orgId, '--api-key', 'pk_not-a-real-key'],
            { env: { PATH: process.env.PATH, LANG: LOCALES[language] } },
          );
          expect(run.code, language).toBe(1);
          expect(run.stderr, language).toMatch(expected[language]);
        } finally {
          await rm(other, { recursive: true, force: true });
        }
      }
    },
  );

  it('a job’s final line is in each language', { timeout: 300_000 }, async () => {
    // German installs the firmware; the other languages then find it already there.
    const installed = await world.cli(['device', 'firmware', 'update', SERIAL], { env: { LANG: LOCALES.de } });
    expect(installed.code, installed.stderr).toBe(0);
    expect(installed.stdout).toContain(
      `${SERIAL}: Firmware 1.1.0 installiert (vorher 1.0.0); an den Dienst bestätigt\n`,
    );
    const expected: Record<Exclude<Language, 'de'>, string> = {
      en: `${SERIAL}: already runs firmware 1.1.0; nothing sent`,
      fr: `${SERIAL}: exécute déjà le micrologiciel 1.1.0 ; rien n’a été envoyé`,
      es: `${SERIAL}: ya ejecuta el firmware 1.1.0; no se envió nada`,
      zh: `${SERIAL}: 已在运行固件 1.1.0；未发送任何内容`,
    };
    for (const language of ['en', 'fr', 'es', 'zh'] as const) {
      const run = await world.cli(['device', 'firmware', 'update', SERIAL], { env: { LANG: LOCALES[language] } });
      expect(run.code, run.stderr).toBe(0);
      // Progress lines come first; the job's final line is its last.
      const last = run.stdout
        .split('\n')
        .filter((line) => line.startsWith(`${SERIAL}: `))
        .at(-1);
      expect(last, language).toBe(expected[language]);
    }
  });

  it(
    '--json is the same bytes in English, with LANG=de_DE.UTF-8 and with --lang zh',
    { timeout: 180_000 },
    async () => {
      // Once to let the listing confirm what the device runs; then three times, in three languages.
      await world.cli(['--json', 'device', 'list']);
      const english = await world.cli(['--json', 'device', 'list']);
      const german = await world.cli(['--json', 'device', 'list'], { env: { LANG: LOCALES.de } });
      const chinese = await world.cli(['--json', '--lang', 'zh', 'device', 'list']);
      expect(english.code, english.stderr).toBe(0);
      expect(JSON.parse(english.stdout)).toEqual([
        expect.objectContaining({ serialNumber: SERIAL, stateText: expect.any(String) }),
      ]);
      expect(german.stdout).toBe(english.stdout);
      expect(chinese.stdout).toBe(english.stdout);

      // A job's result line too (its words included), once the times and id that differ between
      // runs are set aside. How many progress lines come before it depends on timing, not language.
      const jobLines = async (env: NodeJS.ProcessEnv, args: readonly string[] = []) => {
        const run = await world.cli(['--json', ...args, 'device', 'firmware', 'update', SERIAL], { env });
        expect(run.code, run.stderr).toBe(0);
        const result = run.stdout.split('\n').filter((line) => line.includes('"event":"result"'));
        expect(result).toHaveLength(1);
        return result[0]!
          .replace(/"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"/g, '"T"')
          .replace(/"jobId":"[^"]+"/g, '"jobId":"J"')
          .replace(/"(rateBytesPerSecond|silentSeconds)":[0-9.e+-]+/g, '"$1":0');
      };
      const jobEnglish = await jobLines({});
      expect(jobEnglish).toContain('"resultMessage":"already runs firmware 1.1.0; nothing sent"');
      expect(await jobLines({ LANG: LOCALES.de })).toBe(jobEnglish);
      expect(await jobLines({}, ['--lang', 'zh'])).toBe(jobEnglish);
    },
  );
});
