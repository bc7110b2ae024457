import { buildProgram, CliError } from '../../server/cli/program';

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
  const program = buildProgram({ out: (t) => (out += t), err: (t) => (err += t), waitForStop: () => new Promise(() => {}) });
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, out, err };
  } catch (error) {
    if (error instanceof CliError) return { code: 1, out, err: err + error.message };
    if (error instanceof Error && 'exitCode' in error) return { code: Number(error.exitCode) || 1, out, err };
    throw error;
  }
}
