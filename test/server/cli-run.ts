import { join } from 'node:path';
import { openDatabase } from '../../server';
import { buildProgram, CliError } from '../../server/cli/program';
import { afterAll, beforeAll } from 'vitest';
import { scratchDir, type ScratchDir } from '../fixtures/scratch';
import { pgliteTemplate } from './harness';

/** What one operator command printed and how it ended. */
export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/** An operator command run in-process through the same commander program as the bin entry (fast). */
export async function runInProcess(args: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const program = buildProgram({
    out: (t) => (out += t),
    err: (t) => (err += t),
    waitForStop: () => new Promise(() => {}),
  });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, out, err };
  } catch (error) {
    if (error instanceof CliError) return { code: 1, out, err: err + error.message };
    if (error instanceof Error && 'exitCode' in error) return { code: Number(error.exitCode) || 1, out, err };
    throw error;
  }
}

/**
 * A service data directory for operator commands: `data`, started from the migrated, seeded schema
 * rather than by initdb, inside a scratch directory of its own (`dir`, for the files a test writes).
 * Made before the block's tests, removed after them.
 */
export function useOperatorDataDir(name: string): { readonly dir: string; readonly data: string } {
  let made: (ScratchDir & { data: string }) | undefined;
  beforeAll(async () => {
    const scratch = await scratchDir(name);
    const data = join(scratch.dir, 'service');
    const db = await openDatabase({ dataDir: data, pgliteTemplate: await pgliteTemplate() });
    await db.close();
    made = { ...scratch, data };
  });
  afterAll(async () => {
    await made?.cleanup();
    made = undefined;
  });
  const opened = () => {
    if (!made) throw new Error(`The operator data directory "${name}" is there only while the tests that use it run.`);
    return made;
  };
  return {
    get dir(): string {
      return opened().dir;
    },
    get data(): string {
      return opened().data;
    },
  };
}
