import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../server/cache/read-cache';
import { noteStatement } from '../../server/db/tables';

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

/** Answers read from tables as the database layer reports them (server/db/tables.ts). */
describe('read cache, by table', () => {
  const reading = (tables: string[], value: string) => async () => {
    for (const table of tables) noteStatement(`SELECT * FROM ${table}`);
    return value;
  };

  it('drops only the answers read from a table that a commit wrote', async () => {
    const cache = new ReadCache();
    await cache.through('configuration', reading(['configurations', 'configuration_devices'], 'c1'));
    await cache.through('devices', reading(['devices', 'sync_ids'], 'd1'));
    // A confirmation: it writes devices and confirmations.
    cache.changed(new Set(['devices', 'confirmations']));
    expect(await cache.through('configuration', reading(['configurations'], 'c2'))).toBe('c1');
    expect(await cache.through('devices', reading(['devices'], 'd2'))).toBe('d2');
    // A change that names no known table, or an operator's bare NOTIFY: everything goes.
    cache.changed();
    expect(await cache.through('configuration', reading(['configurations'], 'c3'))).toBe('c3');
  });

  it('counts a cached answer used inside another cached read as read by it', async () => {
    const cache = new ReadCache();
    const inner = () => cache.through('stored', reading(['configurations'], 'stored'));
    await inner();
    // The outer load finds the inner answer in memory: no statement runs, yet it depends on configurations.
    await cache.through('status', async () => `status of ${await inner()}`);
    cache.changed(new Set(['configurations']));
    expect(cache.size).toBe(0);
  });

  it('does not keep an answer whose table changed while it was read, but keeps one whose tables did not', async () => {
    const cache = new ReadCache();
    let releaseA!: () => void;
    let releaseB!: () => void;
    const slowA = cache.through('a', async () => {
      noteStatement('SELECT * FROM devices');
      await new Promise<void>((resolve) => (releaseA = resolve));
      return 'a';
    });
    const slowB = cache.through('b', async () => {
      noteStatement('SELECT * FROM configurations');
      await new Promise<void>((resolve) => (releaseB = resolve));
      return 'b';
    });
    cache.changed(new Set(['devices']));
    releaseA();
    releaseB();
    await Promise.all([slowA, slowB]);
    expect(await cache.through('a', async () => 'a again')).toBe('a again');
    expect(await cache.through('b', async () => 'b again')).toBe('b');
  });

  it('lets concurrent misses of one key share one load, but not across a change', async () => {
    const cache = new ReadCache();
    let loads = 0;
    let release!: () => void;
    const load = async () => {
      const number = ++loads;
      noteStatement('SELECT * FROM configurations');
      await new Promise<void>((resolve) => (release = resolve));
      return number;
    };
    const first = cache.through('k', load);
    const second = cache.through('k', load);
    expect(loads).toBe(1);
    const releaseFirst = release;
    // A change heard while the load runs: a request that comes now must not get what it reads.
    cache.changed(new Set(['devices']));
    const third = cache.through('k', load);
    expect(loads).toBe(2);
    releaseFirst();
    release();
    expect(await Promise.all([first, second, third])).toEqual([1, 1, 2]);
  });
});
