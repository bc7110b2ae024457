import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../../domain/files/cbor';
import { CODE } from '../../../main/devices/coap';
import { startFleet } from '../../../simulator';
import { readFleetFile } from '../../../simulator/cli/fleet-file';
import { parseShiftPlan, runShift } from '../../../simulator/shift-plan';
import { uniqueSerial, useScratchDirPerTest } from '../../fixtures/scratch';
import { serviceKeys } from '../../fixtures/simulated-device';
import { RawCoapClient } from '../helpers/raw-client';
import { openSerialTransport, openUdpTransport, type Transport } from '../helpers/transports';
import { text } from './helpers';

const scratch = useScratchDirPerTest('vendor-fleet');

async function ask<T>(transport: Transport, test: (client: RawCoapClient) => Promise<T>): Promise<T> {
  try {
    return await test(new RawCoapClient(transport, { ackTimeoutMs: 300, retries: 5 }));
  } finally {
    await transport.close();
  }
}

describe('fleets and shifts mixing both protocols', () => {
  it('a fleet file starts vendor and our devices side by side, each answering in its own protocol', async () => {
    const vendorEpc = uniqueSerial('EPC');
    const vendorSrcp = uniqueSerial('SRCP');
    const ourNscp = uniqueSerial('NSCP');
    const file = join(scratch.dir, 'fleet.json');
    await writeFile(
      file,
      JSON.stringify({
        defaults: { ptyDir: join(scratch.dir, 'pty'), rebootMs: 50 },
        devices: [
          { type: 'EPC', serial: vendorEpc, protocol: 'vendor', link: 'udp:127.0.0.1:0' },
          { type: 'SRCP', serial: vendorSrcp, protocol: 'vendor', link: 'pty' },
          { type: 'NSCP', serial: ourNscp, link: 'pty' },
        ],
      }),
    );
    const { defaults, devices } = await readFleetFile(file);
    const fleet = await startFleet({
      stateDir: join(scratch.dir, 'state'),
      publicKeyPem: serviceKeys.publicKeyPem,
      defaults: defaults ?? {},
      devices,
    });
    try {
      const [epc, srcp, nscp] = fleet.devices;
      expect(fleet.devices.map((d) => [d.descriptor.serialNumber, d.descriptor.protocol, d.descriptor.link])).toEqual([
        [vendorEpc, 'vendor', 'udp'],
        [vendorSrcp, 'vendor', 'serial'],
        [ourNscp, 'provisioner', 'serial'],
      ]);
      await ask(await openUdpTransport('127.0.0.1', epc!.descriptor.port!), async (client) => {
        expect(JSON.parse(text(await client.get('info/fw/version')))).toBe('1.0.0');
      });
      await ask(await openSerialTransport(srcp!.descriptor.path!, 'none'), async (client) => {
        expect(text(await client.get('cfg/setup/serialNumber'))).toBe(vendorSrcp);
      });
      await ask(await openSerialTransport(nscp!.descriptor.path!), async (client) => {
        const info = await client.get('info');
        expect(info.code).toBe(CODE.CONTENT);
        expect(decodeCbor(info.payload)).toMatchObject({ serialNumber: ourNscp, deviceType: 'NSCP' });
      });
      expect(srcp!.vendorState!().family).toBe('FRC');
      expect(nscp!.vendorState).toBeUndefined();
    } finally {
      await fleet.stop();
    }
  });

  it('refuses a vendor device on a link its kind does not have', async () => {
    await expect(
      startFleet({
        stateDir: join(scratch.dir, 'state'),
        publicKeyPem: serviceKeys.publicKeyPem,
        devices: [{ deviceType: 'EPC', serialNumber: uniqueSerial('EPC'), protocol: 'vendor', link: 'pty' }],
      }),
    ).rejects.toThrow(/vendor's EPC speaks CoAP over UDP/);
    await expect(
      startFleet({
        stateDir: join(scratch.dir, 'state'),
        publicKeyPem: serviceKeys.publicKeyPem,
        devices: [{ deviceType: 'SRCP', serialNumber: uniqueSerial('SRCP'), protocol: 'vendor', link: 'ble' }],
      }),
    ).rejects.toThrow(/no BLE transport/);
  });

  it('a shift plugs in a vendor SRC Pro and one of ours, each on its own pty', async () => {
    const ptyDir = join(scratch.dir, 'pty');
    const plan = parseShiftPlan({
      defaults: { ptyDir, rebootMs: 50 },
      devices: [
        { id: 'vendor', deviceType: 'SRCP', serialNumber: uniqueSerial('SRCP'), protocol: 'vendor' },
        { id: 'ours', deviceType: 'SRCP', serialNumber: uniqueSerial('SRCP') },
      ],
      plan: [
        { at: 0, plug: 'vendor' },
        { at: 0, plug: 'ours' },
      ],
    });
    const shift = runShift({ ...plan, stateDir: join(scratch.dir, 'state'), publicKeyPem: serviceKeys.publicKeyPem });
    try {
      await shift.finished;
      const vendor = shift.devices.get('vendor')!;
      const ours = shift.devices.get('ours')!;
      expect([vendor.descriptor.protocol, ours.descriptor.protocol]).toEqual(['vendor', 'provisioner']);
      await ask(await openSerialTransport(join(ptyDir, 'vendor'), 'none'), async (client) => {
        expect(text(await client.get('cfg/setup/serialNumber'))).toBe(vendor.descriptor.serialNumber);
      });
      await ask(await openSerialTransport(join(ptyDir, 'ours')), async (client) => {
        expect(decodeCbor((await client.get('info')).payload)).toMatchObject({
          serialNumber: ours.descriptor.serialNumber,
        });
      });
    } finally {
      await shift.stop();
    }
  });
});
