import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import { verifyConfigFile } from '../../domain/files/config-file-signature';
import { CODE } from '../../main/devices/coap';
import type { SimulatedDeviceOptions } from '../../simulator';
import {
  announcement,
  configContent,
  putFirmwareBlock,
  useScratchDir,
  serviceKeys,
  signedConfigFile,
  testImage,
  uniqueSerial,
} from './helpers/fixtures';
import { errorCode } from './helpers/raw-client';
import { startUdpSession, type UdpSession } from './helpers/udp-session';
import { startDevice } from '../fixtures/simulated-device';
import { waitFor } from './helpers/wait';

const scratch = useScratchDir('state');

function udpDevice(serialNumber: string, extra: Partial<SimulatedDeviceOptions> = {}): Promise<UdpSession> {
  return startUdpSession(scratch.dir, { serialNumber, deviceType: 'NSCP', ...extra });
}

describe('device state directory', () => {
  it('keeps identity, configuration and upload progress across a restart of the simulator', async () => {
    const serial = uniqueSerial('NSCP');
    const first = await udpDevice(serial, { firmwareVersion: '1.2.3', model: 'NSCP-N9' });
    const content = configContent(serial, 'NSCP', { blank: true });
    const { final } = await first.client.uploadBlock1('config', signedConfigFile(content), { size1: true });
    expect(final.code).toBe(CODE.CHANGED);
    await waitFor(() => first.device.state().bootId === 2);
    const image = testImage('NSCP', '2.0.0', 9000);
    await first.client.postCbor('fw', announcement(image));
    for (const num of [0, 1, 3])
      expect((await putFirmwareBlock(first.client, image.image, num)).code).toBe(CODE.CONTINUE);
    await first.close();

    const onDisk = JSON.parse(await readFile(join(scratch.dir, serial, 'device.json'), 'utf8'));
    expect(onDisk).toMatchObject({
      serialNumber: serial,
      model: 'NSCP-N9',
      firmwareVersion: '1.2.3',
      config: { syncId: content.syncId, blank: true },
    });
    // Only the contiguous prefix counts: block 3 arrived, block 2 did not.
    expect(onDisk.upload).toMatchObject({ ackedOffset: 2048, state: 'receiving', size: image.image.length });
    const stored = await readFile(join(scratch.dir, serial, 'config.cbor'));
    expect(verifyConfigFile(stored, { rootKeyPem: serviceKeys.publicKeyPem }).syncId).toBe(content.syncId);

    // Options given at the next start do not override what the device's memory says.
    const second = await udpDevice(serial, { firmwareVersion: '9.9.9' });
    try {
      const info = await second.client.getCbor('info');
      expect(info).toMatchObject({
        firmwareVersion: '1.2.3',
        configSyncId: content.syncId,
        state: 'receiving',
        bootId: 3,
      });
      expect(await second.client.getCbor('config')).toMatchObject({ syncId: content.syncId, blank: true });
      const resumed = decodeCbor((await second.client.postCbor('fw', announcement(image))).payload);
      expect(resumed).toEqual({ offset: 2048, blockSize: 1024 });
      const apply = await second.client.request({ method: CODE.POST, path: 'fw/apply' });
      expect([apply.code, errorCode(apply)]).toEqual(['4.09', 'FW_INCOMPLETE']);
      expect(decodeCbor(apply.payload)).toMatchObject({ received: 2048 });
    } finally {
      await second.close();
    }
  });

  it('refuses a state directory that belongs to another device', async () => {
    const serial = uniqueSerial('NSCP');
    await (await udpDevice(serial)).close();
    await expect(
      startDevice(scratch.dir, {
        serialNumber: 'NSCP-OTHER',
        deviceType: 'NSCP',
        link: { udp: { host: '127.0.0.1', port: 0 } },
        stateDir: join(scratch.dir, serial),
      }),
    ).rejects.toThrow(/belongs to NSCP/);
  });

  it('loses blocks held only in RAM on a power cycle, never the acknowledged prefix', async () => {
    const serial = uniqueSerial('NSCP');
    const session = await udpDevice(serial);
    const { device, client } = session;
    try {
      const image = testImage('NSCP', '2.1.0', 5000);
      await client.postCbor('fw', announcement(image));
      for (const num of [0, 2]) await putFirmwareBlock(client, image.image, num);
      const bootId = device.state().bootId;
      await device.powerCycle();
      expect(device.state().bootId).toBe(bootId + 1);
      expect(await client.getCbor('fw')).toMatchObject({ state: 'receiving', received: 1024 });
      // Block 2 was in RAM only: after the power cycle a block 1 does not complete 0..3072.
      await putFirmwareBlock(client, image.image, 1);
      expect(await client.getCbor('fw')).toMatchObject({ received: 2048 });
    } finally {
      await session.close();
    }
  });
});
