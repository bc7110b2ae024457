import { describe, expect, it } from 'vitest';
import { CODE } from '../../main/devices/coap';
import { encodeFrame } from '../../protocol/framing';
import { createSimulatedBleBindings } from '../../simulator';
import { announcement, useScratchDir, testImage, uniqueSerial } from './helpers/fixtures';
import { connectTransport, nobleWith, scanFor } from './helpers/noble';
import { RawCoapClient } from './helpers/raw-client';
import { startSerialSession } from './helpers/serial-session';
import { openUdpTransport, type Transport } from './helpers/transports';
import { startDevice } from '../fixtures/simulated-device';

const scratch = useScratchDir('pacing');

/** Counts the bytes the host puts on the wire (whole frames, as the wire model charges them). */
function countFrameBytes(transport: Transport): { bytes: number } {
  const counter = { bytes: 0 };
  const send = transport.send.bind(transport);
  transport.send = (message) => {
    counter.bytes += encodeFrame(message).length;
    send(message);
  };
  return counter;
}

async function timedSerialUpload(baudRate: number, size: number): Promise<{ seconds: number; modelSeconds: number }> {
  const session = await startSerialSession(scratch.dir, {
    serialNumber: uniqueSerial('NSCP'),
    deviceType: 'NSCP',
    baudRate,
  });
  try {
    const image = testImage('NSCP', '8.0.0', size);
    await session.client.postCbor('fw', announcement(image));
    const counter = countFrameBytes(session.transport);
    const started = performance.now();
    const { final } = await session.client.uploadBlock1('fw/data', image.image, { window: 4 });
    const seconds = (performance.now() - started) / 1000;
    expect(final.code).toBe(CODE.CHANGED);
    return { seconds, modelSeconds: (counter.bytes * 10) / baudRate };
  } finally {
    await session.close();
  }
}

describe('wire pacing', () => {
  it('paces a pty at the baud rate: never faster than the line, and 921600 much faster than 115200', async () => {
    const slow = await timedSerialUpload(115200, 48 * 1024);
    const fast = await timedSerialUpload(921600, 48 * 1024);
    // The device cannot receive faster than the wire carries bytes.
    expect(slow.seconds / slow.modelSeconds).toBeGreaterThanOrEqual(0.95);
    expect(fast.seconds / fast.modelSeconds).toBeGreaterThanOrEqual(0.95);
    // At 115200 the line dominates: measured close to the model (bounds loose for busy machines).
    expect(slow.seconds / slow.modelSeconds).toBeLessThan(2);
    // Eight times the baud: at least three times faster, measured in the same run.
    expect(slow.seconds / fast.seconds).toBeGreaterThan(3);
  });

  it('paces BLE per packet: one MTU - 3 write per slot of the connection interval', async () => {
    const serialNumber = uniqueSerial('SRCP');
    const device = await startDevice(scratch.dir, {
      serialNumber,
      deviceType: 'SRCP',
      link: 'ble',
      ble: { mtu: 23, connectionIntervalMs: 15, packetsPerInterval: 4 },
      rebootMs: 500,
      applyMs: 300,
    });
    try {
      const noble = nobleWith(createSimulatedBleBindings([device]));
      const transport = await connectTransport(await scanFor(noble, `SRCP-${serialNumber}`));
      const client = new RawCoapClient(transport);
      const image = testImage('SRCP', '8.1.0', 6000);
      await client.postCbor('fw', announcement(image));
      const writesBefore = transport.writes.length;
      const started = performance.now();
      const { final } = await client.uploadBlock1('fw/data', image.image, { blockSize: 512, window: 4 });
      const seconds = (performance.now() - started) / 1000;
      expect(final.code).toBe(CODE.CHANGED);
      const packets = transport.writes.length - writesBefore;
      const modelSeconds = packets * (0.015 / 4);
      expect(seconds / modelSeconds).toBeGreaterThanOrEqual(0.95);
      expect(seconds / modelSeconds).toBeLessThan(3);
      await transport.close();
    } finally {
      await device.stop();
    }
  });

  it('paces UDP at its configured rate', async () => {
    const serialNumber = uniqueSerial('EPC');
    const device = await startDevice(scratch.dir, {
      serialNumber,
      link: { udp: { host: '127.0.0.1', port: 0 } },
      udp: { bytesPerSecond: 50_000, latencyMs: 1 },
      rebootMs: 500,
      applyMs: 300,
    });
    const transport = await openUdpTransport('127.0.0.1', device.descriptor.port!);
    try {
      const client = new RawCoapClient(transport);
      const image = testImage('EPC', '8.2.0', 30_000);
      await client.postCbor('fw', announcement(image));
      let bytes = 0;
      const send = transport.send.bind(transport);
      transport.send = (message) => {
        bytes += message.length;
        send(message);
      };
      const started = performance.now();
      await client.uploadBlock1('fw/data', image.image);
      const seconds = (performance.now() - started) / 1000;
      expect(seconds / (bytes / 50_000)).toBeGreaterThanOrEqual(0.95);
    } finally {
      await transport.close();
      await device.stop();
    }
  });
});
