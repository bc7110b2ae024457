/**
 * Who in this process holds each serial port. Two links open on one port would split the device's
 * bytes between them, and the second open fails anyway on the port's exclusive lock ("Cannot lock
 * port"): the device list's probe of a port and a job that starts on it a moment later did exactly
 * that under load, and the job failed. So a port is taken in turns: a job waits for a probe to let
 * go, and a probe does not wait for a job at all (the list asks again on its next round).
 */

/** What a link does when another link of this process holds its port. */
export type PortInUse = 'wait' | 'fail';

export class PortInUseError extends Error {
  constructor(readonly path: string) {
    super(`${path} is in use by another job or probe of this app.`);
    this.name = 'PortInUseError';
  }
}

const holders = new Map<string, Promise<void>>();

/**
 * Takes the port for the caller and returns the function that gives it back. With 'wait' it waits
 * its turn (until the signal aborts); with 'fail' it throws PortInUseError when the port is held.
 */
export async function takePort(path: string, whenInUse: PortInUse, signal?: AbortSignal): Promise<() => void> {
  for (;;) {
    signal?.throwIfAborted();
    const held = holders.get(path);
    if (held === undefined) break;
    if (whenInUse === 'fail') throw new PortInUseError(path);
    await untilSettledOrAborted(held, signal);
  }
  let giveBack!: () => void;
  const turn = new Promise<void>((resolve) => (giveBack = resolve));
  holders.set(path, turn);
  let given = false;
  return () => {
    if (given) return;
    given = true;
    if (holders.get(path) === turn) holders.delete(path);
    giveBack();
  };
}

function untilSettledOrAborted(turn: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return turn;
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void turn.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
