import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { deviceTypeSchema, type DeviceType } from '../../domain/device-types';
import {
  buildFirmwareBundle,
  FileFormatError,
  generateReleaseKeyPair,
  makeFirmwareImage,
  releaseKeyFromPem,
  releaseKeyPairFromPrivateKey,
  type ReleaseKeyPair,
} from '../../domain/files';
import { writeFileAtomic } from '../../platform/durable-file';
import type { Database } from '../db/database';
import { DEFAULT_DATA_DIR } from '../db/open';
import { loadDefaultReleaseKey, trustDefaultReleaseKey } from '../store/default-release-key';
import { importFirmwareBundle } from '../store/firmware';
import { listReleaseKeys, trustReleaseKey } from '../store/release-keys';
import { CliError } from './cli-error';

/** What the firmware and release-key commands need of the program around them. */
export interface FirmwareCommandContext {
  out: (text: string) => void;
  /** The service's data directory (`--data`): where its default release key lives. */
  dataDir: () => string | undefined;
  withDatabase: <T>(work: (db: Database) => Promise<T>) => Promise<T>;
}

function parseDeviceType(value: string): DeviceType {
  const result = deviceTypeSchema.safeParse(value);
  if (!result.success)
    throw new InvalidArgumentError(`The device type must be one of ${deviceTypeSchema.options.join(', ')}.`);
  return result.data;
}

function parseVersion(value: string): string {
  if (!/^[\x21-\x7e]{1,32}$/.test(value))
    throw new InvalidArgumentError('The version must be 1 to 32 printable characters without spaces, e.g. 1.2.0.');
  return value;
}

function parseCounter(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 0xffff_ffff)
    throw new InvalidArgumentError('The security counter must be a whole number from 0 to 4294967295.');
  return Number(value);
}

function parseKeyId(value: string, previous: string[]): string[] {
  if (!/^[0-9a-f]{32}$/.test(value))
    throw new InvalidArgumentError(`"${value}" is not a release key id (32 lower-case hex digits).`);
  return [...previous, value];
}

function parseKeyName(value: string): string {
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(value))
    throw new InvalidArgumentError('The key name must be 1 to 64 letters, digits, dots, dashes or underscores.');
  return value;
}

async function readInput(file: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
  }
}

/** A FileFormatError becomes what the operator reads: the file, the message and the code. */
async function checked<T>(file: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof FileFormatError) throw new CliError(`${file}: ${error.message} (${error.code})`);
    throw error;
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

export function addFirmwareCommands(program: Command, context: FirmwareCommandContext): void {
  const { out } = context;
  const dataDir = () => context.dataDir() ?? DEFAULT_DATA_DIR;

  const firmware = program.command('firmware').description('Firmware bundles.');
  firmware
    .command('import')
    .argument('<file>', 'firmware bundle (zip with manifest.json, the image and its signed manifest)')
    .description(
      'Import a firmware bundle after checking its manifest, hashes and signature: only bundles signed by a trusted release key go in.',
    )
    .requiredOption('--type <type>', `device type: ${deviceTypeSchema.options.join(', ')}`, parseDeviceType)
    .requiredOption('--version <version>', 'firmware version, e.g. 1.2.0', parseVersion)
    .action(async (file: string, options: { type: DeviceType; version: string }) => {
      const bytes = await readInput(file);
      const { bundle, signer } = await checked(file, () =>
        context.withDatabase((db) =>
          db.transaction((tx) =>
            importFirmwareBundle(tx, bytes, { deviceType: options.type, version: options.version }),
          ),
        ),
      );
      out(
        `imported ${bundle.deviceType} firmware ${bundle.version} (${bytes.length} bytes, sha256 ${bundle.bundleSha256}), ` +
          `signed by ${signer.key.name} (${signer.key.keyId}), security counter ${signer.manifest.securityCounter}\n`,
      );
      for (const keyId of signer.manifest.retires) out(`retired release key ${keyId}\n`);
    });

  firmware
    .command('build')
    .description(
      "Write a valid test bundle (deterministic image), signed with a release key: the one given, or the data directory's default release key (made and trusted on first use).",
    )
    .requiredOption('--type <type>', `device type: ${deviceTypeSchema.options.join(', ')}`, parseDeviceType)
    .requiredOption('--version <version>', 'firmware version, e.g. 1.2.0', parseVersion)
    .requiredOption('--out <file>', 'where to write the zip')
    .option(
      '--size <bytes>',
      'image body size in bytes',
      (value) => {
        if (!/^\d+$/.test(value) || Number(value) > 64 * 1024 * 1024)
          throw new InvalidArgumentError('The size must be a number of bytes up to 64 MiB.');
        return Number(value);
      },
      64 * 1024,
    )
    .option(
      '--release-key <file>',
      "the release key (private, PEM) that signs the manifest; default the data directory's default release key",
    )
    .option(
      '--security-counter <n>',
      'anti-rollback counter: devices that applied a higher one refuse this image',
      parseCounter,
      0,
    )
    .option('--retires <keyId>', 'a release key this release retires (repeatable)', parseKeyId, [])
    .action(
      async (options: {
        type: DeviceType;
        version: string;
        out: string;
        size: number;
        releaseKey?: string;
        securityCounter: number;
        retires: string[];
      }) => {
        const key =
          options.releaseKey !== undefined ? await releaseKeyFromFile(options.releaseKey) : await defaultKeyTrusted();
        const image = makeFirmwareImage(options.type, options.version, options.size);
        const bytes = await checked(options.releaseKey ?? 'the default release key', async () =>
          buildFirmwareBundle({
            deviceType: options.type,
            version: options.version,
            image,
            releaseKeyPem: key.privateKeyPem,
            securityCounter: options.securityCounter,
            retires: options.retires,
          }),
        );
        await writeFile(options.out, bytes);
        out(
          `wrote ${options.out} (${options.type} ${options.version}, ${bytes.length} bytes), signed by release key ${key.keyId}\n`,
        );
      },
    );

  /** The default release key, trusted by this service's database so that what it signs imports. */
  async function defaultKeyTrusted(): Promise<ReleaseKeyPair> {
    const key = await loadDefaultReleaseKey(dataDir());
    const outcome = await context.withDatabase((db) => trustDefaultReleaseKey(db, key));
    if (outcome.kind === 'retired') {
      throw new CliError(
        `The default release key ${key.keyId} was retired; sign with another key (--release-key FILE).`,
      );
    }
    return key;
  }

  const releaseKey = program
    .command('release-key')
    .description('Release keys: the Ed25519 keys that sign firmware, and the ones this service trusts.');
  releaseKey
    .command('create')
    .description(
      'Make a release key pair: <name>.pem (private, 0600: keep it away from the service) and <name>.pub (give it to the service and to devices).',
    )
    .requiredOption('--out <dir>', 'directory to write the key files to')
    .option('--name <name>', 'file name of the pair', parseKeyName, 'release-key')
    .action(async (options: { out: string; name: string }) => {
      const privatePath = join(options.out, `${options.name}.pem`);
      const publicPath = join(options.out, `${options.name}.pub`);
      for (const path of [privatePath, publicPath])
        if (await exists(path)) throw new CliError(`${path} exists already; a release key is never overwritten.`);
      const pair = generateReleaseKeyPair();
      await mkdir(options.out, { recursive: true, mode: 0o700 });
      await writeFileAtomic(privatePath, pair.privateKeyPem, 0o600);
      await writeFileAtomic(publicPath, pair.publicKeyPem, 0o644);
      out(`${pair.keyId}\n`);
      out(
        `wrote ${privatePath} (private) and ${publicPath} (public); trust it with: release-key trust ${publicPath}\n`,
      );
    });

  releaseKey
    .command('trust')
    .argument('<file>', 'the public key (PEM), e.g. release-key.pub')
    .description(
      'Trust a release key: bundles it signs can be imported, and devices fetching GET /v1/firmware-release-keys get it.',
    )
    .option('--name <name>', 'what people call the key (default: the file name)')
    .action(async (file: string, options: { name?: string }) => {
      const pem = new TextDecoder().decode(await readInput(file));
      const key = await checked(file, async () =>
        releaseKeyFromPem(pem, options.name ?? basename(file, extname(file))),
      );
      const outcome = await context.withDatabase((db) => trustReleaseKey(db, key));
      if (outcome.kind === 'retired')
        throw new CliError(
          `Release key ${key.keyId} was retired${outcome.retiredBy ? ` by a release signed with ${outcome.retiredBy}` : ''}; it is never trusted again.`,
        );
      out(
        outcome.kind === 'trusted'
          ? `trusted release key ${key.keyId} (${key.name})\n`
          : `release key ${key.keyId} is already trusted, as "${outcome.name}"\n`,
      );
    });

  releaseKey
    .command('list')
    .description('The release keys this service knows: trusted ones, and retired ones (refused).')
    .option('--json', 'print them as JSON')
    .action(async (options: { json?: boolean }) => {
      const keys = await context.withDatabase((db) => listReleaseKeys(db));
      if (options.json) {
        out(`${JSON.stringify(keys, null, 2)}\n`);
        return;
      }
      for (const key of keys) {
        const state = key.retiredAt
          ? `retired ${key.retiredAt.toISOString()}${key.retiredBy ? ` by ${key.retiredBy}` : ''}`
          : `trusted since ${key.trustedAt?.toISOString()}`;
        out(`${key.keyId}  ${key.name}  ${state}\n`);
      }
    });
}

async function releaseKeyFromFile(file: string): Promise<ReleaseKeyPair> {
  const pem = new TextDecoder().decode(await readInput(file));
  return checked(file, async () => releaseKeyPairFromPrivateKey(pem));
}
