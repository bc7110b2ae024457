import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../server';
import { instanceHeapMiB } from '../../bench/soak-procs';

/**
 * The soak bench reads the service instance's heap from its /metrics (bench/soak-procs.ts): a real
 * embedded service, with the process metrics `serve` turns on, and one without them.
 */
describe("the soak's reading of an instance's heap", () => {
  let withProcess: RunningService;
  let without: RunningService;

  beforeAll(async () => {
    withProcess = await startService({ port: 0, host: '127.0.0.1', metrics: { processMetrics: true } });
    without = await startService({ db: withProcess.db, port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await without?.close();
    await withProcess?.close();
  });

  it('reads the old space, the young generation, the whole heap and the external memory in MiB', async () => {
    const heap = await instanceHeapMiB(withProcess.url);
    expect(heap.heapOld).toBeGreaterThan(1);
    expect(heap.heapNew).toBeGreaterThanOrEqual(0);
    expect(heap.external).toBeGreaterThan(0);
    // The whole is the sum of every space's, old and young among them.
    expect(heap.heapUsed).toBeGreaterThanOrEqual(heap.heapOld! + heap.heapNew!);
    // In MiB, not bytes: this test's own process holds far less than a tebibyte.
    expect(heap.heapUsed).toBeLessThan(1024 * 1024);
  });

  it('says nothing (null) of an instance without process metrics, or of one that does not answer', async () => {
    const none = { heapNew: null, heapOld: null, heapUsed: null, external: null };
    expect(await instanceHeapMiB(without.url)).toEqual(none);
    expect(await instanceHeapMiB('http://127.0.0.1:9')).toEqual(none);
  });
});
