import { Option, type Command, type Help } from 'commander';
import packageJson from '../../../package.json' with { type: 'json' };
import { DEVICE_TYPES } from '../../../domain/device-types';
import { cacheList, cachePrefetch, cachePrune } from './commands/cache';
import { cacheSelfTest } from './commands/cache-self-test';
import { configurationApply, configurationDownload, configurationUpdate } from './commands/configuration';
import { deviceList } from './commands/device-list';
import { deviceVerify } from './commands/verify';
import { deviceUpdate, firmwareApply, firmwareDownload, firmwareUpdate } from './commands/firmware';
import { login, logout, status, type LoginOptions } from './commands/login';
import { outboxList, outboxSync } from './commands/outbox';
import {
  packageExport,
  packageExportConfirmations,
  packageImport,
  packageImportConfirmations,
} from './commands/package';
import { station } from './commands/station';
import { addAccountabilityCommands } from './commands/accountability';
import type { GlobalOptions, Runner } from './context';
import type { CliIo } from './io';
import { CliError, EXIT } from './errors';
import { cliLanguage, LANG_FLAGS, parseLanguageOption, t } from './cli-language';
import { CommandInRunLanguage } from './cli-errors';
import { helpInColumns } from './cli-help';
import { LANGUAGES } from '../../../domain/i18n/index.js';

export type { Runner } from './context';

function positiveInteger(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new CliError(`${name} must be a whole number of at least 1, not "${value}"`, EXIT.usage);
    return n;
  };
}

function nonNegativeInteger(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new CliError(`${name} must be a whole number, not "${value}"`, EXIT.usage);
    return n;
  };
}

const collect = (value: string, previous: string[] = []): string[] => [...previous, value];

/**
 * What `provisioner --version` prints: ours and the Node runtime's, which for the single
 * executable (scripts/build-cli.mjs) is the one built into it and so not otherwise visible.
 */
const VERSION_TEXT = `${packageJson.version} (node ${process.version})`;

/** Read when the program is built, in the run's language (cli-language.ts). */
const linkHelp = (): string => t('cli:help.link');

/** A command over several devices, named as targets.ts takes them: by serial number, by --link, or --all. */
function targetsCommand(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .argument('[serialNumbers...]', t('cli:help.targets.serialNumbers'))
    .option('--link <spec>', linkHelp(), collect)
    .option('--all', t('cli:help.targets.all'));
}

/** `apply`: one file (-f) onto one device, named by serial number or by --link. */
function applyFileCommand(parent: Command, description: string, fileHelp: string): Command {
  return parent
    .command('apply')
    .description(description)
    .argument('[serialNumber]', t('cli:help.apply.serialNumber'))
    .requiredOption('-f, --file <file>', fileHelp)
    .option('--link <spec>', linkHelp(), collect);
}

const HELP_TITLES: Readonly<Record<string, string>> = {
  'Usage:': 'cli:help.title.usage',
  'Options:': 'cli:help.title.options',
  'Commands:': 'cli:help.title.commands',
  'Arguments:': 'cli:help.title.arguments',
  'Global Options:': 'cli:help.title.globalOptions',
};

/**
 * `--help` in the run's language: our descriptions come from the cli catalog where they are
 * registered; commander's own words are its section titles (styleTitle is called with each) and
 * the "(default: …)" and "(choices: …)" it adds after an option's description.
 */
function translatedHelp(): Partial<Help> {
  return {
    ...helpInColumns(),
    sortSubcommands: false,
    styleTitle: (title: string) => {
      const key = HELP_TITLES[title];
      return key ? t(key) : title;
    },
    // Commander's own optionDescription, with its two words from the catalog.
    optionDescription: (option: Option) => {
      const extra: string[] = [];
      if (option.argChoices)
        extra.push(
          t('cli:help.choices', { choices: option.argChoices.map((choice) => JSON.stringify(choice)).join(', ') }),
        );
      const showDefault =
        option.required || option.optional || (option.isBoolean() && typeof option.defaultValue === 'boolean');
      if (option.defaultValue !== undefined && showDefault) {
        extra.push(
          t('cli:help.default', { value: option.defaultValueDescription || JSON.stringify(option.defaultValue) }),
        );
      }
      if (extra.length === 0) return option.description;
      return option.description ? `${option.description} (${extra.join(', ')})` : `(${extra.join(', ')})`;
    },
  };
}

/**
 * The command tree. Meanings follow the vendor's CLI (login, logout, device list, device
 * configuration download/apply/update, device firmware download/apply/update); outbox, cache,
 * status and device update are ours.
 */
export function buildProgram(
  runner: Runner,
  io: Pick<CliIo, 'stdout' | 'stderr'>,
  interrupt?: AbortSignal,
  stdin?: NodeJS.ReadableStream,
): Command {
  // Set before any subcommand is added: subcommands copy these settings when they are created, and
  // without them commander would call process.exit itself.
  // Commander's own errors (unknown command, missing argument…) in the run's language: cli-errors.ts.
  const program = new CommandInRunLanguage('provisioner')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .description(t('cli:help.root'))
    .version(VERSION_TEXT, '-V, --version', t('cli:help.version'))
    .option('--data-dir <dir>', t('cli:help.dataDir'))
    .option('--json', t('cli:help.json'))
    .option('--concurrency <n>', t('cli:help.concurrency'), positiveInteger('--concurrency'))
    .option('--reconnect-timeout <seconds>', t('cli:help.reconnectTimeout'), positiveInteger('--reconnect-timeout'))
    // Read before parsing (cli-language.ts); registered so that --help lists it and a bad code is refused here too.
    .option(LANG_FLAGS, t('cli:lang.option', { choices: LANGUAGES.join(', ') }), (value: string) =>
      parseLanguageOption(value, cliLanguage()),
    )
    .showHelpAfterError(t('cli:help.afterError'))
    .helpOption('-h, --help', t('cli:help.helpOption'))
    .helpCommand('help [command]', t('cli:help.helpCommand'))
    .configureHelp(translatedHelp());

  program
    .command('login')
    .description(t('cli:help.login'))
    .option('--url <url>', t('cli:help.login.url'))
    .option('--org <orgId>', t('cli:help.login.org'))
    .option('--api-key <key>', t('cli:help.login.apiKey'))
    .option('--api-key-stdin', t('cli:help.login.apiKeyStdin'))
    .option('--insecure', t('cli:help.login.insecure'))
    .action((options: LoginOptions) => runner((ctx) => login(ctx, options, stdin)));

  program
    .command('logout')
    .description(t('cli:help.logout'))
    .action(() => runner((ctx) => logout(ctx)));

  program
    .command('status')
    .description(t('cli:help.status'))
    .action(() => runner((ctx) => status(ctx)));

  program
    .command('signing-key')
    .description(t('cli:help.signingKey'))
    .action(() =>
      runner(async (ctx) => {
        const key = await (await ctx.account()).client.signingKey();
        if (ctx.out.json) ctx.out.jsonLine(key);
        else ctx.out.line(key.publicKeyPem.trimEnd());
        return EXIT.ok;
      }),
    );

  program
    .command('release-keys')
    .description(t('cli:help.releaseKeys'))
    .action(() =>
      runner(async (ctx) => {
        const keys = await (await ctx.account()).client.firmwareReleaseKeys();
        if (ctx.out.json) ctx.out.jsonLine(keys);
        else for (const key of keys) ctx.out.line(key.publicKeyPem.trimEnd());
        return EXIT.ok;
      }),
    );

  const device = program.command('device').description(t('cli:help.device'));

  device
    .command('list')
    .description(t('cli:help.device.list'))
    .option('--link <spec>', linkHelp(), collect)
    .action((options: { link?: string[] }) => runner((ctx) => deviceList(ctx, options)));

  targetsCommand(device, 'verify', t('cli:help.verify'))
    .option('--parameters', t('cli:help.verify.parameters'))
    .option('--technician <name>', t('cli:help.technician.ledger'))
    .action(
      (
        serialNumbers: string[],
        options: { link?: string[]; all?: boolean; parameters?: boolean; technician?: string },
      ) => runner((ctx) => deviceVerify(ctx, serialNumbers, options)),
    );

  targetsCommand(device, 'update', t('cli:help.update'))
    .option('--force', t('cli:help.update.force'))
    .option('--confirm-checksum <XXXXXXXX>', t('cli:help.confirmChecksum'))
    .option('--technician <name>', t('cli:help.technician.confirms'))
    .action(
      (
        serialNumbers: string[],
        options: { link?: string[]; all?: boolean; force?: boolean; confirmChecksum?: string; technician?: string },
      ) => runner((ctx) => deviceUpdate(ctx, serialNumbers, options, interrupt)),
    );

  const configuration = device.command('configuration').description(t('cli:help.configuration'));
  configuration
    .command('download')
    .description(t('cli:help.configuration.download'))
    .argument('<serialNumber>')
    .requiredOption('-o, --output <dir>', t('cli:help.output'))
    .option('--force', t('cli:help.forceReplace'))
    .action((serialNumber: string, options: { output: string; force?: boolean }) =>
      runner((ctx) => configurationDownload(ctx, serialNumber, options)),
    );
  applyFileCommand(configuration, t('cli:help.configuration.apply'), t('cli:help.configuration.file')).action(
    (serialNumber: string | undefined, options: { file: string; link?: string[] }) =>
      runner((ctx) => configurationApply(ctx, serialNumber, options, interrupt)),
  );
  targetsCommand(configuration, 'update', t('cli:help.configuration.update'))
    .option('--dry-run', t('cli:help.dryRun'))
    .option('--confirm-checksum <XXXXXXXX>', t('cli:help.confirmChecksum.strict'))
    .option('--technician <name>', t('cli:help.technician.confirms'))
    .action(
      (
        serialNumbers: string[],
        options: { link?: string[]; all?: boolean; dryRun?: boolean; confirmChecksum?: string; technician?: string },
      ) => runner((ctx) => configurationUpdate(ctx, serialNumbers, options, interrupt)),
    );

  const firmware = device.command('firmware').description(t('cli:help.firmware'));
  firmware
    .command('download')
    .description(t('cli:help.firmware.download'))
    .option('-s, --serial <serialNumber>', t('cli:help.firmware.serial'))
    .addOption(
      new Option('-t, --type <type>', t('cli:help.firmware.type')).choices([
        ...DEVICE_TYPES,
        ...DEVICE_TYPES.map((t) => t.toLowerCase()),
      ]),
    )
    .requiredOption('-o, --output <dir>', t('cli:help.output'))
    .option('--force', t('cli:help.forceReplace'))
    .action((options: { serial?: string; type?: string; output: string; force?: boolean }) =>
      runner((ctx) => firmwareDownload(ctx, options)),
    );
  applyFileCommand(firmware, t('cli:help.firmware.apply'), t('cli:help.firmware.file'))
    .option('--force', t('cli:help.firmware.applyForce'))
    .action((serialNumber: string | undefined, options: { file: string; link?: string[]; force?: boolean }) =>
      runner((ctx) => firmwareApply(ctx, serialNumber, options, interrupt)),
    );
  targetsCommand(firmware, 'update', t('cli:help.firmware.update'))
    .option('--force', t('cli:help.firmware.updateForce'))
    .action((serialNumbers: string[], options: { link?: string[]; all?: boolean; force?: boolean }) =>
      runner((ctx) => firmwareUpdate(ctx, serialNumbers, options, interrupt)),
    );

  program
    .command('station')
    .description(t('cli:help.station'))
    .requiredOption('--configuration <name>', t('cli:help.station.configuration'))
    .addOption(
      new Option('--firmware <policy>', t('cli:help.station.firmware')).choices(['latest', 'keep']).default('latest'),
    )
    .option('--lanes <n>', t('cli:help.station.lanes'), positiveInteger('--lanes'), 4)
    .option('--report <file>', t('cli:help.station.report'))
    .option('--confirm-checksum <XXXXXXXX>', t('cli:help.station.confirmChecksum'))
    .option('--operator <name>', t('cli:help.station.operator'))
    .action(
      (options: {
        configuration: string;
        firmware: 'latest' | 'keep';
        lanes: number;
        report?: string;
        confirmChecksum?: string;
        operator?: string;
      }) => runner((ctx) => station(ctx, options, interrupt)),
    );

  const outbox = program.command('outbox').description(t('cli:help.outbox'));
  outbox
    .command('list', { isDefault: true })
    .description(t('cli:help.outbox.list'))
    .action(() => runner((ctx) => outboxList(ctx)));
  outbox
    .command('sync')
    .description(t('cli:help.outbox.sync'))
    .action(() => runner((ctx) => outboxSync(ctx)));

  const cache = program.command('cache').description(t('cli:help.cache'));
  cache
    .command('list', { isDefault: true })
    .description(t('cli:help.cache.list'))
    .action(() => runner((ctx) => cacheList(ctx)));
  cache
    .command('prefetch')
    .description(t('cli:help.cache.prefetch'))
    .option('-t, --type <type>', t('cli:help.cache.type'), collect)
    .action((options: { type?: string[] }) => runner((ctx) => cachePrefetch(ctx, options)));
  cache
    .command('prune')
    .description(t('cli:help.cache.prune'))
    .option('--keep <n>', t('cli:help.cache.keep'), nonNegativeInteger('--keep'), 2)
    .action((options: { keep: number }) => runner((ctx) => cachePrune(ctx, options)));
  cache
    .command('self-test', { hidden: true })
    .description(t('cli:help.cache.selfTest'))
    .action(() => runner((ctx) => cacheSelfTest(ctx)));

  const workPackage = program.command('package').description(t('cli:help.package'));
  workPackage
    .command('export')
    .description(t('cli:help.package.export'))
    .requiredOption('--configuration <name>', t('cli:help.package.configuration'))
    .requiredOption('--out <file>', t('cli:help.package.out'))
    .option('--expires-in <days>', t('cli:help.package.expiresIn'), positiveInteger('--expires-in'))
    .action((options: { configuration: string; out: string; expiresIn?: number }) =>
      runner((ctx) => packageExport(ctx, options)),
    );
  workPackage
    .command('import')
    .description(t('cli:help.package.import'))
    .argument('<file>')
    .option('--root-fingerprint <hex>', t('cli:help.package.rootFingerprint'))
    .option('--signer <keyId>', t('cli:help.package.signer'))
    .addOption(new Option('--api-key <key>').hideHelp())
    .action((file: string, options: { signer?: string; rootFingerprint?: string; apiKey?: string }) =>
      runner((ctx) => packageImport(ctx, file, options)),
    );
  workPackage
    .command('export-confirmations')
    .description(t('cli:help.package.exportConfirmations'))
    .requiredOption('--out <file>', t('cli:help.package.out'))
    .action((options: { out: string }) => runner((ctx) => packageExportConfirmations(ctx, options)));
  workPackage
    .command('import-confirmations')
    .description(t('cli:help.package.importConfirmations'))
    .argument('<file>')
    .option('--signer <keyId>', t('cli:help.package.confirmationsSigner'))
    .action((file: string, options: { signer?: string }) =>
      runner((ctx) => packageImportConfirmations(ctx, file, options)),
    );

  addAccountabilityCommands(program, runner);

  return program;
}

export function globalOptions(program: Command): GlobalOptions {
  return program.opts<GlobalOptions>();
}
