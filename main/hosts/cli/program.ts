import { Command, Option } from 'commander';
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
import { packageExport, packageExportConfirmations, packageImport, packageImportConfirmations } from './commands/package';
import { station } from './commands/station';
import { addAccountabilityCommands } from './commands/accountability';
import type { CliContext, GlobalOptions } from './context';
import type { CliIo } from './io';
import { CliError, EXIT } from './errors';
import { cliLanguage, LANG_FLAGS, parseLanguageOption, t } from './cli-language';
import { LANGUAGES } from '../../../domain/i18n/index.js';

/** Runs a command with the context of this invocation; the exit code is kept for main. */
export type Runner = (run: (ctx: CliContext) => Promise<number>) => Promise<void>;

function positiveInteger(name: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1) throw new CliError(`${name} must be a whole number of at least 1, not "${value}"`, EXIT.usage);
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

const LINK_HELP = 'where the device is attached: serial:/dev/ttyACM0[@BAUD], udp:HOST[:PORT], ble:ADDRESS (repeatable)';

/** A command over several devices, named as targets.ts takes them: by serial number, by --link, or --all. */
function targetsCommand(parent: Command, name: string, description: string): Command {
  return parent
    .command(name)
    .description(description)
    .argument('[serialNumbers...]', 'devices by serial number (found among the attached ones)')
    .option('--link <spec>', LINK_HELP, collect)
    .option('--all', 'every attached device');
}

/** `apply`: one file (-f) onto one device, named by serial number or by --link. */
function applyFileCommand(parent: Command, description: string, fileHelp: string): Command {
  return parent
    .command('apply')
    .description(description)
    .argument('[serialNumber]', 'the device (found among the attached ones, or checked on --link)')
    .requiredOption('-f, --file <file>', fileHelp)
    .option('--link <spec>', LINK_HELP, collect);
}

/**
 * The command tree. Meanings follow the vendor's CLI (login, logout, device list, device
 * configuration download/apply/update, device firmware download/apply/update); outbox, cache,
 * status and device update are ours.
 */
export function buildProgram(runner: Runner, io: Pick<CliIo, 'stdout' | 'stderr'>, interrupt?: AbortSignal, stdin?: NodeJS.ReadableStream): Command {
  // Set before any subcommand is added: subcommands copy these settings when they are created, and
  // without them commander would call process.exit itself.
  const program = new Command('provisioner')
    .exitOverride()
    .configureOutput({ writeOut: (text) => io.stdout.write(text), writeErr: (text) => io.stderr.write(text) })
    .description(
      'Provision SRCP, WESP, EPC and NSCP devices: firmware and configuration files from the service, onto devices on USB serial, IP or BLE, confirmed back to the service.\n' +
        'Without a login it works on the local workspace (the embedded service with a demo organization).',
    )
    .version(VERSION_TEXT, '-V, --version', 'print the version of provisioner and of its Node runtime')
    .option('--data-dir <dir>', 'keep the login, cache, outbox and local workspace under DIR (default: your config and data directories; env PROVISIONER_HOME)')
    .option('--json', 'machine-readable output: JSON (device list, outbox list, cache list) or JSON lines (jobs)')
    .option('--concurrency <n>', 'devices worked on at once (default 8)', positiveInteger('--concurrency'))
    .option('--reconnect-timeout <seconds>', 'how long to wait for a device that went away (pulled cable, restart) before giving up (default 60)', positiveInteger('--reconnect-timeout'))
    // Read before parsing (cli-language.ts); registered so that --help lists it and a bad code is refused here too.
    .option(LANG_FLAGS, t('cli:lang.option', { choices: LANGUAGES.join(', ') }), (value: string) => parseLanguageOption(value, cliLanguage()))
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: false });

  program
    .command('login')
    .description('Log in to a service: checks the API key with the service, then keeps it in a file only you can read.')
    .option('--url <url>', 'the service, e.g. https://provisioning.example.com')
    .option('--org <orgId>', 'your organization id')
    .option('--api-key <key>', 'the API key (or $PROVISIONER_API_KEY, or --api-key-stdin)')
    .option('--api-key-stdin', 'read the API key from standard input')
    .option('--insecure', 'allow a plain http:// URL of another computer (the key then crosses the network unencrypted)')
    .action((options: LoginOptions) => runner((ctx) => login(ctx, options, stdin)));

  program
    .command('logout')
    .description('Forget the login; commands then use the local workspace. Unsent confirmations stay in the outbox.')
    .action(() => runner((ctx) => logout(ctx)));

  program
    .command('status')
    .description('Who you are logged in as, and what waits in the outbox.')
    .action(() => runner((ctx) => status(ctx)));

  program
    .command('signing-key')
    .description("Print the service's root key (PEM), which devices are made trusting, e.g. for the simulator's --public-key.")
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
    .description("Print the firmware release keys the service trusts (PEM, one after another), e.g. for the simulator's --release-key-pub.")
    .action(() =>
      runner(async (ctx) => {
        const keys = await (await ctx.account()).client.firmwareReleaseKeys();
        if (ctx.out.json) ctx.out.jsonLine(keys);
        else for (const key of keys) ctx.out.line(key.publicKeyPem.trimEnd());
        return EXIT.ok;
      }),
    );

  const device = program.command('device').description('Attached devices: list them, put firmware and configuration files on them.');

  device
    .command('list')
    .description(
      'Attached devices (USB serial, simulator, BLE in range, and --link ones): connection, model, interface, serial number, firmware version, and how each stands against the service (in sync, behind, drift, unknown) with when it was last observed. What a device runs that the service has not recorded is confirmed to it.',
    )
    .option('--link <spec>', LINK_HELP, collect)
    .action((options: { link?: string[] }) => runner((ctx) => deviceList(ctx, options)));

  targetsCommand(
    device,
    'verify',
    'Read each device back and compare it with what the service expects, changing nothing: in sync, firmware behind, configuration drift, or not in any configuration. Exits 0 only when every device is in sync.',
  )
    .option('--parameters', 'instead: read back the safety and link parameters each device runs and compare them, value by value and checksum against checksum, with its configuration; exits 1 on any difference')
    .option('--technician <name>', 'your name, for the ledger (default: PROVISIONER_TECHNICIAN)')
    .action((serialNumbers: string[], options: { link?: string[]; all?: boolean; parameters?: boolean; technician?: string }) => runner((ctx) => deviceVerify(ctx, serialNumbers, options)));

  targetsCommand(device, 'update', 'Latest firmware, then the configuration file, on each device named; ends with the parameter confirmation as configuration update does.')
    .option('--force', 'install the firmware even when the device already runs it')
    .option('--confirm-checksum <XXXXXXXX>', 'confirm the parameters the device runs by the last 8 hex digits of its running checksum (asked at a terminal otherwise)')
    .option('--technician <name>', 'your name: who confirms the parameters (default: PROVISIONER_TECHNICIAN; asked at a terminal)')
    .action((serialNumbers: string[], options: { link?: string[]; all?: boolean; force?: boolean; confirmChecksum?: string; technician?: string }) => runner((ctx) => deviceUpdate(ctx, serialNumbers, options, interrupt)));

  const configuration = device.command('configuration').description("A device's configuration file.");
  configuration
    .command('download')
    .description("Download a device's configuration file (CBOR) into DIR; prints its syncId.")
    .argument('<serialNumber>')
    .requiredOption('-o, --output <dir>', 'directory to save it in')
    .option('--force', 'replace a file of that name in DIR (kept otherwise)')
    .action((serialNumber: string, options: { output: string; force?: boolean }) => runner((ctx) => configurationDownload(ctx, serialNumber, options)));
  applyFileCommand(configuration, 'Apply a configuration file to a device. A file for another device is refused before anything is sent.', 'the configuration file')
    .action((serialNumber: string | undefined, options: { file: string; link?: string[] }) => runner((ctx) => configurationApply(ctx, serialNumber, options, interrupt)));
  targetsCommand(configuration, 'update', "Download each device's configuration file from the service and apply it (offline: the file kept by an earlier download).")
    .option('--dry-run', 'say what would change on each device, parameter by parameter, and change nothing')
    .option('--confirm-checksum <XXXXXXXX>', 'confirm the parameters the device runs by the last 8 hex digits of its running checksum (asked at a terminal otherwise); refused unless it is that checksum and the parameters match')
    .option('--technician <name>', 'your name: who confirms the parameters (default: PROVISIONER_TECHNICIAN; asked at a terminal)')
    .action((serialNumbers: string[], options: { link?: string[]; all?: boolean; dryRun?: boolean; confirmChecksum?: string; technician?: string }) => runner((ctx) => configurationUpdate(ctx, serialNumbers, options, interrupt)));

  const firmware = device.command('firmware').description('Device firmware.');
  firmware
    .command('download')
    .description('Download the latest firmware bundle for a device (-s) or a type (-t), check it (signature and release key included), save it in DIR as TYPE-VERSION.zip and keep it in the cache.')
    .option('-s, --serial <serialNumber>', 'for this device')
    .addOption(new Option('-t, --type <type>', 'for this device type').choices([...DEVICE_TYPES, ...DEVICE_TYPES.map((t) => t.toLowerCase())]))
    .requiredOption('-o, --output <dir>', 'directory to save it in')
    .option('--force', 'replace a file of that name in DIR (kept otherwise)')
    .action((options: { serial?: string; type?: string; output: string; force?: boolean }) => runner((ctx) => firmwareDownload(ctx, options)));
  applyFileCommand(firmware, 'Install a firmware bundle (zip) on a device: verified, uploaded with resume, applied, read back, confirmed.', 'the firmware bundle')
    .option('--force', 'install even when the device already runs this version')
    .action((serialNumber: string | undefined, options: { file: string; link?: string[]; force?: boolean }) => runner((ctx) => firmwareApply(ctx, serialNumber, options, interrupt)));
  targetsCommand(firmware, 'update', 'Install the latest firmware on each device named (offline: the newest cached). An interrupted upload resumes.')
    .option('--force', 'install even when the device already runs the latest version')
    .action((serialNumbers: string[], options: { link?: string[]; all?: boolean; force?: boolean }) => runner((ctx) => firmwareUpdate(ctx, serialNumbers, options, interrupt)));

  program
    .command('station')
    .description(
      'Station mode: provision every device of one configuration that is plugged in (USB, BLE in range, IP found on the network), several at once: firmware if behind, then the configuration, read back and confirmed. First it shows the parameters the configuration intends and its parameter checksum, which the operator confirms (--confirm-checksum, --operator); every device is then verified against them, and one that runs other parameters fails and is kept apart. Devices not in the configuration are refused, a serial number seen twice is flagged, devices already in sync are verified and left alone. Runs until Ctrl-C, then writes the shift report (CSV) and says where. With --json, one event a line.',
    )
    .requiredOption('--configuration <name>', 'the configuration whose devices this station provisions')
    .addOption(new Option('--firmware <policy>', 'latest: install the latest firmware when a device runs older; keep: configuration only').choices(['latest', 'keep']).default('latest'))
    .option('--lanes <n>', 'devices provisioned at once', positiveInteger('--lanes'), 4)
    .option('--report <file>', 'write the shift report here (default: a new file under the data directory)')
    .option('--confirm-checksum <XXXXXXXX>', "start the shift by confirming the configuration's parameter checksum (its last 8 hex digits, printed with the table; asked at a terminal otherwise); only the right one is taken")
    .option('--operator <name>', 'your name: who confirms the shift (default: PROVISIONER_TECHNICIAN; asked at a terminal)')
    .action((options: { configuration: string; firmware: 'latest' | 'keep'; lanes: number; report?: string; confirmChecksum?: string; operator?: string }) => runner((ctx) => station(ctx, options, interrupt)));

  const outbox = program.command('outbox').description('Confirmations waiting to reach the service.');
  outbox
    .command('list', { isDefault: true })
    .description('What waits, since when, and the last error.')
    .action(() => runner((ctx) => outboxList(ctx)));
  outbox
    .command('sync')
    .description('Send every waiting confirmation now.')
    .action(() => runner((ctx) => outboxSync(ctx)));

  const cache = program.command('cache').description('Firmware and configuration files kept for installs without the service.');
  cache
    .command('list', { isDefault: true })
    .description('What is cached.')
    .action(() => runner((ctx) => cacheList(ctx)));
  cache
    .command('prefetch')
    .description("Cache the latest firmware of every type in use (or --type) with its patches, each configured device's file and the signing key.")
    .option('-t, --type <type>', 'only this device type (repeatable)', collect)
    .action((options: { type?: string[] }) => runner((ctx) => cachePrefetch(ctx, options)));
  cache
    .command('prune')
    .description('Delete all but the newest versions of each type.')
    .option('--keep <n>', 'versions to keep per type', nonNegativeInteger('--keep'), 2)
    .action((options: { keep: number }) => runner((ctx) => cachePrune(ctx, options)));
  cache
    .command('self-test', { hidden: true })
    .description("Make a zopfli stream of a built-in sample on its worker thread and inflate it back (support; the executable's test).")
    .action(() => runner((ctx) => cacheSelfTest(ctx)));

  const workPackage = program.command('package').description('Work packages for plants without network: take what the devices of a configuration need there, bring the confirmations back.');
  workPackage
    .command('export')
    .description("One signed file with a configuration's firmware, each device's configuration file, the device list and the organization's public keys, good until it expires.")
    .requiredOption('--configuration <name>', 'the configuration, by name')
    .requiredOption('--out <file>', 'the file to write')
    .option('--expires-in <days>', 'days the package stays good (1 to 365, default 30)', positiveInteger('--expires-in'))
    .action((options: { configuration: string; out: string; expiresIn?: number }) => runner((ctx) => packageExport(ctx, options)));
  workPackage
    .command('import')
    .description(
      "Check a work package (its organization's signature under the root key this laptop trusts, expiry, organization) and keep its files, so its devices can be provisioned with the network unplugged. Needs no API key and signs nothing in.",
    )
    .argument('<file>')
    .option('--root-fingerprint <hex>', "on a laptop never signed in to the package's service: the fingerprint of the service's root key, as `provisioner status` shows it on a signed-in laptop")
    .option('--signer <keyId>', "refuse it unless the organization's key that signed it is this one")
    .addOption(new Option('--api-key <key>').hideHelp())
    .action((file: string, options: { signer?: string; rootFingerprint?: string; apiKey?: string }) => runner((ctx) => packageImport(ctx, file, options)));
  workPackage
    .command('export-confirmations')
    .description('Write the confirmations waiting in the outbox into one signed file, to deliver from a workstation that reaches the service. They stay in the outbox too.')
    .requiredOption('--out <file>', 'the file to write')
    .action((options: { out: string }) => runner((ctx) => packageExportConfirmations(ctx, options)));
  workPackage
    .command('import-confirmations')
    .description('Check a confirmations file and deliver each confirmation to the service, once however often it is imported.')
    .argument('<file>')
    .option('--signer <keyId>', 'refuse it unless the exporting workstation key is this one')
    .action((file: string, options: { signer?: string }) => runner((ctx) => packageImportConfirmations(ctx, file, options)));

  addAccountabilityCommands(program, runner);

  return program;
}

export function globalOptions(program: Command): GlobalOptions {
  return program.opts<GlobalOptions>();
}
