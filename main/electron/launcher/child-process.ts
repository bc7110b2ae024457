import { spawn } from 'node:child_process';

/**
 * Runs a child with this terminal's stdio and resolves with its exit code. Ctrl-C reaches the
 * child through the terminal's process group; SIGTERM (e.g. from a supervisor) is passed on, so
 * the child is never left running behind `npm start`.
 */
export function runInherited(command: string, args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: 'inherit' });
    const forward = (signal: NodeJS.Signals) => () => {
      child.kill(signal);
    };
    const onTerm = forward('SIGTERM');
    const onInt = () => {
      // the child got it from the terminal too; stay alive until it has exited
    };
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
