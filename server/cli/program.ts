import { accessSync, constants } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { apiKeyRoleSchema, regionSchema } from '../../domain/enums';
import type { Database } from '../db/database';
import { describeMadePrivate, makePrivate } from '../../platform/private-files';
import { DEFAULT_DATA_DIR, openDatabase } from '../db/open';
import { carriesPassword, PASSWORD_ON_COMMAND_LINE } from '../db/password-file';
import { seedDemo } from '../seed/demo';
import { startService } from '../service';
import { API_KEY_NAME_PATTERN, issueApiKey } from '../store/api-keys';
import { addKeyCommands } from './key-commands';
import { addSecretsCommands } from './secrets-commands';
import { securityEventSink } from './security-log';
import { loadDefaultReleaseKey } from '../store/default-release-key';
import { releaseDevice } from '../store/devices';
import { createOrganization, getOrganization, organizationIdSchema } from '../store/organizations';
import { loadServiceSecrets } from '../store/secrets';
import { CliError, refusedWhenBusy } from './cli-error';
import { ImportRefused, importManufacturingCsv } from './manufacturing-import';
import { addDatabaseCommands } from './database-commands';
import { addFirmwareCommands } from './firmware-commands';

export { CliError } from './cli-error';

export interface CliIo {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Resolves when the operator asks the server to stop (SIGINT/SIGTERM). */
  waitForStop: () => Promise<string>;
}

interface StorageOptions {
  data?: string;
  databaseUrl?: string;
}

async function withDatabase<T>(options: StorageOptions, work: (db: Database) => Promise<T>): Promise<T> {
  return refusedWhenBusy(async () => {
    const db = await openDatabase(
      options.databaseUrl ? { databaseUrl: options.databaseUrl } : { dataDir: options.data ?? DEFAULT_DATA_DIR },
    );
    try {
      return await work(db);
    } finally {
      await db.close();
    }
  });
}

function parseWith<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  what: string,
  choices?: readonly string[],
) {
  return (value: string): T => {
    const result = schema.safeParse(value);
    if (!result.success)
      throw new InvalidArgumentError(
        choices ? `${what} must be one of ${choices.join(', ')}.` : `${what} is not valid.`,
      );
    return result.data;
  };
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError('The port must be a number from 0 to 65535.');
  return port;
}

export function buildProgram(io: CliIo): Command {
  const program = new Command('provisioner-service')
    .description('Operator commands of the Provisioner service (the v1 interface on PGlite or PostgreSQL).')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: io.out, writeErr: io.err })
    .configureHelp({ showGlobalOptions: true })
    // Every command works on one database: given before or after the command name.
    .addOption(
      new Option('--data <dir>', 'PGlite data directory').env('PROVISIONER_SERVICE_DATA').default(DEFAULT_DATA_DIR),
    )
    .addOption(
      new Option('--database-url <url>', 'PostgreSQL connection string (wins over --data)').env('DATABASE_URL'),
    );
  const storage = (): StorageOptions => program.opts<StorageOptions>();
  // What an operator command changes that an auditor follows is logged as the API logs it.
  const security = securityEventSink(io.err);
  // A password on the command line is every local user's to read (ps, /proc/PID/cmdline): refused,
  // so that it is moved to the environment or a file before it is used a second time.
  program.hook('preAction', () => {
    const { databaseUrl } = storage();
    if (databaseUrl && program.getOptionValueSource('databaseUrl') === 'cli' && carriesPassword(databaseUrl))
      throw new CliError(PASSWORD_ON_COMMAND_LINE);
  });

  program
    .command('serve')
    .description('Serve the v1 interface over HTTP until SIGINT or SIGTERM.')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--port <port>', 'port to listen on (0 picks a free one)', parsePort, 8080)
    .addOption(
      new Option(
        '--metrics-token <token>',
        'lets a scraper on another machine read GET /metrics (Authorization: Bearer <token>)',
      ).env('PROVISIONER_METRICS_TOKEN'),
    )
    .addOption(
      new Option(
        '--trusted-proxy <addresses>',
        'comma-separated addresses or CIDR ranges of load balancers whose X-Forwarded-For names the client in the logs',
      ).env('PROVISIONER_TRUSTED_PROXIES'),
    )
    .option(
      '--allow-unsealed',
      'on PostgreSQL, start without PROVISIONER_SEALING_KEY(_FILE): the sealing key is kept in the database (warned on every start)',
    )
    .action(
      async (options: {
        host: string;
        port: number;
        metricsToken?: string;
        allowUnsealed?: boolean;
        trustedProxy?: string;
      }) => {
        // The data directory holds sealed keys and the signing keys: whatever made it readable by
        // others (an older version, a copy, a person) is undone before serving, and said.
        if (!storage().databaseUrl) {
          const dataDir = storage().data ?? DEFAULT_DATA_DIR;
          const fixed = await makePrivate(dataDir);
          if (fixed.length > 0) io.err(`warning: ${describeMadePrivate(dataDir, fixed)}\n`);
        }
        const service = await refusedWhenBusy(() =>
          startService({
            ...(storage().databaseUrl ? { databaseUrl: storage().databaseUrl } : { dataDir: storage().data }),
            host: options.host,
            port: options.port,
            logStream: process.stderr,
            metrics: { ...(options.metricsToken ? { token: options.metricsToken } : {}), processMetrics: true },
            allowUnsealed: options.allowUnsealed === true,
            trustedProxies: (options.trustedProxy ?? '')
              .split(',')
              .map((address) => address.trim())
              .filter(Boolean),
          }),
        );
        io.out(`listening on ${service.url}\n`);
        const signal = await io.waitForStop();
        service.app.log.info({ signal }, 'stopping');
        await service.close();
      },
    );

  const org = program.command('org').description('Organizations.');
  org
    .command('create')
    .argument('<orgId>', 'organization id (a path segment, e.g. acme-plant-3)')
    .description('Create an organization.')
    .addOption(
      new Option('--region <region>', 'NA (ISM channels 1 to 21) or EU (channel 1 only)')
        .choices(regionSchema.options)
        .default('NA'),
    )
    .option('--name <name>', 'display name (default: the id)')
    .action(async (orgId: string, options: { region: 'NA' | 'EU'; name?: string }) => {
      if (!organizationIdSchema.safeParse(orgId).success)
        throw new CliError(
          `Organization id "${orgId}" is not valid: ${organizationIdSchema.description ?? 'use letters, digits, dots, dashes or underscores (at most 64).'}`,
        );
      await withDatabase(storage(), async (db) => {
        const created = await createOrganization(db, {
          id: orgId,
          name: options.name ?? orgId,
          region: options.region,
        });
        if (!created) throw new CliError(`Organization "${orgId}" already exists.`);
      });
      io.out(`created organization ${orgId} (region ${options.region})\n`);
    });

  const key = program.command('key').description('API keys.');
  key
    .command('create')
    .description('Issue an API key; prints only the key.')
    .requiredOption('--org <orgId>', 'organization the key belongs to')
    .requiredOption('--name <keyName>', 'key name (a path segment, unique in the organization)')
    .requiredOption(
      '--role <role>',
      `one of ${apiKeyRoleSchema.options.join(', ')}`,
      parseWith(apiKeyRoleSchema, 'The role', apiKeyRoleSchema.options),
    )
    .action(async (options: { org: string; name: string; role: (typeof apiKeyRoleSchema.options)[number] }) => {
      if (!API_KEY_NAME_PATTERN.test(options.name))
        throw new CliError(
          `Key name "${options.name}" is not valid: use 1 to 64 letters, digits, dots, dashes or underscores.`,
        );
      const value = await withDatabase(storage(), async (db) => {
        if (!(await getOrganization(db, options.org)))
          throw new CliError(`There is no organization "${options.org}". Create it with: org create ${options.org}`);
        const secrets = await loadServiceSecrets(db);
        const issued = await issueApiKey(db, secrets.box, {
          orgId: options.org,
          name: options.name,
          role: options.role,
        });
        if (issued === 'name-taken')
          throw new CliError(`Organization "${options.org}" already has a key named "${options.name}".`);
        return issued.key;
      });
      security(
        { event: 'key-created', orgId: options.org, keyName: options.name, role: options.role },
        'API key created',
      );
      io.out(`${value}\n`);
    });
  addKeyCommands(key, { out: io.out, err: io.err, security, withDatabase: (work) => withDatabase(storage(), work) });

  const devices = program.command('devices').description('Manufacturing records and who holds a device.');
  devices
    .command('import')
    .argument('<file>', 'CSV with the header serialNumber,deviceType,model')
    .description(
      'Import manufacturing records, streamed in batches in one transaction; nothing is imported when any line is wrong.',
    )
    .action(async (file: string) => {
      try {
        accessSync(file, constants.R_OK);
      } catch (error) {
        throw new CliError(`Cannot read ${file}: ${(error as Error).message}`);
      }
      const result = await withDatabase(storage(), (db) =>
        db.transaction((tx) => importManufacturingCsv(tx, file)),
      ).catch((error: unknown) => {
        if (error instanceof ImportRefused)
          throw new CliError(`${file}: nothing imported.\n${error.errors.join('\n')}`);
        throw error;
      });
      io.out(
        `imported ${result.inserted + result.updated} manufacturing records (${result.inserted} new, ${result.updated} updated)\n`,
      );
    });

  devices
    .command('release')
    .argument('<orgId>', 'the organization that holds the device')
    .argument('<serialNumber>', 'the device')
    .description(
      'Release a device an organization holds (sold on, returned) so that another organization can register it; its history in that organization goes with it.',
    )
    .action(async (orgId: string, serialNumber: string) => {
      const outcome = await withDatabase(storage(), (db) =>
        db.transaction((tx) => releaseDevice(tx, orgId, serialNumber)),
      );
      if (!outcome.released && outcome.reason === 'not-registered')
        throw new CliError(`Device ${serialNumber} is not registered in organization "${orgId}".`);
      if (!outcome.released) {
        throw new CliError(
          `Device ${serialNumber} is in configuration "${outcome.configurationName}" (${outcome.configurationId}) of organization "${orgId}": remove it from the configuration first.`,
        );
      }
      io.out(`released ${serialNumber} from organization ${orgId}\n`);
    });

  addFirmwareCommands(program, {
    out: io.out,
    dataDir: () => storage().data,
    withDatabase: (work) => withDatabase(storage(), work),
  });

  const signingKey = program
    .command('signing-key')
    .description("The service's root key: it certifies each organization's configuration-file signing key.");
  signingKey
    .command('show')
    .description(
      'Print the root public key (PEM) that devices are made trusting; also served at GET /v1/config-file-signing-key.',
    )
    .option('--json', 'print { keyId, algorithm, publicKeyPem } as JSON')
    .action(async (options: { json?: boolean }) => {
      const info = await withDatabase(storage(), async (db) => (await loadServiceSecrets(db)).signingKey);
      io.out(
        options.json
          ? `${JSON.stringify(info, null, 2)}\n`
          : info.publicKeyPem.endsWith('\n')
            ? info.publicKeyPem
            : `${info.publicKeyPem}\n`,
      );
      if (!options.json) io.err(`keyId ${info.keyId}, algorithm ${info.algorithm}\n`);
    });

  program
    .command('seed-demo')
    .description(
      'Organization "demo" (NA) with an Admin key (printed), a small fleet of every type and firmware for every type. Safe to run again.',
    )
    .action(async () => {
      // The demo firmware is signed with the data directory's default release key (made on first use,
      // once the directory is this process's: data-dir-lock.ts).
      const seed = await withDatabase(storage(), async (db) =>
        seedDemo(db, {
          releaseKey: await loadDefaultReleaseKey(storage().data ?? DEFAULT_DATA_DIR),
          configurations: true,
        }),
      );
      io.out(`${seed.adminKey}\n`);
      io.err(`organization ${seed.orgId} is ready; the line above is its Admin key\n`);
    });

  addSecretsCommands(program, {
    out: io.out,
    err: io.err,
    security,
    withDatabase: (work) => withDatabase(storage(), work),
  });

  addDatabaseCommands(program, {
    out: io.out,
    err: io.err,
    security,
    target: () => {
      const { databaseUrl, data } = storage();
      return databaseUrl ? { kind: 'postgres', databaseUrl } : { kind: 'pglite', dataDir: data ?? DEFAULT_DATA_DIR };
    },
  });

  return program;
}
