import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { serviceKey } from '../../../domain/service-url';
import {
  configurationConfirmationSchema as serviceConfigurationConfirmation,
  firmwareConfirmationSchema as serviceFirmwareConfirmation,
  validateFirmwareConfirmation,
} from '../../../domain';
import { AuthError, CancelledError, NetworkError, ResponseFormatError, ServiceError } from '../../cloud/errors';
import { realTimers, type Timers } from '../../cloud/http';
import {
  errnoCode,
  fsyncDir,
  isTempName,
  nodeFileSystem,
  readFileIfExists,
  removeDurable,
  removeStaleTemps,
  writeFileDurable,
  type FileSystem,
} from '../../../platform/durable-file';
import { tryAcquireLock, type HeldLock, type LockOptions } from '../../../platform/durable-lock';
import { listQuarantined, QUARANTINE_DIR, quarantineFile, type QuarantinedFile } from '../../../platform/quarantine';
import {
  DEFAULT_BACKOFF,
  NoCredentialsError,
  accountKey,
  chainKey,
  outboxEntrySchema,
  retryDelay,
  type BackoffPolicy,
  type NewConfirmation,
  type OutboxEntry,
  type OutboxError,
} from './outbox-entry';

export * from './outbox-entry';

/**
 * The confirmation outbox: every confirm-apply call is written to disk (fsync'd file, renamed
 * into place, directory fsync'd) before it is sent, and removed only when the service answered
 * 2xx with `data: true`.
 *
 * Layout of `dir`:
 *   pending/<id>.json    waiting to be sent (or retried)
 *   rejected/<id>.json   the service refused it for good (a 4xx that will not change); kept,
 *                        visible with the service's errors, until a person retries or discards it
 *   quarantine/<time>-<random>-<name>
 *                        entry files that could not be read (garbage, truncated, not an entry):
 *                        moved aside with their bytes intact, reported, never sent, never deleted
 *   sender.lock          held by the one process sending (see durable-lock.ts)
 *
 * Moving an entry to rejected writes rejected/<id>.json first, then removes pending/<id>.json;
 * a crash in between leaves both, and loading keeps the rejected copy.
 */

/** Sends one entry. Resolves with the envelope's boolean data; throws the client's typed errors. */
export interface ConfirmationSender {
  send(entry: OutboxEntry, signal: AbortSignal): Promise<boolean>;
}

export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export interface OutboxOptions {
  dir: string;
  sender: ConfirmationSender;
  fs?: FileSystem;
  clock?: Clock;
  timers?: Timers;
  random?: () => number;
  backoff?: Partial<BackoffPolicy>;
  /** With nothing due, the loop still looks every so often for entries other processes wrote. */
  idlePollMs?: number;
  lock?: Omit<LockOptions, 'fs' | 'now'>;
  onEvent?: (event: OutboxEvent) => void;
}

export type OutboxEvent =
  | { type: 'enqueued'; entry: OutboxEntry }
  | { type: 'delivered'; entry: OutboxEntry }
  | { type: 'retry-scheduled'; entry: OutboxEntry }
  | { type: 'rejected'; entry: OutboxEntry }
  /** An entry file that cannot be read was moved to quarantine/. */
  | { type: 'quarantined'; file: QuarantinedFile }
  /** An entry file left where it is: it could not be opened (an I/O error), or a newer version of the app wrote it. */
  | { type: 'unreadable'; path: string; reason: string };

export interface PendingSummary {
  /** Entries still to be delivered. */
  count: number;
  /** createdAt of the oldest of them: "waiting since". */
  oldestCreatedAt: string | null;
  /** Entries the service refused for good; they need a person. */
  rejected: number;
  /** Entry files left in place that this version cannot read now (I/O errors, a newer format). */
  unreadable: number;
  /** Entry files set aside in quarantine/ as damaged; they need a person. */
  quarantined: number;
}

/** Which page of the entries to read: the one after the entry `after` (an id; none: the oldest), at most `limit` entries. */
export interface OutboxPageRequest {
  after?: string | null;
  limit: number;
}

/**
 * One page of the entries, pending and rejected together in creation order, with the counts of
 * all of them. The counts come from the folders' file names; only the page's files (and the oldest
 * pending one, for "waiting since") are opened.
 */
export interface OutboxPage {
  entries: OutboxEntry[];
  /** `unreadable` counts only the files this page met; the rest are not opened. */
  summary: PendingSummary;
  /** Pending and rejected entries in all: the sum of the summary's count and rejected. */
  total: number;
  /** How many entries come before this page. */
  offset: number;
  /** What to pass as `after` for the page after this one; null on the last page. */
  nextCursor: string | null;
}

export interface SyncReport {
  /** True when another process holds the sender lock and this pass sent nothing. */
  skippedLocked: boolean;
  delivered: string[];
  rejected: string[];
  retrying: string[];
}

/** A sending pass's walk over pending/: the ids it listed, and the entries it left waiting as they are now. */
interface Walk {
  ids: ReadonlySet<string>;
  stillWaiting: readonly OutboxEntry[];
}

const PENDING = 'pending';
const REJECTED = 'rejected';
const LOCK = 'sender.lock';
const FORMAT = 'provisioner-outbox/1';
/** How often a pass tells the sender lock it is alive, at most; a quarter of the lock's staleness when that is shorter. */
const LOCK_REFRESH_MS = 15_000;
/** durable-lock.ts's own default staleness. */
const DEFAULT_LOCK_STALE_MS = 10 * 60_000;
/** Temp files younger than this may belong to a writer in another process. */
const TEMP_GRACE_MS = 60 * 60_000;

export class Outbox {
  readonly dir: string;
  private readonly sender: ConfirmationSender;
  private readonly fs: FileSystem;
  private readonly clock: Clock;
  private readonly timers: Timers;
  private readonly random: () => number;
  private readonly backoff: BackoffPolicy;
  private readonly idlePollMs: number;
  private readonly lockOptions: LockOptions;
  private readonly onEvent: ((event: OutboxEvent) => void) | undefined;

  private ready: Promise<void> | undefined;
  /** The pass running now and, if someone asked meanwhile, the one queued after it. */
  private running: Promise<SyncReport> | undefined;
  private queued: Promise<SyncReport> | undefined;
  /** Whether any caller of the queued pass asked for it to ignore backoff. */
  private queuedForce = false;
  private timer: unknown;
  private started = false;
  private abort: AbortController | undefined;
  /** Per service URL: after a network failure, the other entries for it wait as long (in memory only). */
  private readonly hostBlockedUntil = new Map<string, number>();
  /** Per service and organization: with no credentials for them, their other entries wait as long as the one tried (in memory only). */
  private readonly accountBlockedUntil = new Map<string, number>();
  private sequence = 0;
  /** Entries delivered in this pass whose removal is not yet fsync'd. */
  private unsyncedRemovals = false;
  private readonly lockRefreshMs: number;
  /** What the last pass found when it walked every waiting entry; cleared when a pass starts. */
  private lastWalk: Walk | undefined;

  constructor(options: OutboxOptions) {
    this.dir = options.dir;
    this.sender = options.sender;
    this.fs = options.fs ?? nodeFileSystem;
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.random = options.random ?? Math.random;
    this.backoff = { ...DEFAULT_BACKOFF, ...options.backoff };
    this.idlePollMs = options.idlePollMs ?? 60_000;
    this.lockOptions = { ...options.lock, fs: this.fs, now: () => this.clock.now() };
    this.lockRefreshMs = Math.min(LOCK_REFRESH_MS, (options.lock?.staleMs ?? DEFAULT_LOCK_STALE_MS) / 4);
    this.onEvent = options.onEvent;
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      await this.fs.mkdir(join(this.dir, PENDING), { recursive: true, mode: 0o700 });
      await this.fs.mkdir(join(this.dir, REJECTED), { recursive: true, mode: 0o700 });
      await fsyncDir(this.fs, this.dir);
      await removeStaleTemps(this.fs, join(this.dir, PENDING), TEMP_GRACE_MS, this.clock.now());
      await removeStaleTemps(this.fs, join(this.dir, REJECTED), TEMP_GRACE_MS, this.clock.now());
    })();
    return this.ready;
  }

  /**
   * Record a confirmation durably. When this resolves the entry survives a crash or power cut;
   * only then may the caller consider the confirmation "sent". The background loop, if started,
   * is woken to send it at once.
   */
  async enqueue(confirmation: NewConfirmation): Promise<OutboxEntry> {
    checkPayload(confirmation);
    await this.init();
    const nowMs = this.clock.now();
    const now = new Date(nowMs).toISOString();
    const entry = outboxEntrySchema.parse({
      format: FORMAT,
      id: this.newId(nowMs),
      ...confirmation,
      createdAt: now,
      attempts: 0,
      lastAttemptAt: null,
      lastError: null,
      nextAttemptAt: now,
      state: 'pending',
      rejectedAt: null,
    });
    await this.write(PENDING, entry);
    this.onEvent?.({ type: 'enqueued', entry });
    if (this.started) this.schedule(0);
    return entry;
  }

  /**
   * What a job calls once a device has been updated: record the confirmation durably, then try to
   * send it at once. `delivered` false means it waits in the outbox (service unreachable, or
   * refused: see `entry.state`), which is not a failure of the job.
   */
  async deliver(confirmation: NewConfirmation): Promise<{ entry: OutboxEntry; delivered: boolean }> {
    const entry = await this.enqueue(confirmation);
    const report = await this.syncNow();
    if (report.delivered.includes(entry.id)) return { entry, delivered: true };
    const current = (await this.list()).find((e) => e.id === entry.id);
    // Not listed any more and not delivered by us: another pass (this process or another) sent it.
    return current ? { entry: current, delivered: false } : { entry, delivered: true };
  }

  /**
   * Ids sort in creation order (the entry's createdAt, then a per-process counter), so entries
   * enqueued within the same millisecond are still sent in the order they were made, and a page of
   * the oldest entries is found from the file names alone (page()); the UUID makes them unique
   * across processes.
   */
  private newId(nowMs: number): string {
    this.sequence = (this.sequence + 1) % 36 ** 4;
    return `${nowMs.toString(36).padStart(9, '0')}-${this.sequence.toString(36).padStart(4, '0')}-${randomUUID()}`;
  }

  /** Pending and rejected entries, oldest first. */
  async list(): Promise<OutboxEntry[]> {
    const { pending, rejected } = await this.load();
    return [...pending, ...rejected].sort(byCreatedAt);
  }

  async pending(): Promise<PendingSummary> {
    return (await this.overview()).summary;
  }

  /** The entries (as list()) and the summary (as pending()) from one reading of the folders: what the Outbox screen shows. */
  async overview(): Promise<{ entries: OutboxEntry[]; summary: PendingSummary }> {
    const { pending, rejected, unreadable } = await this.load();
    const oldest = [...pending].sort(byCreatedAt)[0];
    const quarantined = (await this.quarantined()).length;
    return {
      entries: [...pending, ...rejected].sort(byCreatedAt),
      summary: {
        count: pending.length,
        oldestCreatedAt: oldest?.createdAt ?? null,
        rejected: rejected.length,
        unreadable: unreadable.length,
        quarantined,
      },
    };
  }

  /**
   * One page of the entries in creation order (pending and rejected together), with the counts of
   * all of them, without opening every file: what the Outbox screen shows. Ids sort in creation
   * order (newId), so the folders' sorted file names give the order, the counts and where a page
   * starts; only the page's files and the oldest pending one are read. A damaged file met on the
   * way is quarantined as load() does, and the page reads on past it to stay full.
   */
  async page(request: OutboxPageRequest): Promise<OutboxPage> {
    await this.init();
    const { rejectedIds, waitingIds } = await this.folderIds();
    const all = mergeSorted(
      waitingIds.map((id) => ({ id, folder: PENDING })),
      rejectedIds.map((id) => ({ id, folder: REJECTED })),
    );
    const offset = request.after ? firstAfter(all, request.after) : 0;
    const unreadable: string[] = [];
    const missing = { [PENDING]: 0, [REJECTED]: 0 };
    // Each file is read once per page, even when the oldest pending entry is looked for again below.
    const reads = new Map<string, Promise<OutboxEntry | undefined>>();
    const readOne = (at: { id: string; folder: string }): Promise<OutboxEntry | undefined> => {
      const key = `${at.folder}/${at.id}`;
      let read = reads.get(key);
      if (!read) {
        read = this.readListed(at.folder, `${at.id}.json`, unreadable).then((entry) => {
          if (!entry) missing[at.folder as keyof typeof missing] += 1;
          return entry;
        });
        reads.set(key, read);
      }
      return read;
    };
    const entries: OutboxEntry[] = [];
    let next = offset;
    while (entries.length < request.limit && next < all.length) {
      const batch = all.slice(next, next + (request.limit - entries.length));
      next += batch.length;
      for (const entry of await readInBatches(batch, readOne)) if (entry) entries.push(entry);
    }
    const oldest = await this.oldestWaiting(waitingIds, readOne);
    const count = waitingIds.length - missing[PENDING];
    const rejected = rejectedIds.length - missing[REJECTED];
    return {
      entries,
      summary: {
        count,
        oldestCreatedAt: oldest?.createdAt ?? null,
        rejected,
        unreadable: unreadable.length,
        quarantined: (await this.quarantined()).length,
      },
      total: count + rejected,
      offset,
      nextCursor: next < all.length && next > 0 ? all[next - 1]!.id : null,
    };
  }

  /** The oldest pending entry that can be read (readOne remembers the page's reads), skipping damaged files. */
  private async oldestWaiting(
    waitingIds: readonly string[],
    readOne: (at: { id: string; folder: string }) => Promise<OutboxEntry | undefined>,
  ): Promise<OutboxEntry | undefined> {
    for (const id of waitingIds) {
      const entry = await readOne({ id, folder: PENDING });
      if (entry) return entry;
    }
    return undefined;
  }

  /**
   * The ids in rejected/ and those waiting in pending/, each sorted (creation order), from the
   * file names alone. An id in both folders is an entry whose move to rejected was interrupted:
   * rejected wins (as in load).
   */
  private async folderIds(): Promise<{ rejectedIds: string[]; waitingIds: string[] }> {
    const [rejectedIds, pendingIds] = await Promise.all([this.entryIds(REJECTED), this.entryIds(PENDING)]);
    const rejectedSet = new Set(rejectedIds);
    return { rejectedIds, waitingIds: pendingIds.filter((id) => !rejectedSet.has(id)) };
  }

  /** The ids of a folder's entry files, sorted (creation order), from their names alone. */
  private async entryIds(folder: string): Promise<string[]> {
    const names = await this.fs.readdir(join(this.dir, folder));
    return names
      .filter((name) => !isTempName(name) && name.endsWith('.json'))
      .map((name) => name.slice(0, -'.json'.length))
      .sort();
  }

  /** Paths of entry files left in place that cannot be read now (I/O errors, a newer format). */
  async unreadable(): Promise<string[]> {
    return (await this.load()).unreadable;
  }

  /** Paths of the entry files set aside as damaged, oldest first: kept for a person to look at. */
  quarantined(): Promise<string[]> {
    return listQuarantined(this.fs, join(this.dir, QUARANTINE_DIR));
  }

  /** A person's decision: send a rejected entry again (same id, same payload). */
  async retryRejected(id: string): Promise<OutboxEntry> {
    await this.init();
    const entry = await this.read(REJECTED, id);
    if (!entry) throw new Error(`No rejected outbox entry ${id}.`);
    const revived: OutboxEntry = {
      ...entry,
      state: 'pending',
      rejectedAt: null,
      nextAttemptAt: new Date(this.clock.now()).toISOString(),
    };
    await this.write(PENDING, revived);
    await removeDurable(this.fs, this.path(REJECTED, id));
    if (this.started) this.schedule(0);
    return revived;
  }

  /** A person's decision: forget a rejected entry. Pending entries cannot be discarded. */
  async discardRejected(id: string): Promise<boolean> {
    await this.init();
    return removeDurable(this.fs, this.path(REJECTED, id));
  }

  /**
   * Send every entry that is due, oldest first, one at a time. Concurrent calls share passes: a
   * call during a pass gets the pass after it, so an entry enqueued meanwhile is not missed.
   */
  syncNow(options: { force?: boolean } = {}): Promise<SyncReport> {
    const force = options.force ?? false;
    if (!this.running) return this.startPass(force);
    this.queuedForce ||= force;
    this.queued ??= this.running
      .catch(() => undefined)
      .then(() => {
        const queuedForce = this.queuedForce;
        this.queued = undefined;
        this.queuedForce = false;
        return this.startPass(queuedForce);
      });
    return this.queued;
  }

  /** Every pass clears `running` itself when it ends, however it was started. */
  private startPass(force: boolean): Promise<SyncReport> {
    const pass: Promise<SyncReport> = this.pass(force).finally(() => {
      if (this.running === pass) this.running = undefined;
    });
    this.running = pass;
    return pass;
  }

  /** Start the background loop: sends due entries, then sleeps until the next one is due. */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.abort = new AbortController();
    this.schedule(0);
  }

  /** Stop the loop and cancel a send in flight (that entry stays pending, unchanged). */
  async stop(): Promise<void> {
    this.started = false;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.abort?.abort();
    await this.running?.catch(() => undefined);
    await this.queued?.catch(() => undefined);
    this.abort = undefined;
  }

  private schedule(delayMs: number): void {
    if (!this.started) return;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = this.timers.setTimeout(
      () => {
        this.timer = undefined;
        void this.syncNow()
          .catch(() => undefined)
          .then(() => this.scheduleNext());
      },
      Math.max(0, delayMs),
    );
  }

  /**
   * Sleeps until the earliest entry is due. After a pass that walked every waiting entry, that is
   * found from what the walk read, and a name it did not walk (enqueued meanwhile, by this process
   * or another) is due now; only after a pass that did not walk (the lock was held elsewhere, an
   * error) is every entry read again.
   */
  private async scheduleNext(): Promise<void> {
    if (!this.started || this.timer !== undefined) return;
    const walk = this.lastWalk;
    this.lastWalk = undefined;
    const due = await (walk ? this.dueAfterWalk(walk) : this.dueOfEveryEntry()).catch(() => undefined);
    const now = this.clock.now();
    this.schedule(Math.min(now + this.idlePollMs, due ?? Infinity) - now);
  }

  /** When the walk's waiting entries are next due; now when pending/ holds a name the walk did not see. */
  private async dueAfterWalk(walk: Walk): Promise<number | undefined> {
    const { waitingIds } = await this.folderIds();
    if (waitingIds.some((id) => !walk.ids.has(id))) return this.clock.now();
    return earliest(walk.stillWaiting.map((entry) => this.dueAt(entry)));
  }

  /** When the waiting entries are next due, every entry file read. */
  private async dueOfEveryEntry(): Promise<number | undefined> {
    const { pending } = await this.load();
    return earliest(pending.map((entry) => this.dueAt(entry)));
  }

  private dueAt(entry: OutboxEntry): number {
    return Math.max(
      Date.parse(entry.nextAttemptAt),
      this.hostBlockedUntil.get(serviceKey(entry.serviceUrl)) ?? 0,
      this.accountBlockedUntil.get(accountKey(entry)) ?? 0,
    );
  }

  private async pass(force: boolean): Promise<SyncReport> {
    // Only a walk that reaches the end sets it again: what it found is what scheduleNext goes by.
    this.lastWalk = undefined;
    await this.init();
    const report: SyncReport = { skippedLocked: false, delivered: [], rejected: [], retrying: [] };
    const lock = await tryAcquireLock(join(this.dir, LOCK), this.lockOptions);
    if (!lock) return { ...report, skippedLocked: true };
    try {
      await this.sendDue(lock, force, report);
    } finally {
      await lock.release();
    }
    return report;
  }

  private async sendDue(lock: HeldLock, force: boolean, report: SyncReport): Promise<void> {
    try {
      await this.sendDueEntries(lock, force, report);
    } finally {
      // The removals of this pass, made durable together (see attempt).
      if (this.unsyncedRemovals) {
        this.unsyncedRemovals = false;
        await fsyncDir(this.fs, join(this.dir, PENDING));
      }
    }
  }

  /**
   * Walks the waiting entries in creation order by their file names (ids sort in creation order,
   * see newId) and reads each one only when the walk comes to it. That one read is also the read
   * just before sending: a person may have acted on the entry, or another process delivered it,
   * since the folder was listed. Nothing is read ahead, so the first send does not wait for every
   * entry to be read, and a page the Outbox screen asks meanwhile waits behind one read, not 64.
   * A damaged file is quarantined where the walk meets it; rejected/ is not opened (the screen's
   * page and load() look there).
   */
  private async sendDueEntries(lock: HeldLock, force: boolean, report: SyncReport): Promise<void> {
    const { waitingIds } = await this.folderIds();
    const blockedChains = new Set<string>();
    let refreshedAt = this.clock.now();
    /** Services and organizations this pass found no credentials for: even a forced pass tries one entry of each, not all. */
    const withoutCredentials = new Set<string>();
    /** The entries this pass read and left waiting (as they are after it): when the loop looks next (scheduleNext). */
    const stillWaiting: OutboxEntry[] = [];
    const unreadable: string[] = [];
    for (const id of waitingIds) {
      const signal = this.abort?.signal ?? new AbortController().signal;
      if (signal.aborted) return;
      // The lock says it is alive often enough that no other process takes it over, not once per
      // entry: each refresh is a write and an fsync, which a long drain would pay thousands of times.
      if (this.clock.now() - refreshedAt >= this.lockRefreshMs) {
        await lock.refresh();
        refreshedAt = this.clock.now();
      }
      const entry = await this.readListed(PENDING, `${id}.json`, unreadable);
      if (!entry) continue; // delivered meanwhile, left in place, or quarantined
      const chain = chainKey(entry);
      const waits =
        blockedChains.has(chain) ||
        withoutCredentials.has(accountKey(entry)) ||
        (!force && this.dueAt(entry) > this.clock.now());
      if (waits) {
        blockedChains.add(chain);
        stillWaiting.push(entry);
        continue;
      }
      const outcome = await this.attempt(entry, signal);
      if (outcome === 'cancelled') return;
      if (outcome === 'delivered') report.delivered.push(entry.id);
      else if (outcome === 'rejected') report.rejected.push(entry.id);
      else {
        if (outcome.kind === 'no-credentials') withoutCredentials.add(accountKey(entry));
        report.retrying.push(entry.id);
        blockedChains.add(chain);
        stillWaiting.push(outcome.entry);
      }
    }
    this.lastWalk = { ids: new Set(waitingIds), stillWaiting };
  }

  /** Sends `current`, just read from pending/, and records the answer; a retry returns the entry as rewritten. */
  private async attempt(
    current: OutboxEntry,
    signal: AbortSignal,
  ): Promise<'delivered' | 'rejected' | 'cancelled' | { kind: 'retry' | 'no-credentials'; entry: OutboxEntry }> {
    let acknowledged: boolean;
    try {
      if (signal.aborted) return 'cancelled';
      acknowledged = await untilAborted(this.sender.send(current, signal), signal);
    } catch (err) {
      if (err instanceof CancelledError || signal.aborted) return 'cancelled';
      const error = classifyDeliveryFailure(err, this.clock.now());
      if (error.kind === 'rejected') {
        await this.reject(current, error);
        return 'rejected';
      }
      const noCredentials = err instanceof NoCredentialsError;
      const retrying = await this.retryLater(
        current,
        error,
        err instanceof ServiceError ? err.retryAfterMs : undefined,
        noCredentials,
      );
      return { kind: noCredentials ? 'no-credentials' : 'retry', entry: retrying };
    }
    if (!acknowledged) {
      await this.reject(current, {
        kind: 'refused',
        message: 'The service answered without error but did not accept the confirmation (data: false).',
        at: new Date(this.clock.now()).toISOString(),
      });
      return 'rejected';
    }
    // Removed, and the directory fsync'd once at the end of the pass rather than per entry: a
    // removal lost to a crash only sends the entry again, and the service records it once (its id
    // is the idempotency key; the payload, byte for byte the same, is deduplicated too).
    await this.fs.unlink(this.path(PENDING, current.id)).catch((err: unknown) => {
      if (errnoCode(err) !== 'ENOENT') throw err;
    });
    this.unsyncedRemovals = true;
    this.hostBlockedUntil.delete(serviceKey(current.serviceUrl));
    this.accountBlockedUntil.delete(accountKey(current));
    this.onEvent?.({ type: 'delivered', entry: current });
    return 'delivered';
  }

  private async retryLater(
    entry: OutboxEntry,
    error: OutboxError,
    retryAfterMs: number | undefined,
    noCredentials = false,
  ): Promise<OutboxEntry> {
    const now = this.clock.now();
    const attempts = entry.attempts + 1;
    // The service's own Retry-After wins when it asks for longer than our backoff (still capped).
    const delay = Math.max(
      retryDelay(attempts, this.backoff, this.random),
      Math.min(retryAfterMs ?? 0, this.backoff.capMs),
    );
    const next = now + delay;
    const updated: OutboxEntry = {
      ...entry,
      attempts,
      lastAttemptAt: new Date(now).toISOString(),
      lastError: error,
      nextAttemptAt: new Date(next).toISOString(),
    };
    await this.write(PENDING, updated);
    if (error.kind === 'network') this.hostBlockedUntil.set(serviceKey(entry.serviceUrl), next);
    if (noCredentials) this.accountBlockedUntil.set(accountKey(entry), next);
    this.onEvent?.({ type: 'retry-scheduled', entry: updated });
    return updated;
  }

  private async reject(entry: OutboxEntry, error: OutboxError): Promise<void> {
    const now = new Date(this.clock.now()).toISOString();
    const rejected: OutboxEntry = {
      ...entry,
      attempts: entry.attempts + 1,
      lastAttemptAt: now,
      lastError: error,
      state: 'rejected',
      rejectedAt: now,
    };
    await this.write(REJECTED, rejected);
    await removeDurable(this.fs, this.path(PENDING, entry.id));
    this.onEvent?.({ type: 'rejected', entry: rejected });
  }

  private path(folder: string, id: string): string {
    return join(this.dir, folder, `${id}.json`);
  }

  private async write(folder: string, entry: OutboxEntry): Promise<void> {
    await writeFileDurable(this.fs, this.path(folder, entry.id), JSON.stringify(entry, null, 2) + '\n');
  }

  private async read(folder: string, id: string): Promise<OutboxEntry | undefined> {
    const raw = await readFileIfExists(this.fs, this.path(folder, id));
    if (!raw) return undefined;
    return outboxEntrySchema.parse(JSON.parse(raw.toString('utf8')));
  }

  private async load(): Promise<{ pending: OutboxEntry[]; rejected: OutboxEntry[]; unreadable: string[] }> {
    await this.init();
    const unreadable: string[] = [];
    const readFolder = async (folder: string): Promise<OutboxEntry[]> => {
      const names = (await this.fs.readdir(join(this.dir, folder))).filter(
        (name) => !isTempName(name) && name.endsWith('.json'),
      );
      // Files are read a batch at a time (10,000 waiting took seconds one by one), kept in order.
      const read = await readInBatches(names, (name) => this.readListed(folder, name, unreadable));
      return read.filter((entry) => entry !== undefined);
    };
    const rejected = await readFolder(REJECTED);
    const rejectedIds = new Set(rejected.map((e) => e.id));
    // An entry in both folders is one whose move to rejected was interrupted: rejected wins.
    const pending = (await readFolder(PENDING)).filter((e) => !rejectedIds.has(e.id));
    return { pending, rejected, unreadable };
  }

  /**
   * The entry in a listed file, or undefined when there is none to show: gone (delivered
   * meanwhile), not openable or in a newer format (its path added to `unreadable`, left in place),
   * or damaged (quarantined).
   */
  private async readListed(folder: string, name: string, unreadable: string[]): Promise<OutboxEntry | undefined> {
    const path = join(this.dir, folder, name);
    let raw: Buffer | undefined;
    try {
      raw = await readFileIfExists(this.fs, path);
    } catch (err) {
      // Could not be opened at all (permissions, a disk error): nothing says the bytes are bad.
      unreadable.push(path);
      this.onEvent?.({ type: 'unreadable', path, reason: errnoCode(err) ?? String(err) });
      return undefined;
    }
    if (!raw) return undefined; // delivered meanwhile
    const read = readEntry(raw, name);
    if ('entry' in read) return read.entry;
    if (read.otherFormat) {
      unreadable.push(path);
      this.onEvent?.({ type: 'unreadable', path, reason: read.reason });
    } else {
      await this.quarantine(path, read.reason);
    }
    return undefined;
  }

  /** Moves a damaged entry file aside; another process may have done it first. */
  private async quarantine(path: string, reason: string): Promise<void> {
    const file = await quarantineFile(this.fs, path, {
      quarantineDir: join(this.dir, QUARANTINE_DIR),
      reason,
      now: this.clock.now(),
    });
    if (file) this.onEvent?.({ type: 'quarantined', file });
  }
}

/**
 * An entry file's entry, or why it is not one. A file in another outbox format (a newer version
 * of the app wrote it) is not damaged: it is left for that version to send.
 */
function readEntry(raw: Buffer, name: string): { entry: OutboxEntry } | { reason: string; otherFormat: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    return { reason: `not JSON (${raw.length} bytes)`, otherFormat: false };
  }
  const format = typeof json === 'object' && json !== null && 'format' in json ? json.format : undefined;
  if (typeof format === 'string' && format.startsWith('provisioner-outbox/') && format !== FORMAT) {
    return { reason: `written in format ${format}, which this version does not read`, otherFormat: true };
  }
  const parsed = outboxEntrySchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      reason: `not an outbox entry (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'})`,
      otherFormat: false,
    };
  }
  if (`${parsed.data.id}.json` !== name)
    return { reason: `the file name does not match entry id ${parsed.data.id}`, otherFormat: false };
  return { entry: parsed.data };
}

/** How many entry files a load reads at once. */
const READ_BATCH = 64;

/** `read` of each item, READ_BATCH at a time, in the items' order; the first failure is thrown. */
async function readInBatches<N, T>(items: readonly N[], read: (item: N) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let start = 0; start < items.length; start += READ_BATCH) {
    results.push(...(await Promise.all(items.slice(start, start + READ_BATCH).map(read))));
  }
  return results;
}

/**
 * A sender's answer, or a rejection as soon as `signal` aborts: stop() must not wait on a sender
 * that ignores its signal (or was handed one that aborted before it started listening).
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new Error('cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/**
 * A payload the service would refuse for its form (not a timestamp, no version on success) is a
 * bug in the caller: refuse it now, loudly, rather than park it as rejected later.
 */
function checkPayload(confirmation: NewConfirmation): void {
  if (confirmation.kind === 'firmware') {
    const parsed = serviceFirmwareConfirmation.safeParse(confirmation.payload);
    const problems = parsed.success
      ? validateFirmwareConfirmation(parsed.data).map((v) => `${v.field}: ${v.message}`)
      : issues(parsed.error);
    if (problems.length > 0) throw new Error(`Not a valid firmware confirmation: ${problems.join('; ')}`);
  } else {
    const parsed = serviceConfigurationConfirmation.safeParse(confirmation.payload);
    if (!parsed.success) throw new Error(`Not a valid configuration confirmation: ${issues(parsed.error).join('; ')}`);
  }
}

function issues(error: { issues: ReadonlyArray<{ path: PropertyKey[]; message: string }> }): string[] {
  return error.issues.map((i) => `${i.path.map(String).join('.') || 'payload'}: ${i.message}`);
}

/** Two lists sorted by id, as one sorted by id. */
function mergeSorted<T extends { id: string }>(a: readonly T[], b: readonly T[]): T[] {
  const merged: T[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && a[i]!.id <= b[j]!.id)) merged.push(a[i++]!);
    else merged.push(b[j++]!);
  }
  return merged;
}

/** The index of the first of `sorted` (by id) whose id sorts after `after`: binary search. */
function firstAfter(sorted: ReadonlyArray<{ id: string }>, after: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]!.id <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The smallest of `times`; undefined when there is none. */
function earliest(times: readonly number[]): number | undefined {
  return times.length === 0 ? undefined : times.reduce((a, b) => Math.min(a, b));
}

function byCreatedAt(a: OutboxEntry, b: OutboxEntry): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Sort a failed delivery into what the outbox does with it: retry later, wait for a sign-in, or reject. */
function classifyDeliveryFailure(err: unknown, nowMs: number): OutboxError {
  const at = new Date(nowMs).toISOString();
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof NetworkError) return { kind: 'network', message, at };
  if (err instanceof AuthError) {
    // A revoked or missing key is fixed by logging in again; the confirmation must wait, not die.
    return { kind: 'auth', message, httpStatus: err.httpStatus, errors: [...err.errors], at };
  }
  if (err instanceof ServiceError) {
    const kind = err.retryable ? 'service' : 'rejected';
    return { kind, message, httpStatus: err.httpStatus, errors: [...err.errors], at };
  }
  if (err instanceof ResponseFormatError) {
    // An answer that is not the interface's (a captive portal's page, a proxy in the way) says
    // nothing about the confirmation itself: retry, with the reason visible.
    return { kind: 'format', message, httpStatus: err.httpStatus, at };
  }
  // Anything else (no credentials for that service right now, a local failure) is retried too:
  // only the service's own "no" may stop a confirmation.
  return { kind: 'other', message, at };
}
