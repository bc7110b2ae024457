import { spawn } from 'node:child_process';

/**
 * Runs a child with this terminal's stdio and resolves with its exit code. SIGINT and SIGTERM sent
 * to `npm start` alone (a supervisor, `kill`) are passed on, so the child is never left running
 * behind it; Ctrl-C in a terminal reaches the child directly too, and a second signal changes nothing.
 */
export function runInherited(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => () => {
      child.kill(signal);
    };
    const onTerm = forward('SIGTERM');
    const onInt = forward('SIGINT');
    process.on('SIGTERM', onTerm);
    process.on('SIGINT', onInt);
    const done = (code: number) => {
      process.off('SIGTERM', onTerm);
      process.off('SIGINT', onInt);
      resolve(code);
    };
    child.on('error', (err) => {
      console.error(`Could not start ${command}: ${err.message}`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 + signalNumber(signal) : 1)));
  });
}

function signalNumber(signal: NodeJS.Signals): number {
  return signal === 'SIGINT' ? 2 : signal === 'SIGKILL' ? 9 : 15;
}
