import { describe, expect, it } from 'vitest';
import { simulatedVendorImage } from '../../../domain/vendor/simulated-image';
import { CODE, decodeMessage, getOption, OPTION } from '../../../main/devices/coap';
import { encodeEpcFirmwareBody, fsMetadataOf } from '../../../protocol/vendor';
import { uniqueSerial, useScratchDir } from '../../fixtures/scratch';
import {
  fsUpload,
  getWithQuery,
  postBlockwise,
  postText,
  startVendorSession,
  text,
  until,
  type VendorDeviceOptions,
  type VendorSession,
} from './helpers';
import { decodeFsMetadata } from '../../../protocol/vendor';
import { RawCoapClient } from '../helpers/raw-client';

const scratch = useScratchDir('vendor-faults');

async function withDevice(
  options: Partial<VendorDeviceOptions> & Pick<VendorDeviceOptions, 'deviceType'>,
  test: (session: VendorSession) => Promise<void>,
): Promise<void> {
  const session = await startVendorSession(scratch.dir, { serialNumber: uniqueSerial(options.deviceType), ...options });
  try {
    await test(session);
  } finally {
    await session.close();
  }
}

const json = (payload: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(payload));
const data = Uint8Array.from({ length: 4000 }, (_, i) => (i * 11) % 253);

describe('fault flags on simulated vendor devices', () => {
  it('--corrupt on USB: with no CRC, damaged frames reach CoAP and answers come back garbled', () =>
    withDevice({ deviceType: 'NSCP', faults: { corrupt: 0.3, seed: 7 } }, async ({ device, transport }) => {
      const serial = device.descriptor.serialNumber;
      // Whatever arrives, decodable or not: a garbled frame is not dropped on the way.
      const arrived: Uint8Array[] = [];
      transport.onMessage((bytes) => arrived.push(bytes));
      // Few retries: a garbled request can be any request (a reboot, a write), after which the
      // device may not answer at all; with the session's 6 retries each later request waited 38 s.
      const client = new RawCoapClient(transport, { ackTimeoutMs: 300, retries: 2 });
      let wrong = 0;
      for (let i = 0; i < 40 && wrong === 0; i++) {
        const answer = await client.get('cfg/setup/serialNumber').catch(() => undefined);
        if (answer === undefined || answer.code !== CODE.CONTENT || text(answer) !== serial) wrong++;
      }
      const garbled = arrived.filter((bytes) => {
        try {
          const message = decodeMessage(bytes);
          return (
            message.payload.length > 0 &&
            new TextDecoder().decode(message.payload) !== serial &&
            message.code === CODE.CONTENT
          );
        } catch {
          return true;
        }
      });
      expect(device.faultStats.corrupted).toBeGreaterThan(0);
      // With our framing's CRC the host would never see these; here it must cope with them.
      expect(garbled.length + wrong).toBeGreaterThan(0);
    }));

  it('--drop on USB and UDP: lost frames are retransmitted, every answer right', async () => {
    for (const deviceType of ['SRCP', 'EPC'] as const) {
      await withDevice({ deviceType, faults: { drop: 0.1, seed: 3 } }, async ({ client, device }) => {
        for (let i = 0; i < 40; i++) {
          const answer = await client.get('cfg/setup/serialNumber').catch((error: Error) => {
            throw new Error(`${deviceType} request ${i}: ${error.message}; stats ${JSON.stringify(device.faultStats)}`);
          });
          expect(answer.code).toBe(CODE.CONTENT);
          expect(new TextDecoder().decode(answer.payload)).toContain(device.descriptor.serialNumber);
        }
        expect(device.faultStats.dropped).toBeGreaterThan(0);
      });
    }
  });

  it('--pull-at in an fs upload: the cable comes out, and the upload continues after the replug', () =>
    withDevice({ deviceType: 'SRCP', faults: { pullAt: 1500, replugAfterMs: 300 } }, async (session) => {
      const upload = fsUpload(session.client, 'btRadioFw.freqHop.bin', data);
      await until('the pull', () => session.device.faultStats.pulls === 1);
      await session.reconnect();
      const final = await upload;
      expect(final.code).toBe(CODE.CHANGED);
      await postText(session.client, 'fs/data', 'btRadioFw.freqHop.bin');
      expect(decodeFsMetadata((await getWithQuery(session.client, 'fs/metadata', 'computed')).payload)).toEqual(
        fsMetadataOf(data),
      );
    }));

  it('--stall in an fs upload: the device goes quiet once, then the upload completes', () =>
    withDevice({ deviceType: 'SRCP', faults: { stall: { ms: 600, atOffset: 1000 } } }, async (session) => {
      expect((await fsUpload(session.client, 'ismfw.bin', data)).code).toBe(CODE.CHANGED);
      expect(session.device.faultStats.stalls).toBe(1);
    }));

  it('--power-cycle-during-apply on the EPC: the install is cut, the old version boots, a second update succeeds', () =>
    withDevice({ deviceType: 'EPC', faults: { powerCycleDuringApply: true } }, async ({ client, device }) => {
      const body = encodeEpcFirmwareBody(simulatedVendorImage('1.4.0', 5000));
      const boot = device.state().bootId;
      expect(
        (await postBlockwise(client, 'fl/fw/epc', body, { blockSize: 1024, contentFormat: 60 })).at(-1)!.code,
      ).toBe(CODE.CHANGED);
      await until('the power cut and boot', () => device.state().bootId > boot);
      expect(device.faultStats.powerCycles).toBe(1);
      expect(json((await client.get('info/fw/version')).payload)).toBe('1.0.0');
      const again = device.state().bootId;
      expect(
        (await postBlockwise(client, 'fl/fw/epc', body, { blockSize: 1024, contentFormat: 60 })).at(-1)!.code,
      ).toBe(CODE.CHANGED);
      await until('the reboot', () => device.state().bootId > again);
      expect(json((await client.get('info/fw/version')).payload)).toBe('1.4.0');
    }));

  it('power cycle: a partial fs upload is RAM and is gone; stored files and settings stay', () =>
    withDevice({ deviceType: 'SRCP' }, async (session) => {
      const { client, device } = session;
      // Not a component file: those are installed (and leave fs) at the next start.
      expect((await fsUpload(client, 'notes.txt', data)).code).toBe(CODE.CHANGED);
      expect((await postText(client, 'cfg/setup/ism/ownAddr', '3,4,0')).code).toBe(CODE.CHANGED);
      await postText(client, 'fs/data', 'ER_RO');
      const first = await postBlockwise(client, 'fs/data', data.subarray(0, 128), { blockSize: 64 });
      expect(first.at(-1)!.code).toBe(CODE.CHANGED);
      await device.powerCycle();
      await session.reconnect();
      const { block1Option } = await import('../../../main/devices/coap');
      await postText(client, 'fs/data', 'ER_RO');
      const lost = await client.request({
        method: CODE.POST,
        path: 'fs/data',
        payload: data.subarray(128, 192),
        options: [block1Option({ num: 2, more: true, size: 64 })],
      });
      expect(lost.code).toBe(CODE.REQUEST_ENTITY_INCOMPLETE);
      expect(text(await client.get('cfg/setup/ism/ownAddr'))).toBe('3,4,0');
      await postText(client, 'fs/data', 'notes.txt');
      const computed = await getWithQuery(client, 'fs/metadata', 'computed');
      expect([computed.code, getOption(computed, OPTION.CONTENT_FORMAT)?.[0]]).toEqual([CODE.CONTENT, 42]);
    }));
});
