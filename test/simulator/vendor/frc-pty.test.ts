import { describe, expect, it } from 'vitest';
import { parseScm2 } from '../../../domain/vendor/scm2';
import { runningValues } from '../../../domain/vendor/running-values';
import { simulatedVendorImage } from '../../../domain/vendor/simulated-image';
import { CODE, decodeBlock, getOption, OPTION } from '../../../main/devices/coap';
import {
  decodeFsMetadata,
  decodeRawInt,
  decodeRawUint,
  decodeVendorValue,
  fsMetadataOf,
  vendorCrc32,
} from '../../../protocol/vendor';
import { uniqueSerial, useScratchDir } from '../../fixtures/scratch';
import { epcEthernetScm2, frcIsmScm2 } from '../../domain/vendor/samples';
import {
  fsUpload,
  getBlockwise,
  getWithQuery,
  postBlockwise,
  postCbor,
  postText,
  secureConfigOf,
  startVendorSession,
  text,
  until,
  type VendorDeviceOptions,
  type VendorSession,
} from './helpers';

const scratch = useScratchDir('vendor-frc');

async function withFrc(
  test: (session: VendorSession) => Promise<void>,
  options: Partial<VendorDeviceOptions> = {},
): Promise<void> {
  const session = await startVendorSession(scratch.dir, {
    deviceType: 'SRCP',
    serialNumber: uniqueSerial('SRCP'),
    ...options,
  });
  try {
    await test(session);
  } finally {
    await session.close();
  }
}

async function reset(session: VendorSession, payload: string): Promise<void> {
  const boot = session.device.state().bootId;
  const answer = await postText(session.client, 'cfg/setup/systemReset', payload);
  expect(answer.code).toBe(CODE.CHANGED);
  await until('the reboot', () => session.device.state().bootId > boot);
  await session.reconnect();
}

const computedMetadata = async (session: VendorSession, name: string) => {
  await postText(session.client, 'fs/data', name);
  const answer = await getWithQuery(session.client, 'fs/metadata', 'computed');
  expect(answer.code).toBe(CODE.CONTENT);
  return decodeFsMetadata(answer.payload);
};

describe('simulated vendor FRC (SRC Pro) on a pty with plain SLIP', () => {
  it('answers identity in text and the fake-CBOR integers, and checks values', () =>
    withFrc(async ({ client, device }) => {
      expect(text(await client.get('cfg/setup/serialNumber'))).toBe(device.descriptor.serialNumber);
      expect(text(await client.get('cfg/setup/fwVersion'))).toBe('1.0.0');
      expect(device.descriptor).toMatchObject({ protocol: 'vendor', model: 'SRC Pro', link: 'serial' });

      const channel = await client.get('cfg/setup/radioChannel');
      expect([channel.code, getOption(channel, OPTION.CONTENT_FORMAT)?.[0], decodeRawUint(channel.payload)]).toEqual([
        CODE.CONTENT,
        60,
        1,
      ]);
      expect((await postCbor(client, 'cfg/setup/radioChannel', { radio_channel: 27 })).code).toBe(CODE.BAD_REQUEST);
      expect((await postCbor(client, 'cfg/setup/radioChannel', { channel: 5 })).code).toBe(CODE.BAD_REQUEST);
      expect((await postCbor(client, 'cfg/setup/radioChannel', { radio_channel: 12 })).code).toBe(CODE.CHANGED);
      expect(decodeRawUint((await client.get('cfg/setup/radioChannel')).payload)).toBe(12);
      expect((await postCbor(client, 'cfg/setup/radioPower', { radio_power: -15 })).code).toBe(CODE.CHANGED);
      expect(decodeRawInt((await client.get('cfg/setup/radioPower')).payload)).toBe(-15);

      const badAddr = await postText(client, 'cfg/setup/ism/pairAddr', '1,70000,0', '3');
      expect([badAddr.code, text(badAddr)]).toEqual([CODE.BAD_REQUEST, expect.stringMatching(/0 to 65535/)]);
      expect((await postText(client, 'cfg/setup/ism/pairAddr', '7, 8, 0', '3')).code).toBe(CODE.CHANGED);
      expect(text(await getWithQuery(client, 'cfg/setup/ism/pairAddr', '3'))).toBe('7,8,0');
      expect(text(await getWithQuery(client, 'cfg/setup/ism/pairAddr', '4'))).toBe('0,0,0');
      expect((await client.get('cfg/setup/ism/pairAddr')).code).toBe(CODE.BAD_REQUEST);
      expect((await postText(client, 'cfg/setup/serialNumber', 'TOO-LONG-1')).code).toBe(CODE.BAD_REQUEST);
      expect((await postText(client, 'cfg/setup/radioMode', 'X')).code).toBe(CODE.BAD_REQUEST);
      expect((await postText(client, 'cfg/setup/fwVersion', '9.9.9')).code).toBe(CODE.METHOD_NOT_ALLOWED);
      const joystick = await client.get('st/joystick');
      expect([joystick.code, getOption(joystick, OPTION.CONTENT_FORMAT)?.[0]]).toEqual([CODE.CONTENT, 60]);
      expect(decodeRawUint((await client.get('st/joystick/period')).payload)).toBe(20);
      expect((await postCbor(client, 'st/joystick/period', { period: 300 })).code).toBe(CODE.BAD_REQUEST);
    }));

  it('fs transfer: 64-byte upload, ?computed matches, Block2 download gives the same bytes', () =>
    withFrc(async (session) => {
      const data = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7) % 256);
      const final = await fsUpload(session.client, 'ismfw.bin', data);
      expect(final.code).toBe(CODE.CHANGED);
      expect(decodeBlock(getOption(final, OPTION.BLOCK1)!)).toEqual({
        num: Math.floor(4999 / 64),
        more: false,
        size: 64,
      });
      expect(await computedMetadata(session, 'ismfw.bin')).toEqual(fsMetadataOf(data));
      expect(Buffer.from(await getBlockwise(session.client, 'fs/data', 64))).toEqual(Buffer.from(data));
      await postText(session.client, 'fs/data', 'nothere.bin');
      expect((await getWithQuery(session.client, 'fs/metadata', 'computed')).code).toBe(CODE.NOT_FOUND);
    }));

  it('takes larger blocks up to its largest and answers with its own size when the host offers more', () =>
    withFrc(
      async (session) => {
        const data = Uint8Array.from({ length: 3000 }, (_, i) => (i * 13) % 251);
        await postText(session.client, 'fs/data', 'big.bin');
        const responses = await postBlockwise(session.client, 'fs/data', data, { blockSize: 1024 });
        // Block 0 of 1024 is kept; the answer asks for 256 and the host continues at block 4.
        expect(decodeBlock(getOption(responses[0]!, OPTION.BLOCK1)!)).toEqual({ num: 0, more: true, size: 256 });
        expect(responses.at(-1)!.code).toBe(CODE.CHANGED);
        expect((await computedMetadata(session, 'big.bin')).crc32).toBe(vendorCrc32(data));
        // A later block larger than the device's: 4.13 with its size.
        await postText(session.client, 'fs/data', 'big.bin');
        const first = await postBlockwise(session.client, 'fs/data', data.subarray(0, 256), { blockSize: 256 });
        expect(first.at(-1)!.code).toBe(CODE.CHANGED);
        const { block1Option } = await import('../../../main/devices/coap');
        const tooBig = await session.client.request({
          method: CODE.POST,
          path: 'fs/data',
          payload: data.subarray(0, 512),
          options: [block1Option({ num: 1, more: true, size: 512 })],
        });
        expect(tooBig.code).toBe(CODE.REQUEST_ENTITY_TOO_LARGE);
        expect(decodeBlock(getOption(tooBig, OPTION.BLOCK1)!).size).toBe(256);
        // Out of order: 4.08.
        const skipped = await session.client.request({
          method: CODE.POST,
          path: 'fs/data',
          payload: data.subarray(0, 64),
          options: [block1Option({ num: 9, more: true, size: 64 })],
        });
        expect(skipped.code).toBe(CODE.REQUEST_ENTITY_INCOMPLETE);
      },
      { maxBlockSize: 256 },
    ));

  it('installs updateAppImg.bin at systemReset n when its CRC matches, not when it does not', () =>
    withFrc(async (session) => {
      const image = simulatedVendorImage('4.2.1', 9000);
      // A declared CRC the bytes do not have: the device stores what came and says so in ?computed.
      const wrong = await fsUpload(session.client, 'updateAppImg.bin', image, {
        metadata: { ...fsMetadataOf(image), crc32: 0x12345678 },
      });
      expect(wrong.code).toBe(CODE.CHANGED);
      expect((await computedMetadata(session, 'updateAppImg.bin')).crc32).not.toBe(0x12345678);
      await reset(session, 'n');
      expect(text(await session.client.get('cfg/setup/fwVersion'))).toBe('1.0.0');

      expect((await fsUpload(session.client, 'updateAppImg.bin', image)).code).toBe(CODE.CHANGED);
      // The bootloader waits: nothing installed, settings refused.
      await reset(session, 'b');
      expect(text(await session.client.get('cfg/setup/fwVersion'))).toBe('1.0.0');
      expect((await postText(session.client, 'cfg/setup/radioMode', 'M')).code).toBe(CODE.SERVICE_UNAVAILABLE);
      await reset(session, 'n');
      expect(text(await session.client.get('cfg/setup/fwVersion'))).toBe('4.2.1');
      expect(session.device.vendorState!()).toMatchObject({
        installs: 1,
        installed: { 'updateAppImg.bin': vendorCrc32(image).toString(16).padStart(8, '0') },
      });
      expect(session.device.vendorState!().files['updateAppImg.bin']).toBeUndefined();
    }));

  it('applies secureConfig.cbor and serves its running values; refuses an EPC-only configuration with the reason', () =>
    withFrc(async (session) => {
      const final = await fsUpload(
        session.client,
        'secureConfig.cbor',
        secureConfigOf(frcIsmScm2(), { syncId: 'frc-sync' }),
      );
      expect(final.code).toBe(CODE.CHANGED);
      for (const value of runningValues(parseScm2(frcIsmScm2()), 'FRC')) {
        const [path, query] = value.path.split('?');
        const answer =
          query === undefined ? await session.client.get(path!) : await getWithQuery(session.client, path!, query);
        expect([
          value.path,
          decodeVendorValue(value.path, 'FRC', answer.payload, getOption(answer, OPTION.CONTENT_FORMAT)?.[0]),
        ]).toEqual([value.path, value.expected]);
      }
      expect(session.device.state().config?.syncId).toBe('frc-sync');
      const refused = await fsUpload(session.client, 'secureConfig.cbor', secureConfigOf(epcEthernetScm2()));
      expect([refused.code, text(refused)]).toEqual([
        CODE.BAD_REQUEST,
        expect.stringMatching(/secureConfig\.cbor refused: .*no eth0/),
      ]);
      expect(text(await session.client.get('cfg/setup/ism/ownAddr'))).toBe('40,7,0');
    }));
});
