/**
 * `serve` runs with a bounded heap unless the operator's NODE_OPTIONS sets it (scripts/service-heap.mjs;
 * docs/decisions.md, "The service runs with a bounded heap"). Read where it counts: the heap limit
 * the started process reports on its /metrics, against a Node started with the same flags.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runsServe, SERVICE_HEAP_FLAGS, serviceHeapArgs } from '../../scripts/service-heap.mjs';
import { useOperatorDataDir } from './cli-run';
import { startServe } from './helpers/serve-process';

/** The heap limit, in bytes, of a Node started with `flags` on its command line. */
function heapLimitOfNodeWith(flags: readonly string[]): number {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const run = spawnSync(
    process.execPath,
    [...flags, '-e', "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))"],
    { encoding: 'utf8', env },
  );
  expect(run.status, run.stderr).toBe(0);
  return Number(run.stdout);
}

/** Starts `bin/provisioner-service.mjs serve` with `nodeOptions` (none: no NODE_OPTIONS at all), reads its heap limit from /metrics, stops it. */
async function heapLimitOfServe(data: string, nodeOptions: string | undefined): Promise<number> {
  const { NODE_OPTIONS: _ignored, ...env } = process.env;
  const { started, exited, child } = startServe(
    ['serve', '--port', '0', '--data', data],
    nodeOptions === undefined ? env : { ...env, NODE_OPTIONS: nodeOptions },
  );
  try {
    const { url } = await started;
    const metrics = await fetch(`${url}/metrics`).then((answer) => answer.text());
    const match = /^provisioner_heap_size_limit_bytes (\d+)$/m.exec(metrics);
    expect(match, 'provisioner_heap_size_limit_bytes on /metrics').not.toBeNull();
    return Number(match![1]);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

describe('the heap flags serve is started with', () => {
  it('are both flags when the operator sets neither', () => {
    expect(serviceHeapArgs(undefined)).toEqual([...SERVICE_HEAP_FLAGS]);
    expect(serviceHeapArgs('--enable-source-maps')).toEqual([...SERVICE_HEAP_FLAGS]);
  });

  it('leave out a flag the operator sets, in either spelling V8 takes', () => {
    expect(serviceHeapArgs('--max-old-space-size=2048')).toEqual(['--max-semi-space-size=16']);
    expect(serviceHeapArgs('--enable-source-maps --max_semi_space_size=32')).toEqual(['--max-old-space-size=1024']);
    expect(serviceHeapArgs('--max-semi-space-size 32 --max-old-space-size 2048')).toEqual([]);
  });

  it('are none when the operator sizes the whole heap with --max-heap-size (our flags would take precedence over it)', () => {
    expect(serviceHeapArgs('--max-heap-size=300')).toEqual([]);
  });

  it('go to serve only, found after the options that come before the command', () => {
    expect(runsServe(['serve', '--port', '0'])).toBe(true);
    expect(runsServe(['--data', '/srv/data', 'serve'])).toBe(true);
    expect(runsServe(['--database-url=postgres://db/x', 'serve'])).toBe(true);
    expect(runsServe(['--data', 'serve', 'migrate'])).toBe(false);
    expect(runsServe(['key', 'create', '--name', 'serve'])).toBe(false);
    expect(runsServe([])).toBe(false);
  });
});

describe.skipIf(process.platform !== 'linux')('serve, started as an operator starts it', () => {
  const operator = useOperatorDataDir('serve-heap');

  it('runs with the bounded heap, not Node’s default', async () => {
    const bounded = heapLimitOfNodeWith(SERVICE_HEAP_FLAGS);
    expect(bounded).toBeLessThan(heapLimitOfNodeWith([]));
    expect(await heapLimitOfServe(operator.data, undefined)).toBe(bounded);
  });

  it('runs with the operator’s size when NODE_OPTIONS names one, and ours for the other', async () => {
    const theirs = heapLimitOfNodeWith(['--max-semi-space-size=16', '--max-old-space-size=2048']);
    expect(theirs).not.toBe(heapLimitOfNodeWith(SERVICE_HEAP_FLAGS));
    expect(await heapLimitOfServe(operator.data, '--max-old-space-size=2048')).toBe(theirs);
  });
});
