import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ApiKeyCache } from './auth/api-key-cache';
import { ReadCache } from './cache/read-cache';
import type { ServiceContext } from './context';
import type { Database, DatabaseOptions, DatabaseWarn } from './db/database';
import { openDatabase } from './db/open';
import { warnOn } from './db/postgres';
import { buildApp } from './http/app';
import type { MetricsOptions } from './http/metrics';
import { ALL_OPERATIONS } from './routes';
import { SealingKeyError } from './store/sealing';
import { loadServiceSecrets, sealingKeyFromEnvironment } from './store/secrets';

export interface StartServiceOptions extends DatabaseOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** An already open database (tests share one); `dataDir`/`databaseUrl` are then ignored and `close()` leaves it open. */
  db?: Database;
  /** Structured request logs go here (e.g. process.stderr); no logs when absent. */
  logStream?: NodeJS.WritableStream;
  /** Who may read GET /metrics besides a direct loopback peer (docs/operations.md). */
  metrics?: MetricsOptions;
  /**
   * On PostgreSQL (opened here from `databaseUrl`) the service refuses to start without a sealing
   * key (PROVISIONER_SEALING_KEY or PROVISIONER_SEALING_KEY_FILE) unless this is set; it then keeps
   * the key in the database and says so in a warning on every start.
   */
  allowUnsealed?: boolean;
  /** Load balancers whose X-Forwarded-For names the client in the logs (server/http/app.ts). */
  trustedProxies?: readonly string[];
}

export interface RunningService {
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:8080. */
  url: string;
  host: string;
  port: number;
  db: Database;
  ctx: ServiceContext;
  app: FastifyInstance;
  close(): Promise<void>;
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

export async function createContext(db: Database): Promise<ServiceContext> {
  const secrets = await loadServiceSecrets(db);
  // Both caches hold only what no commit has changed since (server/cache/read-cache.ts): instances
  // stay stateless. Where other processes write (PostgreSQL) nothing is kept until the instance
  // hears their commits (startService starts that).
  const reads = new ReadCache();
  // PGlite: every write passes through this process, and any of them makes the keys stale too.
  const keys = new ApiKeyCache(db.kind === 'pglite' ? reads : undefined);
  if (db.kind === 'postgres') {
    reads.suspend();
    keys.suspend();
  }
  return { db, secrets, keys, reads, version: packageVersion() };
}

/** Opens (and migrates) the database, then serves every operation of the interface. */
export async function startService(options: StartServiceOptions = {}): Promise<RunningService> {
  const ownsDb = options.db === undefined;
  // Checked before the database is opened, so that a refused start leaves nothing in it.
  const unsealedPostgres = ownsDb && options.databaseUrl !== undefined && sealingKeyFromEnvironment() === undefined;
  if (unsealedPostgres && !options.allowUnsealed) {
    throw new SealingKeyError(
      'On PostgreSQL the service needs a sealing key, so that a copy of the database alone reveals no secret: set PROVISIONER_SEALING_KEY_FILE to a 0600 file holding `openssl rand -base64 32` (or PROVISIONER_SEALING_KEY), or start with --allow-unsealed to keep the key in the database (docs/operations.md, "Secrets at rest").',
    );
  }
  // The database's warnings go to the service's log once there is one (pino's lines only).
  let logWarning: DatabaseWarn | undefined;
  const warnBeforeLog = warnOn(options.logStream ?? process.stderr);
  const db =
    options.db ??
    (await openDatabase({ ...options, warn: (fields, message) => (logWarning ?? warnBeforeLog)(fields, message) }));
  let feed: { stop(): Promise<void> } | null = null;
  try {
    const ctx = await createContext(db);
    const reads = ctx.reads;
    const watching = reads
      ? db.watchChanges({
          changed: (keysChanged, tables) => {
            reads.changed(tables);
            if (keysChanged) ctx.keys.clear();
          },
          listening: (heard) => {
            if (heard) {
              reads.resume();
              ctx.keys.resume();
            } else {
              reads.suspend();
              ctx.keys.suspend();
            }
          },
        })
      : null;
    if (watching && reads) reads.heardFromDatabase();
    const watch = await watching;
    feed = watch;
    if (watch && reads) {
      ctx.catchUps = watch.catchUps;
      ctx.catchUp = async () => {
        if (await watch.caughtUp()) return;
        reads.changed();
        ctx.keys.clear();
      };
    }
    const app = buildApp(ctx, ALL_OPERATIONS, {
      ...(options.logStream ? { logStream: options.logStream } : {}),
      ...(options.metrics ? { metrics: options.metrics } : {}),
      ...(options.trustedProxies ? { trustedProxies: options.trustedProxies } : {}),
    });
    logWarning = (fields, message) => app.log.warn(fields, message);
    // What this start runs with, for an auditor comparing starts (a setting that changed shows here).
    // Names and switches only: never a token or a key.
    app.log.info(
      {
        security: {
          event: 'configuration',
          setting: 'start',
          database: db.kind,
          sealingKey: ctx.secrets.sealedBy,
          trustedProxies: options.trustedProxies ?? [],
          metricsToken: options.metrics?.token !== undefined,
        },
      },
      'service configuration',
    );
    if (unsealedPostgres) {
      app.log.warn(
        { security: { event: 'configuration', setting: 'allow-unsealed' } },
        'started with --allow-unsealed: the sealing key is kept in the database, so a copy of it reveals the sealed secrets (API keys, Wifi passwords, signing keys)',
      );
    }
    const host = options.host ?? '127.0.0.1';
    await app.listen({ host, port: options.port ?? 8080 });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : (options.port ?? 8080);
    const urlHost = host.includes(':') ? `[${host}]` : host;
    let closed = false;
    return {
      url: `http://${urlHost}:${port}`,
      host,
      port,
      db,
      ctx,
      app,
      async close() {
        if (closed) return;
        closed = true;
        await app.close();
        await feed?.stop();
        if (ownsDb) await db.close();
      },
    };
  } catch (error) {
    await feed?.stop();
    if (ownsDb) await db.close();
    throw error;
  }
}
