import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverByMulticast, findDevices, LiveDeviceList } from '../../../main/devices/discovery';
import { CODE, decodeMessage, encodeMessage, uriPathOf } from '../../../protocol/coap';
import type { SimulatedDevice } from '../../../simulator';
import { scratchDir, startDevice, uniqueSerial } from './helpers/simulated';

// Multicast stays on loopback with a hop limit of 1 (multicast.ts, simulator/links/udp.ts), on a
// port of this test's own, so that no other test's simulators answer and nothing leaves the computer.
const GROUP = '224.0.1.187';

let scratch: Awaited<ReturnType<typeof scratchDir>>;
let port: number;
const devices: SimulatedDevice[] = [];

/** A free UDP port: the group's port for this file. */
async function freePort(): Promise<number> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const free = socket.address().port;
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return free;
}

beforeAll(async () => {
  scratch = await scratchDir('multicast');
  port = await freePort();
  // The simulator joins the group on the port $PROVISIONER_DISCOVERY_PORT names.
  process.env.PROVISIONER_DISCOVERY_PORT = String(port);
  for (const deviceType of ['EPC', 'SRCP'] as const) {
    devices.push(
      await startDevice(scratch.dir, {
        deviceType,
        serialNumber: uniqueSerial(deviceType),
        link: { udp: { host: '127.0.0.1', port: 0 } },
      }),
    );
  }
});

afterAll(async () => {
  delete process.env.PROVISIONER_DISCOVERY_PORT;
  for (const device of devices) await device.stop();
  await scratch?.cleanup();
});

const multicast = () => ({ port, interfaceAddress: '127.0.0.1', listenMs: 500 });
const linkOf = (device: SimulatedDevice) => `udp:127.0.0.1:${device.descriptor.port}`;

/**
 * A CoAP node that answers the multicast GET /.well-known/core from its own address but is not
 * one of our devices: it never answers GET /info.
 */
async function foreignNode(): Promise<{ link: string; requests: string[]; close: () => Promise<void> }> {
  const group = createSocket({ type: 'udp4', reuseAddr: true });
  const own = createSocket('udp4');
  await new Promise<void>((resolve) => group.bind(port, GROUP, resolve));
  group.addMembership(GROUP, '127.0.0.1');
  await new Promise<void>((resolve) => own.bind(0, '127.0.0.1', resolve));
  const requests: string[] = [];
  const answer = (socket: Socket) => (bytes: Buffer, remote: { address: string; port: number }) => {
    const request = decodeMessage(new Uint8Array(bytes));
    requests.push(uriPathOf(request));
    if (uriPathOf(request) !== '.well-known/core') return;
    const reply = encodeMessage({
      type: 'NON',
      code: CODE.CONTENT,
      messageId: 7,
      token: request.token,
      options: [],
      payload: new TextEncoder().encode('</sensor>'),
    });
    socket.send(reply, remote.port, remote.address);
  };
  group.on('message', answer(own));
  own.on('message', answer(own));
  return {
    link: `udp:127.0.0.1:${own.address().port}`,
    requests,
    close: async () => {
      await new Promise<void>((resolve) => group.close(() => resolve()));
      await new Promise<void>((resolve) => own.close(() => resolve()));
    },
  };
}

describe('CoAP multicast discovery (RFC 7252 §8) on loopback', () => {
  it('finds every simulated UDP device from its own address', async () => {
    const found = await discoverByMulticast(multicast());
    expect(found).toEqual(expect.arrayContaining(devices.map(linkOf)));
  });

  it('lists two UDP devices without typed addresses, each confirmed with GET /info', async () => {
    const found = await findDevices({ serial: false, multicast: multicast() }, { probeTimeoutMs: 3000 });
    expect(found.map((f) => [f.link, f.info?.serialNumber])).toEqual(
      expect.arrayContaining(devices.map((d) => [linkOf(d), d.descriptor.serialNumber])),
    );
    expect(found.every((f) => f.linkKind === 'udp' && f.info !== null)).toBe(true);
  });

  it('does not list a node that answers the multicast request but not GET /info', async () => {
    const node = await foreignNode();
    try {
      const found = await findDevices({ serial: false, multicast: multicast() }, { probeTimeoutMs: 3000 });
      // It was asked (so the filter, not a missed multicast, keeps it out)...
      expect(node.requests).toContain('info');
      // ...and only our devices are listed.
      expect(found.map((f) => f.link)).not.toContain(node.link);
      expect(found.map((f) => f.info?.serialNumber).sort()).toEqual(
        devices.map((d) => d.descriptor.serialNumber).sort(),
      );
    } finally {
      await node.close();
    }
  });

  it('the live list shows discovered devices without targets', async () => {
    const list = new LiveDeviceList({ serial: false, multicast: multicast(), ipPollIntervalMs: 60_000 });
    try {
      await list.start();
      expect(list.devices().map((d) => [d.link, d.serialNumber, d.linkKind])).toEqual(
        expect.arrayContaining(devices.map((d) => [linkOf(d), d.descriptor.serialNumber, 'udp'])),
      );
    } finally {
      await list.stop();
    }
  });

  it('finds nothing when discovery is off', async () => {
    const found = await findDevices({ serial: false, multicast: false });
    expect(found).toEqual([]);
  });
});
