import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { CHANGES_CHANNEL, ChangeFeed } from '../../../server/db/change-feed';

/**
 * Another instance's commit that completed before a request must be heard before the request
 * reads what this instance holds: the writer's answer can reach the client, and the client's next
 * request this instance, before this process has read the notification waiting on its socket.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('catching up with the other instances on PostgreSQL', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const feed = new ChangeFeed(url);
  const writer = new pg.Client({ connectionString: url });
  afterAll(async () => {
    await feed.close();
    await writer.end().catch(() => undefined);
  });

  it('has heard every commit that completed before the call, every time', async () => {
    let heard = 0;
    let listening = false;
    const watch = await feed.watch({ changed: () => (heard += 1), listening: (on) => (listening = on) });
    expect(listening).toBe(true);
    await writer.connect();
    for (let i = 1; i <= 40; i++) {
      // As another instance commits: the NOTIFY is delivered at its COMMIT, before its answer.
      await writer.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `other:${i}:data:devices`]);
      expect(await watch.caughtUp()).toBe(true);
      expect(heard).toBeGreaterThanOrEqual(i);
    }
  });

  it('answers the catch-ups that arrive while a query waits to be sent with that one query', async () => {
    const watch = await feed.watch({ changed: () => undefined, listening: () => undefined });
    await writer.query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, 'other:shared:data:devices']);
    const before = { ...watch.catchUps };
    // Requests that came in one turn of the event loop: the first sends a query, the others share it.
    const answers = await Promise.all(Array.from({ length: 20 }, () => watch.caughtUp()));
    expect(answers.every(Boolean)).toBe(true);
    expect([watch.catchUps.requests - before.requests, watch.catchUps.queries - before.queries]).toEqual([20, 1]);
    // One that comes after that query left may not share it: the query may have left before the commit it must cover.
    expect(await watch.caughtUp()).toBe(true);
    expect(watch.catchUps.queries - before.queries).toBe(2);
  });

  it('says it cannot know once it no longer listens', async () => {
    await feed.close();
    expect(await feed.caughtUp()).toBe(false);
  });
});
