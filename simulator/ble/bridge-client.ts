import { EventEmitter } from 'node:events';
import { connect, type Socket } from 'node:net';
import { BINDINGS_METHODS, decodeValue, encodeValue, lineReader, type BridgeEvent } from './bridge-codec';

/**
 * Noble bindings that reach the simulated peripherals of another process (a simulator started
 * with `npm run simulator -- --link ble`, whose JSON line names the endpoint):
 * `require('@abandonware/noble/with-bindings')(connectSimulatedBleBindings(endpoint))`.
 * Calls made before the socket is up are queued; if it cannot connect, the adapter reports
 * 'poweredOff', as a computer without a Bluetooth adapter would. The open socket keeps the host
 * process alive until close().
 */
export type RemoteBleBindings = EventEmitter &
  Record<(typeof BINDINGS_METHODS)[number], (...args: unknown[]) => void> & {
    /** Ends the connection to the simulator (noble has no such call; the host makes it on shutdown). */
    close(): void;
  };

export function connectSimulatedBleBindings(endpoint: string): RemoteBleBindings {
  const emitter = new EventEmitter();
  const queue: string[] = [];
  let socket: Socket | undefined;
  let connected = false;
  const open = () => {
    socket = connect(endpoint);
    socket.on('connect', () => {
      connected = true;
      for (const line of queue.splice(0)) socket!.write(line);
    });
    socket.on(
      'data',
      lineReader((value) => {
        const { event, args } = value as BridgeEvent;
        emitter.emit(event, ...(decodeValue(args) as unknown[]));
      }),
    );
    socket.on('error', () => {
      if (!connected) emitter.emit('stateChange', 'poweredOff');
    });
    // Ends with the simulator: later calls go nowhere, as on an adapter that was pulled.
    socket.on('close', () => (connected = false));
  };
  const methods = Object.fromEntries(
    BINDINGS_METHODS.map((name) => [
      name,
      (...args: unknown[]) => {
        if (socket === undefined) open();
        const line = `${JSON.stringify({ call: name, args: encodeValue(args) })}\n`;
        if (connected) socket!.write(line);
        else queue.push(line);
      },
    ]),
  );
  const close = () => {
    socket?.destroy();
    socket = undefined;
    connected = false;
  };
  return Object.assign(emitter, methods, { close }) as unknown as RemoteBleBindings;
}
