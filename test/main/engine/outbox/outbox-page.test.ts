import { cp, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../../../main/cloud/errors';
import {
  NoCredentialsError,
  Outbox,
  type ConfirmationSender,
  type OutboxEntry,
  type OutboxPage,
} from '../../../../main/engine/outbox/outbox';
import { nodeFileSystem, type FileSystem } from '../../../../platform/durable-file';
import { FakeTime } from '../jobs/fake-time';
import { firmware, useOutboxBench } from './outbox-bench';

/**
 * Issue 30: the Outbox screen reads one page of the outbox, not every entry file. A real outbox
 * directory of 300 entries (some rejected by the service), paged through Outbox.page: the pages
 * join up in creation order with nothing missing or repeated, the counts are those of the whole
 * outbox, only the page's files are opened, and a damaged file does not break a page.
 */

const COUNT = 300;
/** Every 25th entry goes to an organization whose service refuses it: rejected, mixed in among the waiting. */
const isRefused = (index: number): boolean => index % 25 === 7;

const bench = useOutboxBench('outbox-page-');

/** Refuses org-2's entries for good; has no credentials for anyone else's, so those wait untouched. */
const sortingSender: ConfirmationSender = {
  send: async (entry) => {
    if (entry.orgId === 'org-2')
      throw new ServiceError(422, [{ code: 'BAD', message: 'no' }], { method: 'POST', path: '/x' });
    throw new NoCredentialsError(entry.serviceUrl, entry.orgId);
  },
};

const made: OutboxEntry[] = [];
/** The outbox of 300 as the fill left it; each test works on a copy of it. */
let filled = '';

beforeAll(async () => {
  filled = await mkdtemp(join(tmpdir(), 'outbox-page-filled-'));
  const time = new FakeTime();
  const outbox = new Outbox({ dir: filled, sender: sortingSender, clock: time.clock, timers: time.timers });
  for (let i = 0; i < COUNT; i += 1) {
    // One second apart, but every tenth one in the same millisecond as the one before: the counter orders those.
    if (i % 10 !== 0) time.advance(1000);
    const confirmation = { ...firmware(`SN${i}`), ...(isRefused(i) ? { orgId: 'org-2' } : {}) };
    made.push(await outbox.enqueue(confirmation));
  }
  await outbox.syncNow({ force: true });
});
afterAll(async () => {
  if (filled) await rm(filled, { recursive: true, force: true });
});
beforeEach(async () => {
  await cp(filled, bench.dir, { recursive: true });
});

/** Every page of `limit` from the first on, following nextCursor. */
async function allPages(limit: number): Promise<OutboxPage[]> {
  const outbox = bench.outbox(sortingSender);
  const pages: OutboxPage[] = [];
  let after: string | null = null;
  for (let guard = 0; guard <= COUNT; guard += 1) {
    const page = await outbox.page({ after, limit });
    pages.push(page);
    if (page.nextCursor === null) return pages;
    after = page.nextCursor;
  }
  throw new Error(`more than ${COUNT} pages of ${limit}: nextCursor never ended`);
}

/** A file system that counts the entry files read. */
function countingFs(): FileSystem & { reads: string[] } {
  const reads: string[] = [];
  return { ...nodeFileSystem, reads, readFile: (path) => (reads.push(path), nodeFileSystem.readFile(path)) };
}

describe(`an outbox of ${COUNT} entries, a page at a time`, () => {
  it('pages join up in creation order, pending and rejected together, nothing missing or repeated', async () => {
    const refused = made.filter((_, i) => isRefused(i)).length;
    expect(await readdir(join(bench.dir, 'rejected'))).toHaveLength(refused);

    const pages = await allPages(64);
    expect(pages.map((p) => p.entries.length)).toEqual([64, 64, 64, 64, COUNT - 4 * 64]);
    expect(pages.map((p) => p.offset)).toEqual([0, 64, 128, 192, 256]);
    expect(pages.flatMap((p) => p.entries.map((e) => e.id))).toEqual(made.map((e) => e.id));
    // Each page ends where the next begins.
    expect(pages.slice(0, -1).map((p) => p.nextCursor)).toEqual(pages.slice(0, -1).map((p) => p.entries.at(-1)!.id));
    const states = pages.flatMap((p) => p.entries.map((e) => e.state));
    expect(states).toEqual(made.map((_, i) => (isRefused(i) ? 'rejected' : 'pending')));

    // Every page carries the counts of the whole outbox.
    for (const page of pages) {
      expect(page.summary).toMatchObject({
        count: COUNT - refused,
        rejected: refused,
        oldestCreatedAt: made[0]!.createdAt,
        quarantined: 0,
      });
      expect(page.total).toBe(COUNT);
    }
    // The same entries, in the same order, as the full listing.
    const listed = await bench.outbox(sortingSender).list();
    expect(listed.map((e) => e.id)).toEqual(made.map((e) => e.id));
  });

  it('a page exactly the size of the outbox is its last; a page past the end is empty', async () => {
    const outbox = bench.outbox(sortingSender);
    const whole = await outbox.page({ limit: COUNT });
    expect(whole.entries).toHaveLength(COUNT);
    expect(whole.nextCursor).toBeNull();
    const short = await outbox.page({ limit: COUNT - 1 });
    expect(short.nextCursor).toBe(made[COUNT - 2]!.id);
    const last = await outbox.page({ after: short.nextCursor, limit: 10 });
    expect(last.entries.map((e) => e.id)).toEqual([made[COUNT - 1]!.id]);
    expect(last).toMatchObject({ offset: COUNT - 1, nextCursor: null });
    const beyond = await outbox.page({ after: made[COUNT - 1]!.id, limit: 10 });
    expect(beyond).toMatchObject({ entries: [], offset: COUNT, nextCursor: null, total: COUNT });
  });

  it('reads only the page’s files, not the whole outbox', async () => {
    const fs = countingFs();
    const page = await bench.outbox(sortingSender, { fs }).page({ after: made[99]!.id, limit: 20 });
    expect(page.entries.map((e) => e.id)).toEqual(made.slice(100, 120).map((e) => e.id));
    // The page's 20 files and the oldest pending one for "waiting since"; not 300.
    expect(fs.reads).toHaveLength(21);
    expect(fs.reads).toContain(join(bench.dir, 'pending', `${made[0]!.id}.json`));
  });

  it('the next page after an entry that has gone meanwhile starts at the entry after it', async () => {
    const outbox = bench.outbox(sortingSender);
    const first = await outbox.page({ limit: 10 });
    // The page's last entry is delivered (its file removed) before the next page is asked for.
    await unlink(join(bench.dir, 'pending', `${first.nextCursor!}.json`));
    const second = await outbox.page({ after: first.nextCursor, limit: 10 });
    expect(second.entries.map((e) => e.id)).toEqual(made.slice(10, 20).map((e) => e.id));
    expect(second.summary.count + second.summary.rejected).toBe(COUNT - 1);
  });

  it('a damaged file in a page is set aside and the page reads on past it; so is a damaged oldest entry', async () => {
    await writeFile(join(bench.dir, 'pending', `${made[0]!.id}.json`), '{"format":"provisioner-outbox/1", "id":');
    await writeFile(join(bench.dir, 'pending', `${made[4]!.id}.json`), Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    const outbox = bench.outbox(sortingSender);
    const page = await outbox.page({ limit: 10 });
    expect(page.entries.map((e) => e.id)).toEqual([...made.slice(1, 4), ...made.slice(5, 12)].map((e) => e.id));
    expect(page.summary).toMatchObject({ oldestCreatedAt: made[1]!.createdAt, quarantined: 2 });
    expect(page.total).toBe(COUNT - 2);
    expect(bench.events.filter((e) => e.type === 'quarantined')).toHaveLength(2);
    // The next page goes on from where this one stopped.
    const next = await outbox.page({ after: page.nextCursor, limit: 10 });
    expect(next.entries[0]!.id).toBe(made[12]!.id);
  });

  it('an empty outbox is one empty page', async () => {
    for (const folder of ['pending', 'rejected'])
      for (const name of await readdir(join(bench.dir, folder))) await unlink(join(bench.dir, folder, name));
    const page = await bench.outbox(sortingSender).page({ limit: 100 });
    expect(page).toEqual({
      entries: [],
      summary: { count: 0, oldestCreatedAt: null, rejected: 0, unreadable: 0, quarantined: 0 },
      total: 0,
      offset: 0,
      nextCursor: null,
    });
  });
});
