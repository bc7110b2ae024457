import { describe, expect, it } from 'vitest';
import { decodeCbor } from '../../domain/files/cbor';
import { sha256 } from '../../domain/files/config-file';
import { makeFirmwareImage } from '../../domain/files/firmware-image';
import { generateReleaseKeyPair, type ReleaseKeyPair } from '../../domain/files/firmware-release-key';
import { CODE, type CoapMessage } from '../../main/devices/coap';
import type { SimulatedDeviceOptions } from '../../simulator';
import {
  announcement,
  putFirmwareBlock,
  useScratchDir,
  testImage,
  uniqueSerial,
  type TestImage,
} from './helpers/fixtures';
import { errorCode, type RawCoapClient } from './helpers/raw-client';
import { testReleaseKey } from '../fixtures/release-key';
import { startUdpSession, type UdpSession } from './helpers/udp-session';
import { waitFor } from './helpers/wait';

/**
 * The attacker's view: a raw CoAP client on the device's UDP port, none of the host's checks in
 * between. Whatever it sends, a device takes only an image whose manifest a trusted, unretired
 * release key signed for its type, at or above its security counter, and whose bytes hash to the
 * signed SHA-256. Every refusal leaves the old image running.
 */

const scratch = useScratchDir('fw-signature');

const attacker: ReleaseKeyPair = generateReleaseKeyPair();

type Target = UdpSession;

function udpDevice(serialNumber: string, extra: Partial<SimulatedDeviceOptions> = {}): Promise<Target> {
  return startUdpSession(scratch.dir, { serialNumber, ...extra });
}

async function withDevice(
  work: (target: Target) => Promise<void>,
  extra: Partial<SimulatedDeviceOptions> = {},
): Promise<void> {
  const target = await udpDevice(uniqueSerial('EPC'), extra);
  try {
    await work(target);
  } finally {
    await target.close();
  }
}

function refusal(response: CoapMessage): [string, string | undefined] {
  return [response.code, errorCode(response)];
}

/** What must hold after every refusal: the device runs what it ran, and nothing is staged. */
async function expectUntouched({ client, device }: Target, runningVersion = '1.0.0'): Promise<void> {
  expect((await client.getCbor('info')).firmwareVersion).toBe(runningVersion);
  expect(device.state()).toMatchObject({ firmwareVersion: runningVersion, upload: null });
}

/** The whole update, as a host would do it: announce, every block, apply, and the reboot. */
async function install({ client, device }: Target, image: TestImage): Promise<void> {
  expect((await client.postCbor('fw', announcement(image))).code).toBe(CODE.CREATED);
  const { final } = await client.uploadBlock1('fw/data', image.image);
  expect(final.code).toBe(CODE.CHANGED);
  const bootId = device.state().bootId;
  expect((await client.request({ method: CODE.POST, path: 'fw/apply' })).code).toBe(CODE.CHANGED);
  await waitFor(() => device.state().bootId > bootId && device.state().firmwareVersion === image.version);
}

/** Blocks and an apply pushed at the device anyway, after a refused announce. */
async function pushAnyway(client: RawCoapClient, image: Uint8Array): Promise<void> {
  const block = await putFirmwareBlock(client, image, 0);
  expect(refusal(block)).toEqual(['4.09', 'FW_NOT_ANNOUNCED']);
  const apply = await client.request({ method: CODE.POST, path: 'fw/apply' });
  expect(refusal(apply)).toEqual(['4.09', 'FW_NOT_ANNOUNCED']);
}

describe('a device refuses firmware nobody it trusts signed, straight over UDP', () => {
  it('refuses an unsigned image: the 6.6.6-evil announce of old gets FW_UNSIGNED', () =>
    withDevice(async (target) => {
      const evil = testImage('EPC', '6.6.6-evil', 8 * 1024);
      const { signedManifest: _dropped, ...unsigned } = announcement(evil);
      const response = await target.client.postCbor('fw', unsigned);
      expect(refusal(response)).toEqual(['4.03', 'FW_UNSIGNED']);
      expect(decodeCbor(response.payload)).toMatchObject({
        code: 'FW_UNSIGNED',
        message: expect.stringMatching(/signed/),
      });
      await pushAnyway(target.client, evil.image);
      await expectUntouched(target);
    }));

  it('refuses a manifest whose signature does not verify: a flipped signature byte, a relabelled version', () =>
    withDevice(async (target) => {
      const image = testImage('EPC', '2.0.0', 8 * 1024);
      const flipped = new Uint8Array(image.signedManifest);
      flipped[flipped.length - 1] = flipped[flipped.length - 1]! ^ 0x01;
      expect(refusal(await target.client.postCbor('fw', { ...announcement(image), signedManifest: flipped }))).toEqual([
        '4.03',
        'FW_BAD_SIGNATURE',
      ]);
      // The signed version field (offset 16) rewritten to the evil one, the signature kept.
      const relabelled = new Uint8Array(image.signedManifest);
      relabelled.fill(0, 16, 48);
      relabelled.set(Buffer.from('6.6.6-evil'), 16);
      expect(
        refusal(
          await target.client.postCbor('fw', {
            ...announcement(image),
            version: '6.6.6-evil',
            signedManifest: relabelled,
          }),
        ),
      ).toEqual(['4.03', 'FW_BAD_SIGNATURE']);
      expect(
        refusal(await target.client.postCbor('fw', { ...announcement(image), signedManifest: new Uint8Array(40) })),
      ).toEqual(['4.03', 'FW_BAD_SIGNATURE']);
      await pushAnyway(target.client, image.image);
      await expectUntouched(target);
    }));

  it('refuses an image signed by a key it does not hold', () =>
    withDevice(async (target) => {
      const evil = testImage('EPC', '6.6.6-evil', 8 * 1024, { key: attacker });
      expect(refusal(await target.client.postCbor('fw', announcement(evil)))).toEqual(['4.03', 'FW_UNTRUSTED_KEY']);
      await pushAnyway(target.client, evil.image);
      await expectUntouched(target);
    }));

  it('refuses other bytes under a genuine manifest: the hash is checked against the signed value before anything is applied', () =>
    withDevice(async (target) => {
      const genuine = testImage('EPC', '2.0.0', 8 * 1024);
      const evil = makeFirmwareImage('EPC', '2.0.0', 8 * 1024).map((byte, i) => (i === 5000 ? byte ^ 0x5a : byte));
      // The plain fields may not name other bytes than the signed ones ...
      expect(refusal(await target.client.postCbor('fw', { ...announcement(genuine), sha256: sha256(evil) }))).toEqual([
        '4.00',
        'BAD_REQUEST',
      ]);
      // ... and bytes that are not the signed image never become `received`.
      expect((await target.client.postCbor('fw', announcement(genuine))).code).toBe(CODE.CREATED);
      const { final } = await target.client.uploadBlock1('fw/data', evil);
      expect(refusal(final)).toEqual(['4.00', 'FW_HASH_MISMATCH']);
      const apply = await target.client.request({ method: CODE.POST, path: 'fw/apply' });
      expect(refusal(apply)).toEqual(['4.09', 'FW_INCOMPLETE']);
      expect((await target.client.getCbor('info')).firmwareVersion).toBe('1.0.0');
      expect(target.device.state()).toMatchObject({
        firmwareVersion: '1.0.0',
        upload: { state: 'failed', error: 'FW_HASH_MISMATCH' },
      });
    }));

  it('refuses an image signed for another device type', () =>
    withDevice(async (target) => {
      const srcp = testImage('SRCP', '2.0.0', 8 * 1024);
      const response = await target.client.postCbor('fw', announcement(srcp));
      expect(refusal(response)).toEqual(['4.09', 'FW_WRONG_TYPE']);
      expect(decodeCbor(response.payload)).toMatchObject({ deviceType: 'EPC' });
      // Relabelling the announce does not help: the signed manifest says SRCP.
      expect(refusal(await target.client.postCbor('fw', { ...announcement(srcp), deviceType: 'EPC' }))).toEqual([
        '4.09',
        'FW_WRONG_TYPE',
      ]);
      await expectUntouched(target);
    }));

  it('refuses a rollback below the highest security counter it applied, across a restart', async () => {
    const serial = uniqueSerial('EPC');
    let target = await udpDevice(serial);
    try {
      await install(target, testImage('EPC', '2.0.0', 8 * 1024, { securityCounter: 5 }));
      expect(target.device.state().securityCounter).toBe(5);
      const old = testImage('EPC', '1.9.0', 8 * 1024, { securityCounter: 4 });
      const response = await target.client.postCbor('fw', announcement(old));
      expect(refusal(response)).toEqual(['4.09', 'FW_ROLLBACK']);
      expect(decodeCbor(response.payload)).toMatchObject({ securityCounter: 5 });
      await pushAnyway(target.client, old.image);
      await expectUntouched(target, '2.0.0');
      await target.close();

      // The floor is in the device's non-volatile memory.
      target = await udpDevice(serial);
      expect(refusal(await target.client.postCbor('fw', announcement(old)))).toEqual(['4.09', 'FW_ROLLBACK']);
      await expectUntouched(target, '2.0.0');
      // The same counter is no rollback: a newer version without a security fix goes in.
      await install(target, testImage('EPC', '2.1.0', 8 * 1024, { securityCounter: 5 }));
    } finally {
      await target.close();
    }
  });
});

describe('release key rotation on a device', () => {
  it('takes images of both provisioned keys until a manifest signed by the new one retires the old', async () => {
    const oldKey = testReleaseKey;
    const newKey = generateReleaseKeyPair();
    const serial = uniqueSerial('EPC');
    const keys = { releaseKeysPem: [oldKey.publicKeyPem, newKey.publicKeyPem] };
    let target = await udpDevice(serial, keys);
    try {
      await install(target, testImage('EPC', '2.0.0', 4 * 1024, { key: oldKey }));
      await install(target, testImage('EPC', '2.1.0', 4 * 1024, { key: newKey }));
      // Until a release retires it, the old key still signs.
      expect(
        (await target.client.postCbor('fw', announcement(testImage('EPC', '2.1.1', 4 * 1024, { key: oldKey })))).code,
      ).toBe(CODE.CREATED);

      const rotation = testImage('EPC', '2.2.0', 4 * 1024, { key: newKey, retires: [oldKey.keyId] });
      await install(target, rotation);
      expect(target.device.state().retiredReleaseKeyIds).toEqual([oldKey.keyId]);
      const late = testImage('EPC', '2.3.0', 4 * 1024, { key: oldKey });
      expect(refusal(await target.client.postCbor('fw', announcement(late)))).toEqual(['4.03', 'FW_KEY_RETIRED']);
      await expectUntouched(target, '2.2.0');
      await target.close();

      target = await udpDevice(serial, keys);
      expect(refusal(await target.client.postCbor('fw', announcement(late)))).toEqual(['4.03', 'FW_KEY_RETIRED']);
      await install(target, testImage('EPC', '2.3.0', 4 * 1024, { key: newKey }));
    } finally {
      await target.close();
    }
  });

  it('retires nothing for a rotation that is announced but never applied', async () => {
    const newKey = generateReleaseKeyPair();
    await withDevice(
      async (target) => {
        const rotation = testImage('EPC', '3.0.0', 4 * 1024, { key: newKey, retires: [testReleaseKey.keyId] });
        expect((await target.client.postCbor('fw', announcement(rotation))).code).toBe(CODE.CREATED);
        expect(target.device.state().retiredReleaseKeyIds).toEqual([]);
        expect((await target.client.postCbor('fw', announcement(testImage('EPC', '3.0.1', 4 * 1024)))).code).toBe(
          CODE.CREATED,
        );
      },
      { releaseKeysPem: [testReleaseKey.publicKeyPem, newKey.publicKeyPem] },
    );
  });
});
