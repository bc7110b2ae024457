import type { SimulatedDevice } from '../../../simulator';
import { startDevice, type TestDeviceOptions } from '../../fixtures/simulated-device';
import { RawCoapClient } from './raw-client';
import { openUdpTransport, type Transport } from './transports';

export interface UdpSession {
  device: SimulatedDevice;
  client: RawCoapClient;
  transport: Transport;
  close(): Promise<void>;
}

/**
 * A device on a loopback UDP port and a raw client on it, with nothing of the host in between.
 * Reboots and applies are quicker than on a pty: UDP tests wait for many of them.
 */
export async function startUdpSession(dir: string, options: TestDeviceOptions): Promise<UdpSession> {
  const device = await startDevice(dir, {
    link: { udp: { host: '127.0.0.1', port: 0 } },
    rebootMs: 50,
    applyMs: 20,
    ...options,
  });
  const transport = await openUdpTransport('127.0.0.1', device.descriptor.port!);
  return {
    device,
    transport,
    client: new RawCoapClient(transport, { ackTimeoutMs: 200, retries: 6 }),
    async close() {
      await transport.close();
      await device.stop();
    },
  };
}
