import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Every socat we started, so an exiting simulator never leaves a pty pair behind. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGTERM');
  });
}

export interface PtyPair {
  readonly pid: number;
  /** Resolves when socat has exited (its symlinks are gone then). */
  readonly exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * A pty pair from socat: the host opens `hostPath`, the device end is `devicePath`. Killing socat
 * closes both ends, which the host sees as the device being unplugged; starting it again with the
 * same links makes the device reappear at the same path.
 */
export async function startPtyPair(hostPath: string, devicePath: string): Promise<PtyPair> {
  installExitHook();
  await mkdir(dirname(hostPath), { recursive: true });
  await mkdir(dirname(devicePath), { recursive: true });
  // A previous simulator killed with SIGKILL leaves its links behind; socat would refuse them.
  await Promise.all([unlink(hostPath).catch(() => undefined), unlink(devicePath).catch(() => undefined)]);
  const child = spawn('socat', ['-d', '-d', `pty,raw,echo=0,link=${hostPath}`, `pty,raw,echo=0,link=${devicePath}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      // Both links exist once socat enters its transfer loop.
      if (log.includes('starting data transfer loop')) {
        child.stderr?.off('data', onData);
        child.stderr?.resume();
        resolve();
      }
    };
    child.stderr?.on('data', onData);
    child.once('error', (error) => reject(new Error(`Cannot start socat (is it installed?): ${error.message}`)));
    void exited.then(() => reject(new Error(`socat exited before the pty pair was ready:\n${log}`)));
  });
  return {
    pid: child.pid!,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
