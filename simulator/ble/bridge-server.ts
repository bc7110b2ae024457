import { mkdir, unlink } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import type { SimulatedDevice } from '../simulated-device';
import { createSimulatedBleBindings, type SimulatedBleBindings } from './bindings';
import {
  BINDINGS_EVENTS,
  BINDINGS_METHODS,
  decodeValue,
  encodeValue,
  lineReader,
  type BridgeCall,
} from './bridge-codec';

export interface BleBridge {
  /** The Unix socket path another process passes to connectSimulatedBleBindings(). */
  readonly endpoint: string;
  close(): Promise<void>;
}

/**
 * Serves this process's simulated BLE peripherals to hosts in other processes (the app, the CLI,
 * e2e tests): each connection is one central with its own simulated bindings, its calls and events
 * carried as JSON lines. Without it, `--link ble` devices of the CLI would be unreachable.
 */
export async function serveSimulatedBle(endpoint: string, devices?: readonly SimulatedDevice[]): Promise<BleBridge> {
  await mkdir(dirname(endpoint), { recursive: true });
  await unlink(endpoint).catch(() => undefined);
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    const bindings: SimulatedBleBindings = createSimulatedBleBindings(devices);
    for (const event of BINDINGS_EVENTS) {
      bindings.on(event, (...args: unknown[]) => {
        if (!socket.destroyed) socket.write(`${JSON.stringify({ event, args: encodeValue(args) })}\n`);
      });
    }
    socket.on(
      'data',
      lineReader((value) => {
        const { call, args } = value as BridgeCall;
        if (!(BINDINGS_METHODS as readonly string[]).includes(call)) return;
        const method = (bindings as unknown as Record<string, (...a: unknown[]) => void>)[call]!;
        method.apply(bindings, decodeValue(args) as unknown[]);
      }),
    );
    const release = () => {
      sockets.delete(socket);
      // The central went away: its connections end as a host's would on exit.
      bindings.releaseAll();
      bindings.removeAllListeners();
    };
    socket.on('close', release);
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint, () => resolve());
  });
  return {
    endpoint,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await unlink(endpoint).catch(() => undefined);
    },
  };
}
