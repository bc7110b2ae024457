import { afterAll, beforeAll } from 'vitest';
import { startEnv, type Backend, type TestEnv } from '../harness';

/**
 * The service a test file's block runs against: one per block, started on `backend` before its
 * tests (before the block's own beforeAll hooks, which run after this one in the order declared)
 * and closed after them, database included.
 *
 * The object returned is filled in when the block starts: use it in hooks and tests, not while the
 * block is being declared.
 */
export function serviceForTests(backend: Backend): TestEnv {
  const env = {} as TestEnv;
  let started: TestEnv | undefined;
  beforeAll(async () => {
    started = await startEnv(backend);
    Object.assign(env, started);
  });
  afterAll(async () => {
    await started?.close();
  });
  return env;
}
