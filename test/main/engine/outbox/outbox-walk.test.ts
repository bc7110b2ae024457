import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../../../main/cloud/errors';
import { type ConfirmationSender, type OutboxEntry } from '../../../../main/engine/outbox/outbox';
import { nodeFileSystem, type FileSystem } from '../../../../platform/durable-file';
import { firmware, useOutboxBench } from './outbox-bench';

/**
 * Issue 30: the sending pass walks the sorted entry names and reads each entry when it comes to it,
 * once. Before, it read every entry file (64 at a time) to find what was due, then each one again
 * just before sending it: a core started with 10,000 waiting had its first Outbox page wait behind
 * those reads, and the loop read them all a third time to find when to look next.
 */

const COUNT = 40;
const request = { method: 'POST', path: '/x' };

const bench = useOutboxBench('outbox-walk-');

/** A file system that records, in order, the entry files of pending/ it was asked to read. */
function countingFs(): FileSystem & { pendingReads: string[] } {
  const pendingReads: string[] = [];
  return {
    ...nodeFileSystem,
    pendingReads,
    readFile: (path) => {
      if (path.startsWith(join(bench.dir, 'pending', '/'))) pendingReads.push(path);
      return nodeFileSystem.readFile(path);
    },
  };
}

/** COUNT entries for as many devices, made one second apart by an outbox that sends nothing. */
async function fill(): Promise<OutboxEntry[]> {
  const filling = bench.outbox({ send: () => Promise.reject(new Error('not sending yet')) });
  const made: OutboxEntry[] = [];
  for (let i = 0; i < COUNT; i += 1) {
    bench.time.advance(1000);
    made.push(await filling.enqueue(firmware(`SN${i}`)));
  }
  return made;
}

const pathOf = (entry: OutboxEntry): string => join(bench.dir, 'pending', `${entry.id}.json`);

describe('the sending pass reads each waiting entry when it comes to it', () => {
  it('opens one entry file before its first send, and each entry once in a whole drain, in creation order', async () => {
    const made = await fill();
    const fs = countingFs();
    const readsAtEachSend: number[] = [];
    const sent: string[] = [];
    const sender: ConfirmationSender = {
      send: async (entry) => {
        readsAtEachSend.push(fs.pendingReads.length);
        sent.push(entry.id);
        return true;
      },
    };
    const report = await bench.outbox(sender, { fs }).syncNow();

    expect(readsAtEachSend[0]).toBe(1);
    expect(fs.pendingReads[0]).toBe(pathOf(made[0]!));
    // The n-th send follows the n-th read: nothing read ahead, nothing read twice.
    expect(readsAtEachSend).toEqual(made.map((_, index) => index + 1));
    expect(fs.pendingReads).toEqual(made.map(pathOf));
    expect(sent).toEqual(made.map((e) => e.id));
    expect(report.delivered).toEqual(made.map((e) => e.id));
  });

  it('after a pass that walked every entry, the loop finds when to look next without reading them again', async () => {
    const made = await fill();
    const fs = countingFs();
    let failed = false;
    // The first send finds the service down: the others, for the same service, wait with it.
    const sender: ConfirmationSender = {
      send: async () => {
        if (failed) return true;
        failed = true;
        throw new NetworkError('unreachable', request);
      },
    };
    const outbox = bench.outbox(sender, { fs, idlePollMs: 60_000 });
    outbox.start();
    bench.time.advance(0);
    await until(() => bench.time.scheduled().length === 1);
    // Woken when the backoff of the entry tried ends (5 s, no jitter), not at the idle poll.
    expect(bench.time.scheduled()).toEqual([5_000]);
    expect(fs.pendingReads).toEqual(made.map(pathOf));

    bench.time.advance(5_000);
    await until(() => bench.time.scheduled().length === 1 && bench.time.scheduled()[0] === 60_000);
    await outbox.stop();
    expect(fs.pendingReads).toEqual([...made, ...made].map(pathOf));
    expect(await outbox.list()).toEqual([]);
  });

  it('an entry another process wrote while the pass walked is sent at once after it, not at the idle poll', async () => {
    const [first] = await fill();
    const otherProcess = bench.outbox({ send: () => Promise.reject(new Error('not its turn')) });
    let written: OutboxEntry | undefined;
    const sent: string[] = [];
    const sender: ConfirmationSender = {
      send: async (entry) => {
        sent.push(entry.id);
        // Written after the pass listed the folder: the walk does not see it.
        if (entry.id === first!.id) written = await otherProcess.enqueue(firmware('SN-late'));
        return true;
      },
    };
    const outbox = bench.outbox(sender, { idlePollMs: 60_000 });
    outbox.start();
    bench.time.advance(0);
    await until(() => bench.time.scheduled().length === 1);
    expect(bench.time.scheduled()).toEqual([0]);
    expect(sent).toHaveLength(COUNT);

    bench.time.advance(0);
    await until(() => bench.time.scheduled().length === 1 && bench.time.scheduled()[0] === 60_000);
    await outbox.stop();
    expect(sent.at(-1)).toBe(written!.id);
    expect(sent).toHaveLength(COUNT + 1);
    expect(await outbox.list()).toEqual([]);
  });
});

/** Polls without a deadline of its own: the runner's timeout is the only limit (file I/O on a busy machine). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
