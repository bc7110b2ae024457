import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import type { CacheEvent } from '../../../../main/engine/cache/cache-entry';
import { FirmwareCache } from '../../../../main/engine/cache/firmware-cache';
import { FakeTime } from '../jobs/fake-time';

export interface FirmwareCacheBench {
  /** The cache's directory, new for each test. */
  readonly dir: string;
  readonly time: FakeTime;
  /** What every cache made by makeCache reported, in order. */
  readonly events: CacheEvent[];
  /** A cache on `dir` and `time`, as the app makes one; two of them share the directory as two processes would. */
  makeCache(): FirmwareCache;
}

/** A fresh cache directory, clock and event list for each test of the file. */
export function useFirmwareCacheBench(name: string): FirmwareCacheBench {
  let dir = '';
  let time = new FakeTime();
  let events: CacheEvent[] = [];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), `${name}-`));
    time = new FakeTime();
    events = [];
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    get dir() {
      return dir;
    },
    get time() {
      return time;
    },
    get events() {
      return events;
    },
    makeCache() {
      return new FirmwareCache({ dir, now: time.now, onEvent: (e) => events.push(e) });
    },
  };
}
