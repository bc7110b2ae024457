import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface CliRun {
  child: ChildProcess;
  /** The first `count` stdout lines, parsed as JSON. */
  lines: Promise<Record<string, unknown>[]>;
  stderr: () => string;
  exit: Promise<number | null>;
}

/** Runs `npm run simulator -- ...args` the way npm does it (tsx), without npm in between so signals reach it. */
export function runSimulatorCli(args: string[], count: number, env: NodeJS.ProcessEnv = {}): CliRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'simulator/cli.ts', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const lines = new Promise<Record<string, unknown>[]>((resolve, reject) => {
    const out: Record<string, unknown>[] = [];
    const reader = createInterface({ input: child.stdout! });
    reader.on('line', (line) => {
      out.push(JSON.parse(line) as Record<string, unknown>);
      if (out.length === count) resolve(out);
    });
    void exit.then((code) => reject(new Error(`simulator exited with ${code} after ${out.length} lines:\n${stderr}`)));
  });
  return { child, lines, stderr: () => stderr, exit };
}
