import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** A `serve` child process and the URL it said it listens on. */
export interface Serving {
  child: ChildProcess;
  url: string;
  stderr: () => string;
}

/**
 * `node bin/provisioner-service.mjs ARGS…` (the bin entry, as an operator starts it), from the
 * repository: `started` once it printed `listening on URL` (rejected if it exits first), `exited`
 * with its exit code.
 */
export function startServe(
  args: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): { started: Promise<Serving>; exited: Promise<number | null>; child: ChildProcess } {
  const child = spawn(process.execPath, ['bin/provisioner-service.mjs', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = new Promise<Serving>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /^listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(stdout);
      if (match) resolve({ child, url: match[1]!, stderr: () => stderr });
    });
    void exited.then((code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
  started.catch(() => undefined);
  return { started, exited, child };
}
