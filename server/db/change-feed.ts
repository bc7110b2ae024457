import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { connectionSettings } from './password-file';
import type { CatchUpCounts, ChangeListener, ChangeWatch } from './database';
import { ALL_TABLES, TABLES, type TableSet } from './tables';

/**
 * How the instances sharing a PostgreSQL database keep their caches true: every transaction that
 * wrote sends NOTIFY on one channel as it commits (PostgreSQL delivers it at the commit, and only
 * if it commits), and every instance LISTENs on a connection of its own.
 *
 * - A notification clears the listener's caches at once. PostgreSQL signals every listening
 *   connection as the writer's COMMIT completes, so the others have it before the writer's answer
 *   has even left it; the writer also waits for its own notification to come back before it
 *   answers (`expect()`), so that its change has reached the listening side of the server.
 * - While the listening connection is down (a restart, a failover, at start), nothing is cached:
 *   `listening(false)` turns the caches off, and they start empty when it is back.
 */
export const CHANGES_CHANNEL = 'provisioner_changes';

const KEYS = 'keys';
const DATA = 'data';
const ALL = '*';

/**
 * What a notification says changed. Ours: `origin:sequence:keys|data:table,table` (the tables the
 * commit wrote, or `*`). Anything else (an operator's bare NOTIFY, a payload of an older build)
 * may have changed anything, API keys included.
 */
export function changeOf(payload: string): { keys: boolean; tables: TableSet } {
  const [, , kind, list] = payload.split(':');
  if ((kind !== KEYS && kind !== DATA) || list === undefined || list === ALL)
    return { keys: kind !== DATA, tables: ALL_TABLES };
  const tables = new Set(list.split(','));
  // A table this build does not know (a newer build's) was read by none of its answers, but the
  // payload may also be garbled: then drop everything.
  if ([...tables].some((table) => !TABLES.includes(table))) return { keys: true, tables: ALL_TABLES };
  return { keys: kind === KEYS, tables };
}

/** How long a writer waits for its own notification before answering anyway. */
const ECHO_WAIT_MS = 1_000;

export class ChangeFeed {
  /** This process's mark on its notifications, to recognise its own coming back. */
  readonly origin = randomUUID();
  private sequence = 0;
  private readonly echoes = new Map<string, () => void>();
  private readonly listeners = new Set<ChangeListener>();
  private client: pg.Client | undefined;
  private heard = false;
  private retryDelayMs = 100;
  private retryTimer: NodeJS.Timeout | undefined;
  private queuedCatchUp: Promise<boolean> | undefined;
  private catchUpInFlight: Promise<boolean> | undefined;
  /** Catch-ups asked for, and the queries sent for them (the rest shared a query): /metrics says both. */
  readonly catchUps: CatchUpCounts = { requests: 0, queries: 0 };

  constructor(private readonly databaseUrl: string) {}

  /**
   * A payload for the next write's NOTIFY: this process's origin, a number of its own, whether
   * API keys changed (only then do the instances drop the keys they hold), and the tables written
   * (the instances drop only the answers read from them).
   */
  nextToken(keys: boolean, tables: TableSet = ALL_TABLES): string {
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    return `${this.origin}:${this.sequence}:${keys ? KEYS : DATA}:${tables === ALL_TABLES ? ALL : [...tables].sort().join(',')}`;
  }

  /**
   * Before the COMMIT of a write that sent `token`: `arrived` resolves when the notification has
   * come back (at once while not listening, or after ECHO_WAIT_MS at most). Asked before the
   * COMMIT because the notification may come back before the COMMIT's own answer.
   */
  expect(token: string): { arrived: Promise<void>; cancel(): void } {
    if (!this.heard) return { arrived: Promise.resolve(), cancel: () => {} };
    let release!: () => void;
    const arrived = new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.echoes.delete(token);
        resolve();
      }, ECHO_WAIT_MS);
      release = () => {
        clearTimeout(timer);
        this.echoes.delete(token);
        resolve();
      };
      this.echoes.set(token, release);
    });
    return { arrived, cancel: release };
  }

  /**
   * Resolves true once every notification of a commit that completed before this call has been
   * handled by the listeners; false when that cannot be known (not listening, the connection
   * failed), and the caller must then not trust what it holds.
   *
   * The writer's answer may reach a client, and the client's next request reach this instance,
   * before this process has read the notification PostgreSQL already sent it (a busy event loop
   * reads sockets in no set order). A query on the listening connection settles it: the server
   * sends a pending notification before that query's answer, on the same connection, and pg
   * handles messages in order. Calls while a query waits to be sent share it; a call after it was
   * sent waits for the next one, since that one may have left before the commit it must cover.
   */
  caughtUp(): Promise<boolean> {
    if (!this.client || !this.heard) return Promise.resolve(false);
    this.catchUps.requests++;
    if (this.queuedCatchUp) return this.queuedCatchUp;
    const previous = this.catchUpInFlight ?? Promise.resolve(true);
    const queued = previous.then(() => {
      this.queuedCatchUp = undefined;
      const client = this.client;
      if (!client || !this.heard) return false;
      this.catchUps.queries++;
      const sent = client.query('SELECT 1').then(
        () => this.heard,
        () => false,
      );
      this.catchUpInFlight = sent;
      return sent;
    });
    this.queuedCatchUp = queued;
    return queued;
  }

  async watch(listener: ChangeListener): Promise<ChangeWatch> {
    this.listeners.add(listener);
    listener.listening(this.heard);
    if (this.listeners.size === 1) await this.connect();
    return {
      caughtUp: () => this.caughtUp(),
      catchUps: this.catchUps,
      stop: async () => {
        this.listeners.delete(listener);
        if (this.listeners.size === 0) await this.close();
      },
    };
  }

  private setHeard(heard: boolean): void {
    if (heard === this.heard) return;
    this.heard = heard;
    for (const listener of this.listeners) listener.listening(heard);
    if (!heard) {
      // Nobody will answer these now; the writers need not wait.
      for (const release of [...this.echoes.values()]) release();
    }
  }

  private async connect(): Promise<void> {
    if (this.listeners.size === 0 || this.client) return;
    const client = new pg.Client(connectionSettings(this.databaseUrl));
    this.client = client;
    const lost = () => {
      if (this.client !== client) return;
      this.client = undefined;
      this.setHeard(false);
      void client.end().catch(() => undefined);
      this.scheduleReconnect();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const payload = message.payload ?? '';
      this.echoes.get(payload)?.();
      const { keys, tables } = changeOf(payload);
      for (const listener of this.listeners) listener.changed(keys, tables);
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGES_CHANNEL}`);
      this.retryDelayMs = 100;
      // Whatever committed before this moment was not heard: the caches start empty now.
      if (this.client === client) this.setHeard(true);
    } catch {
      lost();
    }
  }

  private scheduleReconnect(): void {
    if (this.listeners.size === 0 || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      void this.connect();
    }, this.retryDelayMs);
    this.retryDelayMs = Math.min(2_000, this.retryDelayMs * 2);
  }

  /** Stops listening (when the last watcher stops, or the database is closed). */
  async close(): Promise<void> {
    this.listeners.clear();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    const client = this.client;
    this.client = undefined;
    this.setHeard(false);
    await client?.end().catch(() => undefined);
  }
}
