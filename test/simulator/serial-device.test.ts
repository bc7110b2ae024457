import { existsSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../domain/files/cbor';
import { block2Option, CODE, decodeBlock, decodeUint, encodeMessage, getOption, OPTION } from '../../main/devices/coap';
import { encodeFrame } from '../../protocol/framing';
import {
  announcement,
  configContent,
  putFirmwareBlock,
  useScratchDir,
  signedAnnouncement,
  signedConfigFile,
  testImage,
  uniqueSerial,
} from './helpers/fixtures';
import { errorCode } from './helpers/raw-client';
import { startSerialSession, type SerialSession } from './helpers/serial-session';
import { generateSigningKeyPair } from '../../domain/files/config-file-signature';
import { waitFor } from './helpers/wait';

const scratch = useScratchDir('serial');

async function withSession(
  test: (session: SerialSession) => Promise<void>,
  options: Parameters<typeof startSerialSession>[1] = { serialNumber: uniqueSerial('EPC') },
): Promise<void> {
  const session = await startSerialSession(scratch.dir, options);
  try {
    await test(session);
  } finally {
    await session.close();
  }
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

describe('simulated device over a real pty', () => {
  it('identifies itself and lists its resources', () =>
    withSession(async ({ client, device }) => {
      const info = await client.getCbor('info');
      expect(info).toMatchObject({
        protocol: 1,
        serialNumber: device.descriptor.serialNumber,
        deviceType: 'EPC',
        firmwareVersion: '1.0.0',
        configSyncId: null,
        maxBlockSize: 1024,
        maxInFlight: 4,
        state: 'idle',
      });
      expect(info.bootId).toBe(device.state().bootId);
      const core = await client.get('.well-known/core');
      expect(core.code).toBe(CODE.CONTENT);
      const links = new TextDecoder().decode(core.payload);
      for (const path of ['info', 'fw', 'fw/data', 'fw/apply', 'config', 'reboot'])
        expect(links).toContain(`</${path}>`);
      expect(links).toMatch(/<\/fw>;[^,]*obs/);
    }));

  it('answers unknown paths and methods with the protocol errors', () =>
    withSession(async ({ client }) => {
      const missing = await client.get('nope');
      expect([missing.code, errorCode(missing)]).toEqual(['4.04', 'NOT_FOUND']);
      const wrongMethod = await client.request({ method: CODE.PUT, path: 'info' });
      expect([wrongMethod.code, errorCode(wrongMethod)]).toEqual(['4.05', 'METHOD_NOT_ALLOWED']);
    }));

  it('cuts a large response into Block2 blocks the host asks for', () =>
    withSession(async ({ client }) => {
      const whole = (await client.get('info')).payload;
      const parts: Uint8Array[] = [];
      let etag: string | undefined;
      for (let num = 0; ; num++) {
        const response = await client.get('info', [block2Option({ num, more: false, size: 32 })]);
        expect(response.code).toBe(CODE.CONTENT);
        const block = decodeBlock(getOption(response, OPTION.BLOCK2)!);
        expect(block).toMatchObject({ num, size: 32 });
        const tag = Buffer.from(getOption(response, OPTION.ETAG)!).toString('hex');
        etag ??= tag;
        expect(tag).toBe(etag);
        parts.push(response.payload);
        if (!block.more) break;
      }
      expect(Buffer.concat(parts)).toEqual(Buffer.from(whole));
    }));

  it('takes a firmware image in blocks with several in flight, applies it and comes back at the same path', () =>
    withSession(async (session) => {
      const { client, device, path } = session;
      const image = testImage('EPC', '2.1.0', 40_000);
      const bootBefore = (await client.getCbor('info')).bootId as number;
      const announced = await client.postCbor('fw', announcement(image));
      expect(announced.code).toBe(CODE.CREATED);
      expect(decodeCbor(announced.payload)).toEqual({ offset: 0, blockSize: 1024 });

      const { final, responses } = await client.uploadBlock1('fw/data', image.image, { window: 4 });
      expect(final.code).toBe(CODE.CHANGED);
      const complete = decodeCbor(final.payload) as { received: number; sha256: Uint8Array };
      expect(complete.received).toBe(image.image.length);
      expect(Buffer.from(complete.sha256)).toEqual(Buffer.from(image.sha256));
      expect(responses.filter((r) => r.code === CODE.CONTINUE)).toHaveLength(Math.ceil(image.image.length / 1024) - 1);
      expect(await client.getCbor('fw')).toMatchObject({
        state: 'received',
        received: image.image.length,
        version: '2.1.0',
        error: null,
      });

      const applied = await client.request({ method: CODE.POST, path: 'fw/apply' });
      expect(applied.code).toBe(CODE.CHANGED);
      expect(decodeCbor(applied.payload)).toEqual({ version: '2.1.0' });
      // The port closes and the pty disappears, then comes back at the same path.
      await new Promise<void>((resolve) => session.transport.onClose(resolve));
      await session.reconnect();
      expect(await exists(path)).toBe(true);
      const info = await session.client.getCbor('info');
      expect(info).toMatchObject({ firmwareVersion: '2.1.0', state: 'idle' });
      expect(info.bootId).not.toBe(bootBefore);
      expect(device.state()).toMatchObject({ firmwareVersion: '2.1.0', upload: null });
    }));

  it('resumes an upload from the contiguous offset after the cable was pulled', () =>
    withSession(async (session) => {
      const image = testImage('EPC', '2.2.0', 30_000);
      await session.client.postCbor('fw', announcement(image));
      // Send the first 10 blocks only, one at a time, then pull the cable.
      for (let num = 0; num < 10; num++)
        expect((await putFirmwareBlock(session.client, image.image, num)).code).toBe(CODE.CONTINUE);
      await session.device.unplug();
      expect(session.device.state().upload).toMatchObject({ ackedOffset: 10 * 1024, state: 'receiving' });
      await session.device.plug();
      await session.reconnect();
      const resumed = await session.client.postCbor('fw', announcement(image));
      expect(decodeCbor(resumed.payload)).toEqual({ offset: 10 * 1024, blockSize: 1024 });
      const { final } = await session.client.uploadBlock1('fw/data', image.image, { startOffset: 10 * 1024 });
      expect(final.code).toBe(CODE.CHANGED);
      expect(session.device.state().upload).toMatchObject({ state: 'received', ackedOffset: image.image.length });
    }));

  it('refuses an image whose bytes are not the signed SHA-256, and never reports it', () =>
    withSession(async ({ client, device }) => {
      const image = testImage('EPC', '3.0.0', 5000);
      // The plain fields of an announce must say what the signed manifest says.
      const lying = await client.postCbor('fw', { ...announcement(image), sha256: new Uint8Array(32).fill(7) });
      expect([lying.code, errorCode(lying)]).toEqual(['4.00', 'BAD_REQUEST']);
      await client.postCbor('fw', announcement(image));
      const other = new Uint8Array(image.image);
      other[4000] = other[4000]! ^ 0xff;
      const { final } = await client.uploadBlock1('fw/data', other);
      expect([final.code, errorCode(final)]).toEqual(['4.00', 'FW_HASH_MISMATCH']);
      expect(await client.getCbor('fw')).toMatchObject({ state: 'failed', error: 'FW_HASH_MISMATCH', received: 0 });
      const apply = await client.request({ method: CODE.POST, path: 'fw/apply' });
      expect([apply.code, errorCode(apply)]).toEqual(['4.09', 'FW_INCOMPLETE']);
      expect((await client.getCbor('info')).firmwareVersion).toBe('1.0.0');
      expect(device.state().firmwareVersion).toBe('1.0.0');
    }));

  it('refuses firmware for another device type, at announce and from the image header', () =>
    withSession(async ({ client }) => {
      const srcp = testImage('SRCP', '4.0.0', 4000);
      const atAnnounce = await client.postCbor('fw', announcement(srcp));
      expect([atAnnounce.code, errorCode(atAnnounce)]).toEqual(['4.09', 'FW_WRONG_TYPE']);
      expect(decodeCbor(atAnnounce.payload)).toMatchObject({ deviceType: 'EPC' });
      // Signed as EPC, but the header says SRCP: refused once block 0 is in.
      await client.postCbor(
        'fw',
        signedAnnouncement({ size: srcp.image.length, sha256: srcp.sha256, version: '4.0.0', deviceType: 'EPC' }),
      );
      const { final } = await client.uploadBlock1('fw/data', srcp.image, { window: 1 });
      expect([final.code, errorCode(final)]).toEqual(['4.09', 'FW_WRONG_TYPE']);
      expect(await client.getCbor('fw')).toMatchObject({ state: 'failed', error: 'FW_WRONG_TYPE' });
    }));

  it('refuses blocks outside the receive window and before an announce', () =>
    withSession(async ({ client }) => {
      const early = await putFirmwareBlock(client, new Uint8Array(1024), 0);
      expect([early.code, errorCode(early)]).toEqual(['4.09', 'FW_NOT_ANNOUNCED']);
      const image = testImage('EPC', '2.0.0', 20_000);
      await client.postCbor('fw', announcement(image));
      const far = await putFirmwareBlock(client, image.image, 4);
      expect([far.code, errorCode(far)]).toEqual(['4.08', 'FW_OUT_OF_WINDOW']);
      expect(decodeCbor(far.payload)).toMatchObject({ offset: 0 });
      const tooLarge = await client.postCbor(
        'fw',
        signedAnnouncement({ size: 64 * 1024 * 1024, sha256: image.sha256, version: '2.0.0', deviceType: 'EPC' }),
      );
      expect([tooLarge.code, errorCode(tooLarge)]).toEqual(['4.13', 'FW_TOO_LARGE']);
    }));

  it('applies a signed configuration file for itself and reboots into it', () =>
    withSession(async (session) => {
      const serial = session.device.descriptor.serialNumber;
      const content = configContent(serial, 'EPC');
      const file = signedConfigFile(content);
      const { final } = await session.client.uploadBlock1('config', file, { blockSize: 256, window: 2, size1: true });
      expect(final.code).toBe(CODE.CHANGED);
      expect(decodeCbor(final.payload)).toEqual({ syncId: content.syncId });
      await session.reconnect();
      const info = await session.client.getCbor('info');
      expect(info.configSyncId).toBe(content.syncId);
      expect(await session.client.getCbor('config')).toMatchObject({ syncId: content.syncId, blank: false });
      expect(session.device.state().config).toMatchObject({ syncId: content.syncId, blank: false });
    }));

  it('refuses configuration files for another device, badly signed or tampered with, and keeps its configuration', () =>
    withSession(async ({ client, device, transport }) => {
      const serial = device.descriptor.serialNumber;
      const cases: [Uint8Array, string, string][] = [
        [signedConfigFile(configContent('EPC999999', 'EPC')), '4.09', 'CONFIG_WRONG_DEVICE'],
        [signedConfigFile(configContent(serial, 'EPC'), generateSigningKeyPair()), '4.03', 'CONFIG_BAD_SIGNATURE'],
        [tamper(signedConfigFile(configContent(serial, 'EPC'))), '4.00', 'CONFIG_CHECKSUM_MISMATCH'],
        [new TextEncoder().encode('not a configuration file'), '4.00', 'CONFIG_BAD_FORMAT'],
      ];
      for (const [file, code, error] of cases) {
        const { final } = await client.uploadBlock1('config', file, { blockSize: 512, size1: true });
        expect([final.code, errorCode(final)]).toEqual([code, error]);
        if (error === 'CONFIG_WRONG_DEVICE')
          expect(decodeCbor(final.payload)).toMatchObject({ serialNumber: 'EPC999999' });
      }
      expect(transport.isOpen).toBe(true);
      expect((await client.getCbor('info')).configSyncId).toBeNull();
      expect(device.state().config).toBeNull();
    }));

  it('answers a duplicate with the same response and does not act twice', () =>
    withSession(async ({ client, device, transport }) => {
      const bootId = device.state().bootId;
      const reboot = client.build({ method: CODE.POST, path: 'reboot' });
      const answers: Uint8Array[] = [];
      const firstAnswer = new Promise<void>((resolve) =>
        transport.onMessage((m) => {
          answers.push(m);
          resolve();
        }),
      );
      transport.send(encodeMessage(reboot));
      // The retransmission reaches the device after it answered, in the 50 ms before it reboots.
      await firstAnswer;
      transport.send(encodeMessage(reboot));
      await new Promise<void>((resolve) => transport.onClose(resolve));
      expect(answers).toHaveLength(2);
      expect(Buffer.from(answers[0]!)).toEqual(Buffer.from(answers[1]!));
      await waitFor(() => device.state().bootId !== bootId);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(device.state().bootId).toBe(bootId + 1);
    }));

  it('reboots on request: the pty vanishes and comes back at the same path with a new bootId', () =>
    withSession(
      async (session) => {
        const bootId = (await session.client.getCbor('info')).bootId;
        const closed = new Promise<void>((resolve) => session.transport.onClose(resolve));
        expect((await session.client.request({ method: CODE.POST, path: 'reboot' })).code).toBe(CODE.CHANGED);
        await closed;
        await waitFor(() => !existsSync(session.path));
        await waitFor(() => existsSync(session.path));
        await session.reconnect();
        expect((await session.client.getCbor('info')).bootId).toBe((bootId as number) + 1);
      },
      { serialNumber: uniqueSerial('EPC'), rebootMs: 600 },
    ));

  it('drops frames whose CRC fails and answers the next good one', () =>
    withSession(async ({ client, transport }) => {
      const request = client.build({ method: CODE.GET, path: 'info' });
      const frame = encodeFrame(encodeMessage(request));
      frame[5] = frame[5]! ^ 0x01;
      const seen: Uint8Array[] = [];
      transport.onMessage((m) => seen.push(m));
      transport.sendRaw(frame);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(seen).toHaveLength(0);
      expect((await client.getCbor('info')).serialNumber).toBeDefined();
    }));

  it('notifies /fw observers as an upload progresses', () =>
    withSession(async ({ client }) => {
      const registration = await client.get('fw', [{ number: OPTION.OBSERVE, value: new Uint8Array(0) }]);
      expect(registration.code).toBe(CODE.CONTENT);
      expect(getOption(registration, OPTION.OBSERVE)).toBeDefined();
      const image = testImage('EPC', '5.0.0', 20_000);
      await client.postCbor('fw', announcement(image));
      await client.uploadBlock1('fw/data', image.image);
      await waitFor(() =>
        client.notifications.some((n) => (decodeCbor(n.payload) as { state: string }).state === 'received'),
      );
      const states = client.notifications.map((n) => (decodeCbor(n.payload) as { state: string }).state);
      expect(states[0]).toBe('receiving');
      expect(states).toContain('verifying');
      const sequence = client.notifications.map((n) => decodeUint(getOption(n, OPTION.OBSERVE)!));
      expect([...sequence].sort((a, b) => a - b)).toEqual(sequence);
      for (const n of client.notifications) expect(Buffer.from(n.token)).toEqual(Buffer.from(registration.token));
    }));
});

/** Flips a byte inside the signed settings, keeping the CBOR structure intact. */
function tamper(file: Uint8Array): Uint8Array {
  const top = decodeCbor(file) as Record<string, unknown>;
  // The signed bytes: layout 3's config-data, layout 2's settings.
  const field = 'config-data' in top ? 'config-data' : 'settings';
  const settings = new Uint8Array(top[field] as Uint8Array);
  const needle = new TextEncoder().encode('Sender');
  const at = Buffer.from(settings).indexOf(Buffer.from(needle));
  settings[at] = 'T'.charCodeAt(0);
  return encodeCbor({ ...top, [field]: settings });
}
