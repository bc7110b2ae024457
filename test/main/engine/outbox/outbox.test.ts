import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, ServiceError } from '../../../../main/cloud/errors';
import { nodeFileSystem, type FileSystem } from '../../../../platform/durable-file';
import { tryAcquireLock } from '../../../../platform/durable-lock';
import {
  DEFAULT_BACKOFF,
  retryDelay,
  type ConfirmationSender,
  type OutboxEntry,
  type OutboxEvent,
} from '../../../../main/engine/outbox/outbox';
import { clientConfirmationSender } from '../../../../main/engine/outbox/outbox-sender';
import { deferred } from '../jobs/fake-time';
import { firmware, useOutboxBench } from './outbox-bench';

const request = { method: 'POST', path: '/v1/organizations/o/devices/SN1/confirm-apply-firmware' };

/** A sender scripted per call: each call takes the next behaviour; records what it was given. */
class ScriptedSender implements ConfirmationSender {
  readonly sent: OutboxEntry[] = [];
  constructor(private readonly script: Array<boolean | Error | (() => Promise<boolean>)> = []) {}
  push(...steps: Array<boolean | Error | (() => Promise<boolean>)>): void {
    this.script.push(...steps);
  }
  async send(entry: OutboxEntry): Promise<boolean> {
    this.sent.push(structuredClone(entry));
    const step = this.script.shift() ?? true;
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step();
    return step;
  }
}

const bench = useOutboxBench('outbox-');

describe('outbox durability', () => {
  it('keeps an entry across a crash: a new instance on the same directory sees it, same id and payload', async () => {
    const first = bench.outbox(new ScriptedSender());
    const entry = await first.enqueue(firmware());
    // "crash": drop the instance without any shutdown and open the directory again
    const second = bench.outbox(new ScriptedSender());
    const listed = await second.list();
    expect(listed).toHaveLength(1);
    expect(listed[0]!.id).toBe(entry.id);
    expect(listed[0]!.payload).toEqual(firmware().payload);
    expect(await second.pending()).toEqual({
      count: 1,
      oldestCreatedAt: entry.createdAt,
      rejected: 0,
      unreadable: 0,
      quarantined: 0,
    });
  });

  it('refuses a payload the service could never accept, before writing anything', async () => {
    const outbox = bench.outbox(new ScriptedSender());
    const bad = firmware();
    if (bad.kind !== 'firmware') throw new Error('fixture');
    await expect(outbox.enqueue({ ...bad, payload: { ...bad.payload, applyTimeStamp: 'yesterday' } })).rejects.toThrow(
      /applyTimeStamp/,
    );
    await expect(outbox.enqueue({ ...bad, payload: { ...bad.payload, firmwareVersion: null } })).rejects.toThrow(
      /firmwareVersion/,
    );
    await expect(
      outbox.enqueue({
        kind: 'configuration',
        serviceUrl: 's',
        orgId: 'o',
        serialNumber: 'SN1',
        payload: {
          configurationFileSuccessfullyDeployed: true,
          error: null,
          syncId: 'not-a-uuid',
          applyTimeStamp: '2026-01-01T00:00:00Z',
        },
      }),
    ).rejects.toThrow(/syncId/);
    expect(await outbox.list()).toEqual([]);
  });

  it('writes the entry to disk before enqueue resolves (file present, fsync then rename)', async () => {
    const calls: string[] = [];
    const fs: FileSystem = {
      ...nodeFileSystem,
      open: async (path, flags, mode) => {
        const handle = await nodeFileSystem.open(path, flags, mode);
        const sync = handle.sync.bind(handle);
        handle.sync = async () => {
          calls.push(`sync ${String(path).split('/').pop()}`);
          return sync();
        };
        return handle;
      },
      rename: async (from, to) => {
        calls.push(`rename -> ${to.split('/').pop()}`);
        return nodeFileSystem.rename(from, to);
      },
    };
    const outbox = bench.outbox(new ScriptedSender(), { fs });
    const entry = await outbox.enqueue(firmware());
    const onDisk = JSON.parse(await readFile(join(bench.dir, 'pending', `${entry.id}.json`), 'utf8')) as OutboxEntry;
    expect(onDisk.id).toBe(entry.id);
    const renameAt = calls.indexOf(`rename -> ${entry.id}.json`);
    expect(renameAt).toBeGreaterThan(0);
    expect(calls[renameAt - 1]).toMatch(/^sync \..*\.tmp$/); // the temp file's content was fsync'd first
    expect(calls[renameAt + 1]).toBe('sync pending'); // then the directory entry
  });

  it('a crash between writing and renaming leaves no entry and no half entry; old temp files are cleaned', async () => {
    const crashing: FileSystem = {
      ...nodeFileSystem,
      rename: async () => {
        throw Object.assign(new Error('power cut'), { code: 'EIO' });
      },
    };
    await expect(bench.outbox(new ScriptedSender(), { fs: crashing }).enqueue(firmware())).rejects.toThrow('power cut');
    // A temp file a killed process left behind, an hour and more old:
    const leftover = join(bench.dir, 'pending', '.abc.json.1.dead.tmp');
    await writeFile(leftover, '{"torn":');
    const old = new Date(bench.time.now() - 2 * 3600_000);
    await utimes(leftover, old, old);
    const outbox = bench.outbox(new ScriptedSender());
    expect(await outbox.list()).toEqual([]);
    expect(await readdir(join(bench.dir, 'pending'))).toEqual([]);
  });

  it('sets an unreadable entry file aside in quarantine, never sends or deletes it', async () => {
    const sender = new ScriptedSender();
    const outbox = bench.outbox(sender);
    await outbox.enqueue(firmware());
    await writeFile(join(bench.dir, 'pending', 'broken.json'), 'not json');
    expect(await outbox.pending()).toMatchObject({ count: 1, unreadable: 0, quarantined: 1 });
    await outbox.syncNow();
    expect(sender.sent).toHaveLength(1);
    expect(await readdir(join(bench.dir, 'pending'))).toEqual([]);
    const [quarantined] = await outbox.quarantined();
    expect(quarantined).toMatch(/quarantine\/.*-broken\.json$/);
    expect(await readFile(quarantined!, 'utf8')).toBe('not json');
  });
});

describe('outbox delivery', () => {
  it('removes an entry only once the service acknowledged it with data true', async () => {
    const sender = new ScriptedSender([true]);
    const outbox = bench.outbox(sender);
    const entry = await outbox.enqueue(firmware());
    const report = await outbox.syncNow();
    expect(report.delivered).toEqual([entry.id]);
    expect(sender.sent.map((e) => e.id)).toEqual([entry.id]);
    expect(await outbox.list()).toEqual([]);
    expect(bench.events.map((e) => e.type)).toEqual(['enqueued', 'delivered']);
  });

  it('deliver(): records durably then sends at once; says whether it is still waiting', async () => {
    const sender = new ScriptedSender([true, new NetworkError('unreachable', request)]);
    const outbox = bench.outbox(sender);
    const sent = await outbox.deliver(firmware('SN1'));
    expect(sent.delivered).toBe(true);
    const waiting = await outbox.deliver(firmware('SN2'));
    expect(waiting.delivered).toBe(false);
    expect(waiting.entry).toMatchObject({
      serialNumber: 'SN2',
      state: 'pending',
      attempts: 1,
      lastError: { kind: 'network' },
    });
    expect(await outbox.pending()).toMatchObject({ count: 1 });
  });

  it('retries network errors and 5xx with the same payload, with doubling delays, across restarts', async () => {
    const sender = new ScriptedSender([
      new NetworkError('unreachable', request),
      new ServiceError(503, [{ code: 'UNAVAILABLE', message: 'busy' }], request),
    ]);
    const outbox = bench.outbox(sender);
    const entry = await outbox.enqueue(firmware());
    await outbox.syncNow();
    let [stored] = await outbox.list();
    expect(stored).toMatchObject({ id: entry.id, state: 'pending', attempts: 1, lastError: { kind: 'network' } });
    expect(Date.parse(stored!.nextAttemptAt) - bench.time.now()).toBe(5_000);

    // not due yet: nothing is sent
    await outbox.syncNow();
    expect(sender.sent).toHaveLength(1);

    bench.time.advance(5_000);
    await outbox.syncNow();
    [stored] = await outbox.list();
    expect(stored).toMatchObject({
      attempts: 2,
      lastError: { kind: 'service', httpStatus: 503, errors: [{ code: 'UNAVAILABLE', message: 'busy' }] },
    });
    expect(Date.parse(stored!.nextAttemptAt) - bench.time.now()).toBe(10_000);

    // restart: a new instance picks up the schedule from disk
    bench.time.advance(10_000);
    const restarted = bench.outbox(sender);
    const report = await restarted.syncNow();
    expect(report.delivered).toEqual([entry.id]);
    expect(sender.sent.map((e) => e.payload)).toEqual([entry.payload, entry.payload, entry.payload]);
    expect(sender.sent.map((e) => e.id)).toEqual([entry.id, entry.id, entry.id]);
    expect(await restarted.pending()).toMatchObject({ count: 0 });
  });

  it('waits at least as long as the service asks with Retry-After', async () => {
    const busy = new ServiceError(503, [], request, undefined, 120_000);
    const outbox = bench.outbox(new ScriptedSender([busy]));
    await outbox.enqueue(firmware());
    await outbox.syncNow();
    const [stored] = await outbox.list();
    expect(Date.parse(stored!.nextAttemptAt) - bench.time.now()).toBe(120_000);
  });

  it('follows the backoff schedule: 5 s doubling, capped at 5 minutes, jitter within ±20%', () => {
    const mid = (n: number): number => retryDelay(n, DEFAULT_BACKOFF, () => 0.5);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map(mid)).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
    expect(retryDelay(1, DEFAULT_BACKOFF, () => 0)).toBe(4_000);
    expect(retryDelay(1, DEFAULT_BACKOFF, () => 0.999999)).toBe(6_000);
    expect(retryDelay(12, DEFAULT_BACKOFF, () => 0.999999)).toBe(300_000);
  });

  it('moves a 4xx that will never succeed to rejected, keeps it visible with the service errors, and lets a person retry or discard it', async () => {
    const refusal = new ServiceError(
      409,
      [{ code: 'SYNC_ID_UNKNOWN', message: 'No such syncId for this device.', field: 'syncId' }],
      request,
    );
    const sender = new ScriptedSender([refusal, true]);
    const outbox = bench.outbox(sender);
    const entry = await outbox.enqueue(firmware());
    const report = await outbox.syncNow();
    expect(report.rejected).toEqual([entry.id]);
    expect(await outbox.pending()).toMatchObject({ count: 0, rejected: 1 });
    const [rejected] = await bench.outbox(sender).list();
    expect(rejected).toMatchObject({
      id: entry.id,
      state: 'rejected',
      lastError: {
        kind: 'rejected',
        httpStatus: 409,
        errors: [{ code: 'SYNC_ID_UNKNOWN', message: 'No such syncId for this device.', field: 'syncId' }],
      },
    });
    // never retried on its own
    bench.time.advance(3600_000);
    await outbox.syncNow({ force: true });
    expect(sender.sent).toHaveLength(1);

    await outbox.retryRejected(entry.id);
    expect((await outbox.syncNow()).delivered).toEqual([entry.id]);
    expect(sender.sent[1]!.payload).toEqual(entry.payload);

    const other = await outbox.enqueue(firmware('SN2'));
    sender.push(new ServiceError(400, [{ code: 'VALIDATION', message: 'bad' }], request));
    await outbox.syncNow();
    expect(await outbox.discardRejected(other.id)).toBe(true);
    expect(await outbox.list()).toEqual([]);
  });

  it('keeps a confirmation the database refused as colliding (409 CONCURRENT_CHANGE) waiting, and delivers it next time', async () => {
    const collided = new ServiceError(
      409,
      [{ code: 'CONCURRENT_CHANGE', message: 'Other requests changed the same data at the same time (10 attempts).' }],
      request,
    );
    const sender = new ScriptedSender([collided, true]);
    const outbox = bench.outbox(sender);
    const entry = await outbox.enqueue(firmware());
    const first = await outbox.syncNow();
    expect(first.rejected).toEqual([]);
    expect(await outbox.pending()).toMatchObject({ count: 1, rejected: 0 });
    expect((await outbox.list())[0]).toMatchObject({
      state: 'pending',
      lastError: { kind: 'service', httpStatus: 409 },
    });
    bench.time.advance(10_000);
    expect((await outbox.syncNow()).delivered).toEqual([entry.id]);
    expect(sender.sent.map((s) => s.payload)).toEqual([entry.payload, entry.payload]);
  });

  it('treats data false as refused (kept as rejected), and auth errors as retryable', async () => {
    const sender = new ScriptedSender([
      false,
      new AuthError(401, [{ code: 'UNAUTHORIZED', message: 'Unknown API key.' }], request),
    ]);
    const outbox = bench.outbox(sender);
    const a = await outbox.enqueue(firmware('SN1'));
    const b = await outbox.enqueue(firmware('SN2'));
    await outbox.syncNow();
    const byId = new Map((await outbox.list()).map((e) => [e.id, e]));
    expect(byId.get(a.id)).toMatchObject({ state: 'rejected', lastError: { kind: 'refused' } });
    expect(byId.get(b.id)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: { kind: 'auth', httpStatus: 401 },
    });
  });

  it('keeps order within one device and kind: a later confirmation waits while an earlier one is retrying', async () => {
    const sender = new ScriptedSender([new ServiceError(500, [], request), true]);
    const outbox = bench.outbox(sender);
    const first = await outbox.enqueue(firmware('SN1', '1.0.0'));
    bench.time.advance(1);
    const second = await outbox.enqueue(firmware('SN1', '2.0.0'));
    bench.time.advance(1);
    const otherDevice = await outbox.enqueue(firmware('SN9', '2.0.0'));
    await outbox.syncNow();
    expect(sender.sent.map((e) => e.id)).toEqual([first.id, otherDevice.id]);
    bench.time.advance(5_000);
    sender.push(true, true);
    await outbox.syncNow();
    expect(sender.sent.map((e) => e.id)).toEqual([first.id, otherDevice.id, first.id, second.id]);
  });

  it('keeps one chain per service however its URL was written (a CLI and an app spelling it otherwise)', async () => {
    const sender = new ScriptedSender([new ServiceError(500, [], request), true]);
    const outbox = bench.outbox(sender);
    const first = await outbox.enqueue(firmware('SN1', '1.0.0'));
    bench.time.advance(1);
    const second = await outbox.enqueue({ ...firmware('SN1', '2.0.0'), serviceUrl: 'HTTP://Service.test:80/' });
    await outbox.syncNow();
    // The second waits behind the first, as in one chain: sent alone it could overtake it.
    expect(sender.sent.map((e) => e.id)).toEqual([first.id]);
    bench.time.advance(5_000);
    sender.push(true, true);
    await outbox.syncNow();
    expect(sender.sent.map((e) => e.id)).toEqual([first.id, first.id, second.id]);
  });

  it('after a network failure, holds the other entries for that service until the backoff ends', async () => {
    const sender = new ScriptedSender([new NetworkError('unreachable', request)]);
    const outbox = bench.outbox(sender);
    await outbox.enqueue(firmware('SN1'));
    await outbox.enqueue(firmware('SN2'));
    await outbox.syncNow();
    // the service is unreachable: no point hammering it with SN2 in the same breath
    expect(sender.sent.map((e) => e.serialNumber)).toEqual(['SN1']);
    expect(await outbox.pending()).toMatchObject({ count: 2 });
    bench.time.advance(5_000);
    await outbox.syncNow();
    expect(sender.sent.map((e) => e.serialNumber)).toEqual(['SN1', 'SN1', 'SN2']);
    expect(await outbox.pending()).toMatchObject({ count: 0 });
  });
});

describe('outbox concurrency', () => {
  it('sends one entry at a time and never twice when syncNow is called concurrently', async () => {
    const gate = deferred<boolean>();
    let inFlight = 0;
    let maxInFlight = 0;
    const sender: ConfirmationSender = {
      send: async () => {
        inFlight += 1;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await gate.promise;
        inFlight -= 1;
        return true;
      },
    };
    const counting = new ScriptedSender();
    const outbox = bench.outbox({ send: async (e, s) => (await counting.send(e), sender.send(e, s)) });
    await outbox.enqueue(firmware('SN1'));
    await outbox.enqueue(firmware('SN2'));
    const runs = [outbox.syncNow(), outbox.syncNow(), outbox.syncNow()];
    gate.resolve(true);
    const reports = await Promise.all(runs);
    expect(maxInFlight).toBe(1);
    expect(counting.sent.map((e) => e.serialNumber).sort()).toEqual(['SN1', 'SN2']);
    expect(reports.flatMap((r) => r.delivered)).toHaveLength(2);
  });

  it('keeps sending after overlapping passes: every later confirmation is delivered', async () => {
    const sender = new ScriptedSender();
    const outbox = bench.outbox(sender);
    // Three devices confirm at the same moment (one pass running, one queued), then two more later.
    const together = await Promise.all(['SN1', 'SN2', 'SN3'].map((sn) => outbox.deliver(firmware(sn))));
    expect(together.every((r) => r.delivered)).toBe(true);
    expect((await outbox.deliver(firmware('SN4'))).delivered).toBe(true);
    expect((await outbox.deliver(firmware('SN5'))).delivered).toBe(true);
    expect(sender.sent.map((e) => e.serialNumber).sort()).toEqual(['SN1', 'SN2', 'SN3', 'SN4', 'SN5']);
    expect((await outbox.pending()).count).toBe(0);
  });

  it('a call made during a pass gets a fresh pass that starts after it', async () => {
    const gate = deferred<boolean>();
    const sender = new ScriptedSender([() => gate.promise]);
    const outbox = bench.outbox(sender);
    await outbox.enqueue(firmware('SN1'));
    const first = outbox.syncNow();
    await outbox.enqueue(firmware('SN2'));
    const second = outbox.syncNow();
    gate.resolve(true);
    const [a, b] = await Promise.all([first, second]);
    // Whichever pass took it, SN2 (enqueued during the first pass) is sent by the time the second call answers.
    expect([...a.delivered, ...b.delivered]).toHaveLength(2);
    expect((await outbox.pending()).count).toBe(0);
    await outbox.enqueue(firmware('SN3'));
    expect((await outbox.syncNow()).delivered).toHaveLength(1);
    expect(sender.sent.map((e) => e.serialNumber)).toEqual(['SN1', 'SN2', 'SN3']);
  });

  it('skips a pass while another live process holds the sender lock, and takes over a dead one', async () => {
    const sender = new ScriptedSender();
    const outbox = bench.outbox(sender, { lock: { isAlive: (pid) => pid === 4242 } });
    await outbox.enqueue(firmware());
    const other = await tryAcquireLock(join(bench.dir, 'sender.lock'), {
      pid: 4242,
      now: bench.time.now,
      isAlive: () => true,
    });
    expect(other).toBeDefined();
    expect((await outbox.syncNow()).skippedLocked).toBe(true);
    expect(sender.sent).toHaveLength(0);
    await other!.release();

    // a process that died holding the lock
    const dead = await tryAcquireLock(join(bench.dir, 'sender.lock'), {
      pid: 999_999,
      now: bench.time.now,
      isAlive: () => true,
    });
    expect(dead).toBeDefined();
    const report = await outbox.syncNow();
    expect(report.skippedLocked).toBe(false);
    expect(report.delivered).toHaveLength(1);
  });

  it('two outboxes on one directory (as two processes would be) never send the same entry at the same time', async () => {
    const gate = deferred<boolean>();
    const sending = deferred();
    const slow = new ScriptedSender([
      () => {
        sending.resolve();
        return gate.promise;
      },
    ]);
    const fast = new ScriptedSender();
    const a = bench.outbox(slow);
    const b = bench.outbox(fast);
    await a.enqueue(firmware());
    const first = a.syncNow();
    await sending.promise;
    expect((await b.syncNow()).skippedLocked).toBe(true);
    gate.resolve(true);
    expect((await first).delivered).toHaveLength(1);
    expect((await b.syncNow()).delivered).toEqual([]);
    expect(fast.sent).toEqual([]);
  });

  it('waits (and retries) when there are no credentials for the entry service', async () => {
    const outbox = bench.outbox(clientConfirmationSender(() => undefined));
    const entry = await outbox.enqueue(firmware());
    expect((await outbox.syncNow()).retrying).toEqual([entry.id]);
    const [stored] = await outbox.list();
    expect(stored!.lastError).toMatchObject({
      kind: 'other',
      message: expect.stringContaining('No credentials for organization org-1'),
    });
  });

  it('with no credentials for a service and organization, tries one of its entries per pass, not each (issue 30)', async () => {
    let asked = 0;
    const outbox = bench.outbox(
      clientConfirmationSender(() => {
        asked += 1;
        return undefined;
      }),
    );
    const first = await outbox.enqueue(firmware());
    for (const serialNumber of ['SN2', 'SN3']) await outbox.enqueue(firmware(serialNumber));
    expect((await outbox.syncNow()).retrying).toEqual([first.id]);
    expect((await outbox.syncNow({ force: true })).retrying).toEqual([first.id]);
    expect(asked).toBe(2);
    // The others wait unchanged: not rewritten with an error of their own.
    const others = (await outbox.list()).filter((e) => e.id !== first.id);
    expect(others.map((e) => [e.attempts, e.lastError])).toEqual([
      [0, null],
      [0, null],
    ]);
  });

  it('a lock held too long by a live process counts as stale', async () => {
    const held = await tryAcquireLock(join(bench.dir, 'lock'), { pid: 4242, now: bench.time.now, isAlive: () => true });
    expect(held).toBeDefined();
    expect(await tryAcquireLock(join(bench.dir, 'lock'), { now: bench.time.now, isAlive: () => true })).toBeUndefined();
    bench.time.advance(10 * 60_000 + 1);
    const taken = await tryAcquireLock(join(bench.dir, 'lock'), { now: bench.time.now, isAlive: () => true });
    expect(taken).toBeDefined();
    // the old holder's release does not remove the new holder's lock
    await held!.release();
    expect(await tryAcquireLock(join(bench.dir, 'lock'), { now: bench.time.now, isAlive: () => true })).toBeUndefined();
    await taken!.release();
  });

  it('prefers the rejected copy when a move to rejected was interrupted', async () => {
    const sender = new ScriptedSender([new ServiceError(400, [{ code: 'VALIDATION', message: 'bad' }], request)]);
    const outbox = bench.outbox(sender);
    const entry = await outbox.enqueue(firmware());
    const pendingCopy = await readFile(join(bench.dir, 'pending', `${entry.id}.json`));
    await outbox.syncNow();
    await writeFile(join(bench.dir, 'pending', `${entry.id}.json`), pendingCopy); // as if the unlink never happened
    const reopened = bench.outbox(sender);
    expect(await reopened.pending()).toMatchObject({ count: 0, rejected: 1 });
    await reopened.syncNow({ force: true });
    expect(sender.sent).toHaveLength(1);
  });
});

describe('outbox background loop', () => {
  it('sends at once on enqueue, then retries when the backoff ends, driven by the injected timers', async () => {
    const sender = new ScriptedSender([new NetworkError('timeout', request), true]);
    let notify: (e: OutboxEvent) => void = () => undefined;
    const outbox = bench.outbox(sender, { onEvent: (e) => notify(e), idlePollMs: 60_000 });
    const waitFor = (type: OutboxEvent['type']): Promise<OutboxEvent> =>
      new Promise((resolve) => {
        notify = (e) => {
          if (e.type === type) resolve(e);
        };
      });
    outbox.start();
    const retry = waitFor('retry-scheduled');
    const entry = await outbox.enqueue(firmware());
    bench.time.advance(0);
    await retry;
    // the loop schedules its next wake-up at the entry's nextAttemptAt
    await until(() => bench.time.scheduled().length === 1);
    expect(bench.time.scheduled()).toEqual([5_000]);
    const delivered = waitFor('delivered');
    bench.time.advance(5_000);
    expect((await delivered).type).toBe('delivered');
    await until(() => bench.time.scheduled().length === 1);
    expect(bench.time.scheduled()).toEqual([60_000]); // idle: look again later for other processes' entries
    await outbox.stop();
    expect(bench.time.scheduled()).toEqual([]);
    expect(sender.sent.map((e) => e.id)).toEqual([entry.id, entry.id]);
  });

  it('stop cancels a send in flight and leaves the entry pending, unchanged, even if the sender ignores its signal', async () => {
    const sending = deferred();
    const outbox = bench.outbox({
      send: () => {
        sending.resolve();
        return new Promise<boolean>(() => undefined); // never settles
      },
    });
    outbox.start();
    const entry = await outbox.enqueue(firmware());
    bench.time.advance(0);
    await sending.promise;
    await outbox.stop();
    const [stored] = await outbox.list();
    expect(stored).toMatchObject({ id: entry.id, attempts: 0, lastError: null, state: 'pending' });
  });
});

/**
 * Wait for a condition that depends on file I/O finishing. Polls without any deadline of its own:
 * the test runner's timeout is the only limit, so a slow, busy machine cannot make it fail.
 */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 1));
}
