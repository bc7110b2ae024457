import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../../domain/files/cbor';
import { parseScm2 } from '../../../domain/vendor/scm2';
import { runningValues } from '../../../domain/vendor/running-values';
import { simulatedVendorImage } from '../../../domain/vendor/simulated-image';
import { CODE, decodeBlock, getOption, observeOption, OPTION } from '../../../main/devices/coap';
import { decodeVendorValue, encodeEpcFirmwareBody, encodeSystemReset } from '../../../protocol/vendor';
import { uniqueSerial, useScratchDir } from '../../fixtures/scratch';
import { epcEthernetScm2, frcIsmScm2 } from '../../domain/vendor/samples';
import {
  getWithQuery,
  postBlockwise,
  postCbor,
  postJson,
  postText,
  secureConfigOf,
  startVendorSession,
  text,
  until,
  type VendorSession,
  type VendorDeviceOptions,
} from './helpers';

const scratch = useScratchDir('vendor-epc');

async function withEpc(
  test: (session: VendorSession) => Promise<void>,
  options: Partial<VendorDeviceOptions> = {},
): Promise<void> {
  const session = await startVendorSession(scratch.dir, {
    deviceType: 'EPC',
    serialNumber: uniqueSerial('EPC'),
    ...options,
  });
  try {
    await test(session);
  } finally {
    await session.close();
  }
}

const json = (payload: Uint8Array): unknown => JSON.parse(new TextDecoder().decode(payload));

describe('simulated vendor EPC over UDP', () => {
  it('answers identity GETs as JSON, tolerating a Content-Format on the GET', () =>
    withEpc(async ({ client, device }) => {
      const serial = await client.get('cfg/setup/serialNumber');
      expect([serial.code, getOption(serial, OPTION.CONTENT_FORMAT)?.[0]]).toEqual([CODE.CONTENT, 50]);
      expect(json(serial.payload)).toBe(device.descriptor.serialNumber);
      expect(json((await client.get('info/fw/version')).payload)).toBe('1.0.0');
      expect(json((await client.get('cfg/setup/fwVersion')).payload)).toBe('1.0.0');
      expect(json((await client.get('info/serial/cpu')).payload)).toMatch(/^[0-9A-F]{16}$/);
      // The vendor's menu sends CF 60 on some GETs (spec §2).
      const withFormat = await client.get('cfg/sf/smcu/global/timeoutMs', [
        { number: OPTION.CONTENT_FORMAT, value: Uint8Array.of(60) },
      ]);
      expect(json(withFormat.payload)).toBe(500);
      expect(device.descriptor.protocol).toBe('vendor');
      expect((await client.get('nothing/here')).code).toBe(CODE.NOT_FOUND);
    }));

  it('sets values by JSON to the parent, bare values to the leaf and text, refusing bad ones with 4.00 and changing nothing', () =>
    withEpc(async ({ client }) => {
      const tooShort = await postJson(client, 'cfg/sf/smcu/global', { timeoutMs: 40, txRateMs: 25 });
      expect(tooShort.code).toBe(CODE.BAD_REQUEST);
      expect(text(tooShort)).toMatch(/timeoutMs must be a whole number from 50 to 10000/);
      expect(json((await client.get('cfg/sf/smcu/global/txRateMs')).payload)).toBe(50);
      expect((await postJson(client, 'cfg/sf/smcu/global', { timeoutMs: 800, txRateMs: 25 })).code).toBe(CODE.CHANGED);
      expect(json((await client.get('cfg/sf/smcu/global/timeoutMs')).payload)).toBe(800);
      expect(json((await client.get('cfg/sf/smcu/global/txRateMs')).payload)).toBe(25);

      expect((await postJson(client, 'cfg/radio/ism0/rfChannel', 27)).code).toBe(CODE.BAD_REQUEST);
      expect((await postJson(client, 'cfg/radio/ism0/rfChannel', 12)).code).toBe(CODE.CHANGED);
      expect((await postJson(client, 'cfg/radio/ism0/power', 3)).code).toBe(CODE.BAD_REQUEST);
      expect((await postCbor(client, 'cfg/radio/ism0/power', -5)).code).toBe(CODE.CHANGED);
      expect(json((await client.get('cfg/radio/ism0/power')).payload)).toBe(-5);
      expect((await postJson(client, 'cfg/net/can0/canBitrate', '300000')).code).toBe(CODE.BAD_REQUEST);
      expect((await postJson(client, 'cfg/net/can0/canBitrate', '500000')).code).toBe(CODE.CHANGED);
      expect((await postText(client, 'cfg/sf/smcu/care0/deviceId', '7')).code).toBe(CODE.CHANGED);
      expect((await postText(client, 'cfg/sf/smcu/care1/deviceId', '40000')).code).toBe(CODE.BAD_REQUEST);
      expect((await postJson(client, 'cfg/net/eth0/port0', { dhcp: 'True' })).code).toBe(CODE.BAD_REQUEST);
      const unknown = await postJson(client, 'cfg/net/eth0/port0', { address: '1.2.3.4' });
      expect([unknown.code, text(unknown)]).toEqual([
        CODE.BAD_REQUEST,
        expect.stringMatching(/no leaf address; it has ip, dhcp, gateway, dns/),
      ]);
      expect((await postJson(client, 'cfg/net/eth0/mac', '02:00:00:00:00:01')).code).toBe(CODE.METHOD_NOT_ALLOWED);
    }));

  it('applies cfg/all after the SHA-256 check and then serves exactly the running values of its scm2', () =>
    withEpc(async ({ client, device }) => {
      const file = secureConfigOf(epcEthernetScm2(), { syncId: 'sync-1' });
      const responses = await postBlockwise(client, 'cfg/all', file, { blockSize: 1024, contentFormat: 60 });
      const final = responses[responses.length - 1]!;
      expect([final.code, text(final)]).toEqual([CODE.CHANGED, 'Configuration applied']);
      expect(device.vendorState!().config).toMatchObject({ via: 'cfg/all', syncId: 'sync-1', drifted: null });
      for (const value of runningValues(parseScm2(epcEthernetScm2()), 'EPC')) {
        const answer = await client.get(value.path);
        expect([
          value.path,
          decodeVendorValue(value.path, 'EPC', answer.payload, getOption(answer, OPTION.CONTENT_FORMAT)?.[0]),
        ]).toEqual([value.path, value.expected]);
      }
      // A damaged file: refused, nothing changes.
      const damaged = Uint8Array.from(secureConfigOf(frcIsmScm2()));
      damaged[20] = damaged[20]! ^ 0x01;
      const refused = await postBlockwise(client, 'cfg/all', damaged, { blockSize: 1024, contentFormat: 60 });
      expect(refused.at(-1)!.code).toBe(CODE.BAD_REQUEST);
      expect(text(refused.at(-1)!)).toMatch(/Configuration refused: .*(damaged|not CBOR)/);
      expect(json((await client.get('cfg/net/eth0/port0/ip')).payload)).toBe('192.168.3.10/24');
      expect(device.vendorState!().config?.syncId).toBe('sync-1');
    }));

  it('takes firmware at fl/fw/epc in 1024-byte blocks, reports its status to an observer, reboots into the new version', () =>
    withEpc(async ({ client, device }) => {
      const observe = await client.get('fl/fw/epc/status', [observeOption(0)]);
      expect([observe.code, text(observe)]).toEqual([CODE.CONTENT, 'idle']);
      const bootBefore = device.state().bootId;
      const body = encodeEpcFirmwareBody(simulatedVendorImage('1.3.0', 20_000));
      const responses = await postBlockwise(client, 'fl/fw/epc', body, { blockSize: 1024, contentFormat: 60 });
      expect(responses.slice(0, -1).every((r) => r.code === CODE.CONTINUE)).toBe(true);
      const final = responses.at(-1)!;
      expect(final.code).toBe(CODE.CHANGED);
      expect(text(final)).toMatch(/Update started: package verified, installing 1\.3\.0/);
      expect(decodeBlock(getOption(final, OPTION.BLOCK1)!).more).toBe(false);
      await until('the install notifications', () =>
        client.notifications.some((n) => text(n).startsWith('installed 1.3.0')),
      );
      const statuses = client.notifications.map(text);
      expect(statuses).toEqual(
        expect.arrayContaining(['verifying', 'installing 50%', 'installing 100%', 'installed 1.3.0, rebooting']),
      );
      await until('the reboot', () => device.state().bootId > bootBefore);
      expect(json((await client.get('info/fw/version')).payload)).toBe('1.3.0');
    }));

  it('refuses a firmware body whose SHA-256 does not match, and keeps its version', () =>
    withEpc(async ({ client }) => {
      const data = simulatedVendorImage('9.9.9', 3000);
      const body = encodeEpcFirmwareBody(data);
      const map = decodeCbor(body) as Record<string, unknown>;
      map['sha256'] = createHash('sha256').update('other').digest('hex');
      const { encodeCbor } = await import('../../../domain/files/cbor');
      const responses = await postBlockwise(client, 'fl/fw/epc', encodeCbor(map), {
        blockSize: 1024,
        contentFormat: 60,
      });
      expect(responses.at(-1)!.code).toBe(CODE.BAD_REQUEST);
      expect(text(responses.at(-1)!)).toMatch(/damaged/);
      expect(text(await client.get('fl/fw/epc/status'))).toMatch(/^failed: /);
      expect(json((await client.get('info/fw/version')).payload)).toBe('1.0.0');
    }));

  it('resets on n, b and an empty payload, answering first; in the bootloader it refuses settings until n', () =>
    withEpc(async ({ client, device }) => {
      for (const payload of [encodeSystemReset('normal'), new Uint8Array(0)]) {
        const boot = device.state().bootId;
        const answer = await client.request({ method: CODE.POST, path: 'cfg/setup/systemReset', payload });
        expect([answer.code, text(answer)]).toEqual([CODE.CHANGED, 'rebooting']);
        await until('the reboot', () => device.state().bootId > boot);
      }
      const boot = device.state().bootId;
      expect(
        text(
          await client.request({
            method: CODE.POST,
            path: 'cfg/setup/systemReset',
            payload: encodeSystemReset('bootloader'),
          }),
        ),
      ).toBe('rebooting into the bootloader');
      await until('the reboot', () => device.state().bootId > boot);
      const refused = await postJson(client, 'cfg/sf/smcu/global', { timeoutMs: 900 });
      expect([refused.code, text(refused)]).toEqual([CODE.SERVICE_UNAVAILABLE, expect.stringMatching(/bootloader/)]);
      expect(json((await client.get('info/fw/version')).payload)).toBe('1.0.0');
      expect(
        (
          await client.request({
            method: CODE.POST,
            path: 'cfg/setup/systemReset',
            payload: new TextEncoder().encode('x'),
          })
        ).code,
      ).toBe(CODE.BAD_REQUEST);
      const back = device.state().bootId;
      await postText(client, 'cfg/setup/systemReset', 'n');
      await until('the reboot', () => device.state().bootId > back);
      expect((await postJson(client, 'cfg/sf/smcu/global', { timeoutMs: 900 })).code).toBe(CODE.CHANGED);
      expect((await getWithQuery(client, 'cfg/sf/smcu/global/timeoutMs', 'x')).code).toBe(CODE.CONTENT);
    }));

  it('--fault-param-drift: runs one value off its file while recording the file as applied', () =>
    withEpc(
      async ({ client, device }) => {
        const final = (
          await postBlockwise(client, 'cfg/all', secureConfigOf(epcEthernetScm2()), {
            blockSize: 1024,
            contentFormat: 60,
          })
        ).at(-1)!;
        expect(final.code).toBe(CODE.CHANGED);
        expect(device.vendorState!().config).toMatchObject({ drifted: 'cfg/sf/smcu/global/timeoutMs' });
        expect(json((await client.get('cfg/sf/smcu/global/timeoutMs')).payload)).toBe(501);
        expect(json((await client.get('cfg/sf/smcu/global/txRateMs')).payload)).toBe(50);
      },
      { faults: { paramDrift: 'cfg/sf/smcu/global/timeoutMs' } },
    ));
});
