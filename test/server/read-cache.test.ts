import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../server/cache/read-cache';

/** The rules that keep cached answers true to the database, whichever instance changed it. */
describe('read cache', () => {
  it('keeps answers while the database snapshot stays the same and drops them when it changes', async () => {
    const cache = new ReadCache();
    let loads = 0;
    const load = async () => ++loads;
    cache.observe('100:100:');
    expect(await cache.through('k', load)).toBe(1);
    cache.observe('100:100:');
    expect(await cache.through('k', load)).toBe(1);
    // Any commit on the server (through any instance) moves the snapshot.
    cache.observe('100:101:');
    expect(await cache.through('k', load)).toBe(2);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 2 });
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
    cache.observe('5:5:');
    expect(cache.isCurrent(token)).toBe(false);
  });
});
