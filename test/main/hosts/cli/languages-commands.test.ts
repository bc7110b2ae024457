import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { inCliLanguage } from '../../../../main/hosts/cli/cli-language';
import { readInputFile, safeDownloadName } from '../../../../main/hosts/cli/commands/files';

/**
 * Issue 29 in the commands translated after the first round (languages.test.ts): station, cache,
 * package, ledger, function-test and report. Their `--help` reads back in German and Chinese, their
 * lines and refusals are said in the language asked for, and `--json` is the same bytes in every
 * language. The expected words are written here, not read from the catalogs, so a catalog that
 * lost a translation, or a description the CLI stopped translating, fails.
 */

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cli-languages-commands-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const run = (env: NodeJS.ProcessEnv, args: readonly string[]) =>
  runCliIn(home, args, { env: { PATH: process.env.PATH, ...env } });

/**
 * Commander wraps long lines: compare with the text's own spacing. Chinese breaks between
 * characters too (main/hosts/cli/cli-help.ts): a break with a Chinese character or sign on both
 * sides joins without a space.
 */
const flat = (text: string) =>
  text.replace(/(?<=[\u2e80-\u9fff\uff00-\uffef])\n\s*(?=[\u2e80-\u9fff\uff00-\uffef])/gu, '').replace(/\s+/g, ' ');

interface HelpCase {
  command: readonly string[];
  en: readonly string[];
  de: readonly string[];
  zh: readonly string[];
}

// For each command: its description and one or two of its options, in three languages.
const HELP: HelpCase[] = [
  {
    command: ['station'],
    en: [
      'Station mode: provision every device of one configuration that is plugged in',
      'the configuration whose devices this station provisions',
    ],
    de: [
      'Stationsbetrieb: jedes angeschlossene Gerät einer Konfiguration einrichten',
      'gleichzeitig eingerichtete Geräte (Standard: 4)',
      'Ihr Name: wer die Schicht bestätigt',
    ],
    zh: ['工作站模式：为一个配置中所有已插入的设备', '同时配置的设备数 (默认：4)', '您的姓名：确认本班次的人'],
  },
  {
    command: ['cache'],
    en: [
      'Firmware and configuration files kept for installs without the service.',
      'Delete all but the newest versions of each type.',
    ],
    de: [
      'Firmware und Konfigurationsdateien, aufbewahrt für Installationen ohne den Dienst.',
      'Alle außer den neuesten Versionen jedes Typs löschen.',
    ],
    zh: ['为无法连接服务时安装而保留的固件和配置文件。', '删除每种类型中除最新版本以外的所有版本。'],
  },
  {
    command: ['cache', 'prefetch'],
    en: ['only this device type (repeatable)'],
    de: ['Die neueste Firmware jedes verwendeten Typs (oder --type)', 'nur dieser Gerätetyp (wiederholbar)'],
    zh: ['缓存每种在用类型（或 --type 指定的类型）的最新固件', '仅此设备类型（可重复）'],
  },
  {
    command: ['package'],
    en: ['Work packages for plants without network'],
    de: [
      'Arbeitspakete für Anlagen ohne Netz',
      'Die im Postausgang wartenden Bestätigungen in eine signierte Datei schreiben',
    ],
    zh: ['用于无网络现场的工作包', '将待发送队列中的确认记录写入一个已签名的文件'],
  },
  {
    command: ['package', 'import'],
    en: ["refuse it unless the organization's key that signed it is this one"],
    de: ['Ein Arbeitspaket prüfen', 'ablehnen, wenn es nicht mit diesem Schlüssel der Organisation signiert ist'],
    zh: ['检查工作包', '除非签名所用的组织密钥正是此密钥，否则拒绝'],
  },
  {
    command: ['ledger'],
    en: ["This workstation's tamper-evident record of every provisioning action."],
    de: [
      'Das manipulationssichere Protokollbuch dieses Arbeitsplatzes',
      'Den registrierten Schlüssel eines Arbeitsplatzes widerrufen (nur Admin)',
    ],
    zh: ['本工作站防篡改的操作记录簿', '吊销某工作站已登记的密钥（仅限 Admin）'],
  },
  {
    command: ['ledger', 'verify'],
    en: ['check only the local ledger; do not reach the service'],
    de: ['nur das lokale Protokollbuch prüfen; den Dienst nicht kontaktieren'],
    zh: ['只检查本地操作记录簿；不连接服务'],
  },
  {
    command: ['device', 'function-test'],
    en: ["press the device's E-stop while Provisioner watches it"],
    de: ['den Not-Halt des Geräts drücken', 'wie lange auf den Druck gewartet wird (Standard 120)'],
    zh: ['按下设备的急停', '等待按下的时间（默认 120）'],
  },
  {
    command: ['report'],
    en: ['The commissioning report of a configuration'],
    de: ['Das Inbetriebnahmeprotokoll einer Konfiguration', 'nur dieses Gerät der Konfiguration'],
    zh: ['某个配置（或其中一台设备）的调试报告', '仅该配置中的这台设备'],
  },
];

describe('--help of the commands translated in the second round', () => {
  for (const { command, en, de, zh } of HELP) {
    it(`${command.join(' ')} --help reads back in German and Chinese`, async () => {
      const english = await run({ LANG: 'C' }, [...command, '--help']);
      const german = await run({ LANG: 'de_DE.UTF-8' }, [...command, '--help']);
      const chinese = await run({}, ['--lang', 'zh', ...command, '--help']);
      for (const help of [english, german, chinese]) expect(help.code, help.stderr).toBe(0);
      for (const words of en) expect(flat(english.stdout)).toContain(words);
      for (const words of de) expect(flat(german.stdout)).toContain(words);
      for (const words of zh) expect(flat(chinese.stdout)).toContain(words);
      // No English description left behind in the other languages.
      for (const words of en) {
        expect(flat(german.stdout)).not.toContain(words);
        expect(flat(chinese.stdout)).not.toContain(words);
      }
      // Command and option names are not translated.
      expect(german.stdout.startsWith(`Aufruf: provisioner ${command.join(' ')} `), german.stdout).toBe(true);
      expect(chinese.stdout.startsWith(`用法： provisioner ${command.join(' ')} `), chinese.stdout).toBe(true);
    });
  }
});

describe('lines and refusals', () => {
  it('cache prune says there is nothing to prune in each language, with the plural of each', async () => {
    const said = async (env: NodeJS.ProcessEnv, keep: string) =>
      (await run(env, ['cache', 'prune', '--keep', keep])).stdout;
    expect(await said({}, '1')).toBe('Nothing to prune: no type has more than 1 version cached.\n');
    expect(await said({}, '3')).toBe('Nothing to prune: no type has more than 3 versions cached.\n');
    expect(await said({ LANG: 'de_DE.UTF-8' }, '1')).toBe(
      'Nichts zu bereinigen: kein Typ hat mehr als 1 Version im Cache.\n',
    );
    expect(await said({ LC_MESSAGES: 'fr_FR.UTF-8' }, '3')).toBe(
      'Rien à élaguer : aucun type n’a plus de 3 versions en cache.\n',
    );
    expect(await said({ LANG: 'es_ES.UTF-8' }, '3')).toBe(
      'Nada que depurar: ningún tipo tiene más de 3 versiones en la caché.\n',
    );
    expect(await said({ LANG: 'zh_CN.UTF-8' }, '3')).toBe('无需清理：没有任何类型缓存的版本超过 3 个。\n');
  });

  it('cache list says the cache is empty and how to fill it, the command itself untranslated', async () => {
    expect((await run({ LANG: 'de_DE.UTF-8' }, ['cache', 'list'])).stdout).toBe(
      'Keine Firmware im Cache. Füllen Sie den Cache, solange der Dienst erreichbar ist: provisioner cache prefetch\n',
    );
    expect((await run({ LANG: 'zh_CN.UTF-8' }, ['cache', 'list'])).stdout).toBe(
      '缓存中没有固件。请在能连接服务时填充缓存：provisioner cache prefetch\n',
    );
  });

  it('package import of a file that is not there says so in the language, the path as it is', async () => {
    const missing = join(home, 'kein-paket.provisioner');
    const english = await run({}, ['package', 'import', missing]);
    const german = await run({ LANG: 'de_DE.UTF-8' }, ['package', 'import', missing]);
    const chinese = await run({}, ['--lang', 'zh', 'package', 'import', missing]);
    expect(english.stderr).toBe(`error: there is no work package at ${missing}: check the path\n`);
    expect(german.stderr).toBe(`error: unter ${missing} gibt es kein Arbeitspaket: prüfen Sie den Pfad\n`);
    expect(chinese.stderr).toBe(`error: ${missing} 处没有工作包：请检查路径\n`);
    expect(new Set([english.code, german.code, chinese.code]).size).toBe(1);
    expect(english.code).not.toBe(0);
  });

  it('package import with an API key is refused in the language, exit code 2 in every one', async () => {
    const german = await run({ LANG: 'de_DE.UTF-8' }, ['package', 'import', 'x', '--api-key', 'pk_x']);
    expect(german).toEqual({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(
        /^error: package import nimmt keinen API-Schlüssel: ein Arbeitspaket meldet einen Laptop nie an\./,
      ),
    });
    const spanish = await run({ LANG: 'es_ES.UTF-8' }, ['package', 'import', 'x', '--root-fingerprint', 'abc']);
    expect(spanish).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --root-fingerprint debe ser los 64 dígitos hexadecimales que muestra `provisioner status` en un portátil con sesión iniciada, no «abc»\n',
    });
  });
});

describe('usage errors of ledger, function-test and report', () => {
  it('are said in the language, exit code 2, the value given as it is', async () => {
    const german = await run({ LANG: 'de_DE.UTF-8' }, ['ledger', 'verify', '--local', '--entry', 'abc123']);
    expect(german.code).toBe(2);
    expect(german.stderr).toContain(
      '„abc123“ ist kein Hash eines Protokollbuch-Eintrags; geben Sie seine 64 Hex-Ziffern an',
    );
    const chinese = await run({ LANG: 'zh_CN.UTF-8' }, ['device', 'function-test', 'EPC000101', '--result', 'maybe']);
    expect(chinese.code).toBe(2);
    expect(chinese.stderr).toContain('“maybe”不是有效结果；请给出 pass 或 fail。');
    const french = await run({ LANG: 'fr_FR.UTF-8' }, [
      'report',
      '--configuration',
      'Loader 7',
      '--out',
      'rapport.docx',
    ]);
    expect(french).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'error: --out rapport.docx : le rapport s’écrit en .pdf ou en .json ; terminez le nom du fichier par l’une de ces extensions\n',
    });
    const spanish = await run({ LANG: 'es_ES.UTF-8' }, ['report', '--configuration', 'Loader 7']);
    expect(spanish).toEqual({
      code: 2,
      stdout: '',
      stderr: 'error: indique adónde va el informe: --out ARCHIVO.pdf o --out ARCHIVO.json (o --json para mostrarlo)\n',
    });
  });

  it('function-test of a device the workspace does not know is refused in the language', async () => {
    const german = await run({ LANG: 'de_DE.UTF-8' }, ['device', 'function-test', 'EPC999999']);
    expect(german.code).not.toBe(0);
    expect(german.stderr).toMatch(
      /^error: EPC999999 ist in .+ nicht registriert; registrieren Sie das Gerät und spielen Sie zuerst seine Konfiguration auf\n$/,
    );
  });
});

describe('ledger verify --local', () => {
  it('says how the local ledger stands in the language, and its --json is the same bytes in every one', async () => {
    const english = await run({}, ['ledger', 'verify', '--local']);
    const german = await run({ LANG: 'de_DE.UTF-8' }, ['ledger', 'verify', '--local']);
    const chinese = await run({ LANG: 'zh_CN.UTF-8' }, ['ledger', 'verify', '--local']);
    for (const said of [english, german, chinese]) expect(said.code, said.stderr).toBe(0);
    expect(english.stdout).toMatch(/^Local ledger .+: 0 entries, every link holds\.$/m);
    expect(german.stdout).toMatch(/^Lokales Protokollbuch .+: 0 Einträge, jedes Glied hält\.$/m);
    expect(chinese.stdout).toMatch(/^本地操作记录簿 .+：0 条条目，所有链接完好。$/m);

    const json = await run({}, ['--json', 'ledger', 'verify', '--local']);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: true, local: { ok: true, entries: 0 } });
    expect((await run({ LANG: 'de_DE.UTF-8' }, ['--json', 'ledger', 'verify', '--local'])).stdout).toBe(json.stdout);
    expect((await run({}, ['--lang', 'zh', '--json', 'ledger', 'verify', '--local'])).stdout).toBe(json.stdout);
  });
});

describe('the file helpers’ refusals', () => {
  it('are said in the run’s language, the name and path as they are', async () => {
    const refusal = (language: 'en' | 'de' | 'zh') => {
      try {
        inCliLanguage(language, () => safeDownloadName('../..'));
      } catch (error) {
        return (error as Error).message;
      }
      return 'not refused';
    };
    expect(refusal('en')).toBe('the download\'s file name "../.." has nothing left once made safe; nothing was saved');
    expect(refusal('de')).toBe(
      'vom Dateinamen „../..“ des Downloads bleibt nach dem Bereinigen nichts übrig; nichts wurde gespeichert',
    );
    expect(refusal('zh')).toBe('下载的文件名“../..”经安全处理后为空；未保存任何内容');
    const missing = join(home, 'fehlt.zip');
    await expect(inCliLanguage('de', () => readInputFile(missing))).rejects.toThrow(`${missing}: keine solche Datei`);
  });
});

describe('--json', () => {
  it('of cache list and cache prune is the same bytes in English, German, French, Spanish and Chinese', async () => {
    for (const command of [
      ['cache', 'list'],
      ['cache', 'prune', '--keep', '1'],
    ]) {
      const english = await run({}, ['--json', ...command]);
      expect(english.code, english.stderr).toBe(0);
      expect(() => JSON.parse(english.stdout)).not.toThrow();
      for (const env of [{ LANG: 'de_DE.UTF-8' }, { LC_ALL: 'fr_FR.UTF-8' }, { LANG: 'es_ES.UTF-8' }]) {
        expect((await run(env, ['--json', ...command])).stdout, JSON.stringify(env)).toBe(english.stdout);
      }
      expect((await run({}, ['--json', '--lang', 'zh', ...command])).stdout).toBe(english.stdout);
    }
  });
});
