import type { SimulatedDevice } from '../../../simulator';
import { startDevice, type TestDeviceOptions } from '../../fixtures/simulated-device';
import { RawCoapClient } from './raw-client';
import { openSerialTransport, type Transport } from './transports';

export interface SerialSession {
  device: SimulatedDevice;
  client: RawCoapClient;
  transport: Transport;
  path: string;
  /** Waits for the port to close (the device went away) and opens it again once it is back. */
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

/** A device on a pty and a raw client on the host end. */
export async function startSerialSession(
  dir: string,
  options: TestDeviceOptions,
  clientOptions?: { ackTimeoutMs: number; retries: number },
): Promise<SerialSession> {
  const device = await startDevice(dir, options);
  const path = device.descriptor.path!;
  const session: SerialSession = {
    device,
    path,
    transport: await openSerialTransport(path),
    client: undefined as unknown as RawCoapClient,
    async reconnect() {
      // The host end notices the unplug through a read error; when serialport has not reported it
      // yet (it may not: the pty went away between two reads), close it as a host would.
      if (session.transport.isOpen) {
        const closed = new Promise<void>((resolve) => session.transport.onClose(resolve));
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1000))]);
        await session.transport.close();
      }
      session.transport = await openSerialTransport(path);
      session.client.replaceTransport(session.transport);
    },
    async close() {
      await session.transport.close();
      await device.stop();
    },
  };
  session.client = new RawCoapClient(session.transport, clientOptions);
  return session;
}
