import { createConnection, createServer, type Server } from 'node:net';
import { mkdir, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * A simulated device's control socket: what a person does to the device with their hands, done by
 * a test or a script. One JSON command per line, one JSON answer per line:
 * `{"command":"press-estop"}` → `{"ok":true,"presses":1}`. Only on the machine running the
 * simulator (a Unix socket, 0600 by the umask of its directory); never over the device protocol,
 * so a host cannot press an E-stop it is testing.
 */

export type ControlCommand = { command: 'press-estop' };
export type ControlAnswer = { ok: true; presses: number } | { ok: false; error: string };

export interface ControlHandlers {
  pressEstop(): Promise<number>;
}

export class ControlSocket {
  private constructor(
    readonly path: string,
    private readonly server: Server,
  ) {}

  static async listen(path: string, handlers: ControlHandlers): Promise<ControlSocket> {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await unlink(path).catch(() => undefined);
    const server = createServer((socket) => {
      let pending = '';
      socket.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        let end: number;
        while ((end = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, end);
          pending = pending.slice(end + 1);
          void answer(line, handlers).then((reply) => socket.write(`${JSON.stringify(reply)}\n`));
        }
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    return new ControlSocket(path, server);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
    await unlink(this.path).catch(() => undefined);
  }
}

async function answer(line: string, handlers: ControlHandlers): Promise<ControlAnswer> {
  let command: Partial<ControlCommand>;
  try {
    command = JSON.parse(line) as Partial<ControlCommand>;
  } catch {
    return { ok: false, error: 'Send one JSON object per line, e.g. {"command":"press-estop"}.' };
  }
  if (command.command === 'press-estop') return { ok: true, presses: await handlers.pressEstop() };
  return { ok: false, error: `Unknown command ${JSON.stringify(command.command)}; the device takes "press-estop".` };
}

/** Sends one command to a device's control socket and returns its answer. */
export function sendControlCommand(path: string, command: ControlCommand, timeoutMs = 5_000): Promise<ControlAnswer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let pending = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`The simulated device's control socket ${path} did not answer within ${timeoutMs} ms.`));
    }, timeoutMs);
    socket.on('connect', () => socket.write(`${JSON.stringify(command)}\n`));
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const end = pending.indexOf('\n');
      if (end < 0) return;
      clearTimeout(timer);
      socket.end();
      resolve(JSON.parse(pending.slice(0, end)) as ControlAnswer);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`Cannot reach the simulated device's control socket ${path}: ${error.message}`));
    });
  });
}
