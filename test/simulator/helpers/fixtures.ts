import { sha256 } from '../../../domain/files/config-file';
import { makeFirmwareImage } from '../../../domain/files/firmware-image';
import type { ReleaseKeyPair } from '../../../domain/files/firmware-release-key';
import { signFirmwareManifest } from '../../../domain/files/firmware-manifest';
import { block1Option, CODE } from '../../../main/devices/coap';
import { signedManifestFor, testReleaseKey } from '../../fixtures/release-key';
import type { RawCoapClient } from './raw-client';

export { scratchDir, uniqueSerial, useScratchDir } from '../../fixtures/scratch';
export { configContent, serviceKeys, signedConfigFile, startUdpDevice } from '../../fixtures/simulated-device';

export interface TestImage {
  image: Uint8Array;
  sha256: Uint8Array;
  version: string;
  deviceType: string;
  /** Signed with the test release key (or the one given), which the test devices trust. */
  signedManifest: Uint8Array;
}

export function testImage(
  deviceType: string,
  version: string,
  bodyLength: number,
  signing: { key?: ReleaseKeyPair; securityCounter?: number; retires?: string[] } = {},
): TestImage {
  const image = makeFirmwareImage(deviceType, version, bodyLength);
  return { image, sha256: sha256(image), version, deviceType, signedManifest: signedManifestFor(image, signing) };
}

/**
 * An announce whose signed manifest vouches for exactly these fields, whatever the image really is:
 * what a release key holder who signed the wrong thing would send.
 */
export function signedAnnouncement(
  fields: { size: number; sha256: Uint8Array; version: string; deviceType: string },
  key: ReleaseKeyPair = testReleaseKey,
): Record<string, unknown> {
  const signedManifest = signFirmwareManifest(
    {
      deviceType: fields.deviceType,
      version: fields.version,
      imageSize: fields.size,
      imageSha256: Buffer.from(fields.sha256).toString('hex'),
      securityCounter: 0,
      retires: [],
    },
    key.privateKeyPem,
  );
  return { ...fields, signedManifest };
}

export function announcement(image: TestImage): Record<string, unknown> {
  return {
    size: image.image.length,
    sha256: image.sha256,
    version: image.version,
    deviceType: image.deviceType,
    signedManifest: image.signedManifest,
  };
}

/** Block `num` of an image's upload to /fw/data in 1 KiB blocks, sent alone with more to follow: for tests that stop part way or skip a block. */
export function putFirmwareBlock(client: RawCoapClient, image: Uint8Array, num: number) {
  return client.request({
    method: CODE.PUT,
    path: 'fw/data',
    payload: image.subarray(num * 1024, num * 1024 + 1024),
    options: [block1Option({ num, more: true, size: 1024 })],
  });
}
