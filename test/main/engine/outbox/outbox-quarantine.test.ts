import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NetworkError, ServiceError } from '../../../../main/cloud/errors';
import type { ConfirmationSender, OutboxEntry } from '../../../../main/engine/outbox/outbox';
import { firmware, useOutboxBench } from './outbox-bench';

const request = { method: 'POST', path: '/x' };

class RecordingSender implements ConfirmationSender {
  readonly sent: string[] = [];
  constructor(private readonly answer: () => Promise<boolean>) {}
  send(entry: OutboxEntry): Promise<boolean> {
    this.sent.push(entry.serialNumber);
    return this.answer();
  }
}

const bench = useOutboxBench('outbox-quarantine-');

describe('outbox: damaged entry files are quarantined, no entry is lost', () => {
  it('starts over garbage, truncated and foreign files: reports them, keeps their bytes, sends every good entry', async () => {
    // Good entries, as an earlier run left them: one the service refused, three waiting (the service was down).
    const refusing = bench.outbox(
      new RecordingSender(async () => {
        throw new ServiceError(422, [{ code: 'BAD', message: 'no' }], request);
      }),
    );
    const refused = await refusing.enqueue(firmware('SN4'));
    await refusing.syncNow({ force: true });
    expect((await readdir(join(bench.dir, 'rejected'))).length).toBe(1);
    const earlier = bench.outbox(
      new RecordingSender(async () => {
        throw new NetworkError('unreachable', request);
      }),
    );
    const waiting = [
      await earlier.enqueue(firmware('SN1')),
      await earlier.enqueue(firmware('SN2')),
      await earlier.enqueue(firmware('SN3')),
    ];
    await earlier.syncNow({ force: true });

    // Then the disk: garbage, a torn copy of a real entry, a JSON file that is no entry, and one a
    // newer version of the app wrote.
    const goodText = await readFile(join(bench.dir, 'pending', `${waiting[0]!.id}.json`), 'utf8');
    const damaged: Record<string, Buffer> = {
      'garbage.json': Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x7b]),
      'torn.json': Buffer.from(goodText.slice(0, goodText.length >> 1)),
      'not-an-entry.json': Buffer.from(JSON.stringify({ format: 'provisioner-outbox/1', id: 'x' })),
    };
    for (const [name, bytes] of Object.entries(damaged)) await writeFile(join(bench.dir, 'pending', name), bytes);
    await writeFile(join(bench.dir, 'rejected', 'garbage-rejected.json'), '{"format":"provisioner-outbox/1",');
    const newer = JSON.stringify({ ...JSON.parse(goodText), format: 'provisioner-outbox/2', id: 'future' });
    await writeFile(join(bench.dir, 'pending', 'future.json'), newer);

    const sender = new RecordingSender(async () => true);
    const outbox = bench.outbox(sender);
    const report = await outbox.syncNow({ force: true });

    // Every good pending entry was sent; the refused one is still there for a person.
    expect(sender.sent.sort()).toEqual(['SN1', 'SN2', 'SN3']);
    expect(report.delivered.sort()).toEqual(waiting.map((e) => e.id).sort());
    expect((await outbox.list()).map((e) => e.id)).toEqual([refused.id]);

    // Each damaged file reported once and kept, byte for byte, in quarantine/.
    const reported = bench.events.flatMap((e) => (e.type === 'quarantined' ? [e.file] : []));
    expect(reported.map((f) => basename(f.from)).sort()).toEqual([
      'garbage-rejected.json',
      'garbage.json',
      'not-an-entry.json',
      'torn.json',
    ]);
    expect(reported.find((f) => basename(f.from) === 'torn.json')?.reason).toMatch(/^not JSON/);
    expect(reported.find((f) => basename(f.from) === 'not-an-entry.json')?.reason).toMatch(/^not an outbox entry/);
    for (const file of reported) {
      const original = damaged[basename(file.from)] ?? Buffer.from('{"format":"provisioner-outbox/1",');
      expect((await readFile(file.path)).equals(original)).toBe(true);
      expect(file.path.startsWith(join(bench.dir, 'quarantine'))).toBe(true);
    }
    expect(await outbox.quarantined()).toHaveLength(4);

    // The newer version's entry is not damaged: left in place for that version to send.
    expect(await readdir(join(bench.dir, 'pending'))).toEqual(['future.json']);
    expect(await readFile(join(bench.dir, 'pending', 'future.json'), 'utf8')).toBe(newer);
    expect(await outbox.pending()).toMatchObject({ count: 0, rejected: 1, unreadable: 1, quarantined: 4 });

    // A second start finds nothing new to set aside: no crash loop, nothing reported twice.
    bench.events = [];
    const again = bench.outbox(new RecordingSender(async () => true));
    await again.syncNow({ force: true });
    expect(bench.events.filter((e) => e.type === 'quarantined')).toEqual([]);
    expect(await again.quarantined()).toHaveLength(4);
  });

  it('the background loop keeps running over a damaged file', async () => {
    const sender = new RecordingSender(async () => true);
    const outbox = bench.outbox(sender);
    outbox.start();
    await outbox.enqueue(firmware('SN9'));
    // Named as an id made before SN9's: the sending pass walks the names in order and meets it first.
    await writeFile(join(bench.dir, 'pending', '000000000-0000-empty.json'), '');
    bench.time.advance(0);
    await until(() => sender.sent.length === 1);
    await outbox.stop();
    expect(sender.sent).toEqual(['SN9']);
    expect(await outbox.quarantined()).toHaveLength(1);
  });
});

/** Polls without a deadline of its own: the runner's timeout is the only limit (file I/O on a busy machine). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 1));
}
