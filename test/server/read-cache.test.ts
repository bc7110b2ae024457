import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../server/cache/read-cache';

/** The rules that keep cached answers true to the database, whichever instance changed it. */
describe('read cache', () => {
  it('keeps answers until a change is heard, and nothing while changes cannot be heard', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.through('k', load)).toBe(1);
    expect(await cache.through('k', load)).toBe(1);
    // A commit anywhere (this instance, or another one announcing it) drops everything.
    cache.clear();
    expect(await cache.through('k', load)).toBe(2);
    // The connection that hears the others is down: every read goes to the database.
    cache.suspend();
    expect(await cache.through('k', load)).toBe(3);
    expect(await cache.through('k', load)).toBe(4);
    expect(cache.size).toBe(0);
    cache.resume();
    expect(await cache.through('k', load)).toBe(5);
    expect(await cache.through('k', load)).toBe(5);
    expect(cache.stats).toMatchObject({ hits: 2, misses: 5 });
  });

  it('does not keep what a read loaded while a change committed', async () => {
    const cache = new ReadCache();
    let release!: (value: string) => void;
    const slow = cache.through('k', () => new Promise<string>((resolve) => (release = resolve)));
    // A write commits through this instance (or another request sees a newer snapshot) meanwhile.
    cache.clear();
    release('read before the change');
    expect(await slow).toBe('read before the change');
    expect(cache.size).toBe(0);
    expect(await cache.through('k', async () => 'fresh')).toBe('fresh');
  });

  it('tells whether a token is still current (a key found then may be used)', () => {
    const cache = new ReadCache();
    const token = cache.begin();
    expect(cache.isCurrent(token)).toBe(true);
    cache.suspend();
    expect(cache.isCurrent(token)).toBe(false);
    expect(cache.isCurrent(cache.begin())).toBe(false);
  });
});
