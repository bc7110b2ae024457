import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliIn } from '../../../fixtures/cli-in-process';
import { commanderErrorText } from '../../../../main/hosts/cli/cli-errors';

/**
 * Commander's own errors — an unknown command, a missing argument, an unknown option, too many
 * arguments, a value not among the choices — in the run's language (main/hosts/cli/cli-errors.ts),
 * with the usage exit code (2) and the "error:" prefix of every language. The expected words are
 * written here, not read from the catalogs, so a lost translation fails. None of these runs
 * reaches a service: commander refuses the command line before any command starts.
 */

let home: string;
beforeAll(async () => {
  home = await mkdtemp(join(tmpdir(), 'cli-commander-errors-'));
});
afterAll(async () => {
  await rm(home, { recursive: true, force: true });
});

const runIn = (locale: string, args: readonly string[]) =>
  runCliIn(home, args, { env: { PATH: process.env.PATH, LANG: locale } });

describe('commander’s errors in the run’s language', () => {
  const cases = {
    'en_GB.UTF-8': {
      unknown: "error: unknown command 'flash'\n(run with --help for usage)\n",
      missing: "error: missing required argument 'serialNumber'\n(run with --help for usage)\n",
    },
    'de_DE.UTF-8': {
      unknown: 'error: unbekannter Befehl „flash“\n(mit --help aufrufen, um die Verwendung zu sehen)\n',
      missing:
        'error: das erforderliche Argument „serialNumber“ fehlt\n(mit --help aufrufen, um die Verwendung zu sehen)\n',
    },
    'zh_CN.UTF-8': {
      unknown: 'error: 未知命令“flash”\n（使用 --help 查看用法）\n',
      missing: 'error: 缺少必需的参数“serialNumber”\n（使用 --help 查看用法）\n',
    },
  } as const;

  for (const [locale, expected] of Object.entries(cases)) {
    it(`an unknown command and a missing argument, LANG=${locale}`, async () => {
      const unknown = await runIn(locale, ['device', 'flash']);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toBe(expected.unknown);
      expect(unknown.stdout).toBe('');

      const missing = await runIn(locale, ['device', 'configuration', 'download', '-o', home]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(expected.missing);
    });
  }

  it('--lang decides over the environment, and the suggestion is said too', async () => {
    const run = await runIn('de_DE.UTF-8', ['--lang', 'zh', 'logn']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('error: 未知命令“logn”\n（您是否要输入 login？）\n（使用 --help 查看用法）\n');

    const german = await runIn('de_DE.UTF-8', ['logn']);
    expect(german.stderr).toBe(
      'error: unbekannter Befehl „logn“\n(Meinten Sie login?)\n(mit --help aufrufen, um die Verwendung zu sehen)\n',
    );
  });

  it('an unknown option, too many arguments, a missing value and a wrong choice, in German', async () => {
    const lines = async (args: string[]) => {
      const run = await runIn('de_DE.UTF-8', args);
      expect(run.code, args.join(' ')).toBe(2);
      return run.stderr.split('\n')[0];
    };
    expect(await lines(['status', '--bogus'])).toBe('error: unbekannte Option „--bogus“');
    expect(await lines(['device', 'list', 'extra'])).toBe(
      'error: zu viele Argumente für „list“: erwartet 0 Argumente, angegeben 1.',
    );
    expect(await lines(['cache', 'prune', '--keep'])).toBe('error: der Option „--keep <n>“ fehlt ihr Wert');
    expect(await lines(['station'])).toBe(
      'error: die erforderliche Option „--configuration <name>“ wurde nicht angegeben',
    );
    expect(await lines(['device', 'firmware', 'download', '-t', 'XX', '-o', home])).toBe(
      'error: „XX“ ist für die Option „-t, --type <type>“ nicht zulässig. Erlaubt sind SRCP, WESP, EPC, NSCP, srcp, wesp, epc, nscp.',
    );
  });
});

describe('commanderErrorText', () => {
  it('leaves a message alone when its code is not one it knows, or its shape is not the known one', () => {
    expect(commanderErrorText("error: unknown command 'x'", undefined)).toBe("error: unknown command 'x'");
    expect(commanderErrorText('error: something new', 'commander.somethingNew')).toBe('error: something new');
    // A reworded message of a known code (a commander upgrade) stays English rather than said wrong.
    expect(commanderErrorText("error: the command 'x' is unknown", 'commander.unknownCommand')).toBe(
      "error: the command 'x' is unknown",
    );
  });
});
