import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKeyPair, type SigningKeyPair } from '../../../domain/files/config-file-signature';
import { CONFIG_FILE_FORMAT, encodeConfigFile, sha256, type ConfigFileContent } from '../../../domain/files/config-file';
import { nextSequence, organizationSigner, TEST_ORG_ID } from '../../fixtures/config-files';
import { makeFirmwareImage } from '../../../domain/files/firmware-image';
import type { ReleaseKeyPair } from '../../../domain/files/firmware-release-key';
import { signFirmwareManifest } from '../../../domain/files/firmware-manifest';
import { signedManifestFor, testReleaseKey } from '../../fixtures/release-key';

export const serviceKeys: SigningKeyPair = generateSigningKeyPair();

export function configContent(serialNumber: string, deviceType: string, overrides: Partial<ConfigFileContent> = {}): ConfigFileContent {
  return {
    format: CONFIG_FILE_FORMAT,
    syncId: randomUUID(),
    serialNumber,
    deviceType,
    orgId: TEST_ORG_ID,
    sequence: nextSequence(),
    configurationId: randomUUID(),
    blank: false,
    issuedAt: new Date().toISOString(),
    device: { role: 'Sender', commInterface: 'ISM' },
    peers: [{ serialNumber: 'SRCP000001', role: 'Receiver' }],
    safety: { timeout: '500ms', ismChannel: 3 },
    ...overrides,
  };
}

/** Signed by the key of the content's organization, certified by `root` (the devices trust serviceKeys). */
export function signedConfigFile(content: ConfigFileContent, root: SigningKeyPair = serviceKeys): Uint8Array {
  return encodeConfigFile(content, organizationSigner(root, content.orgId));
}

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
export function signedAnnouncement(fields: { size: number; sha256: Uint8Array; version: string; deviceType: string }, key: ReleaseKeyPair = testReleaseKey): Record<string, unknown> {
  const signedManifest = signFirmwareManifest(
    { deviceType: fields.deviceType, version: fields.version, imageSize: fields.size, imageSha256: Buffer.from(fields.sha256).toString('hex'), securityCounter: 0, retires: [] },
    key.privateKeyPem,
  );
  return { ...fields, signedManifest };
}

export function announcement(image: TestImage): Record<string, unknown> {
  return { size: image.image.length, sha256: image.sha256, version: image.version, deviceType: image.deviceType, signedManifest: image.signedManifest };
}

/** A scratch directory per test file: state dirs, descriptor dir and ptys all go inside it. */
export async function scratchDir(name: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `sim-${name}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

let counter = 0;
/** Serial numbers unique within a run, so descriptor files and ptys never collide. */
export function uniqueSerial(prefix: string): string {
  counter++;
  return `${prefix}${String(process.pid % 10000).padStart(4, '0')}${String(counter).padStart(2, '0')}`;
}
