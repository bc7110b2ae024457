import { createHash } from 'node:crypto';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { z } from 'zod';
import { deviceTypeSchema, type DeviceType } from '../device-types';
import { FileFormatError } from './file-error';
import { parseFirmwareImageHeader } from './firmware-image';
import {
  checkFirmwareManifest,
  readSignedFirmwareManifest,
  signFirmwareManifest,
  verifySignedFirmwareManifest,
  type SignedFirmwareManifest,
  type VerifiedFirmwareManifest,
} from './firmware-manifest';
import type { ReleaseKeyring } from './firmware-release-key';
import { checkZipLimits, FIRMWARE_BUNDLE_LIMITS } from './zip-limits';

/**
 * A firmware bundle is a zip holding `manifest.json`, the image it names and the signed firmware
 * manifest (`firmware-manifest.bin`, see firmware-manifest.ts). Bundles hold exactly one
 * application image: the device protocol uploads one image per update.
 */
export const FIRMWARE_BUNDLE_FORMAT = 'provisioner-firmware/2';
/** Format 1 had no signed manifest; such bundles are still read, to be refused as unsigned. */
export const UNSIGNED_FIRMWARE_BUNDLE_FORMAT = 'provisioner-firmware/1';
export const SIGNED_MANIFEST_FILE = 'firmware-manifest.bin';
const MANIFEST_FILE = 'manifest.json';

const bundleManifestSchema = z.object({
  format: z.enum([FIRMWARE_BUNDLE_FORMAT, UNSIGNED_FIRMWARE_BUNDLE_FORMAT]),
  deviceType: deviceTypeSchema,
  version: z.string().min(1).max(32),
  images: z
    .array(
      z.object({
        name: z.string().regex(/^[A-Za-z0-9._-]+$/),
        size: z.number().int().nonnegative(),
        sha256: z.string().regex(/^[0-9a-f]{64}$/),
      }),
    )
    .length(1),
});
/** `manifest.json`: the zip's table of contents, for people and tools. The signed manifest is what devices trust. */
export type BundleManifest = z.infer<typeof bundleManifestSchema>;

export interface FirmwareBundle {
  manifest: BundleManifest;
  deviceType: DeviceType;
  version: string;
  /** The application image to upload to the device. */
  image: Uint8Array;
  imageName: string;
  /** SHA-256 (hex) of the image: what the device is told to expect. */
  imageSha256: string;
  /** SHA-256 (hex) of the whole zip: the bundle's identity in caches. */
  bundleSha256: string;
  /**
   * The signed firmware manifest, taken apart and found to describe this image; its signature is
   * not checked here (verifyFirmwareBundleSignature does, against a keyring). Null when unsigned.
   */
  signed: SignedFirmwareManifest | null;
}

export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface FirmwareBundleInput {
  deviceType: DeviceType;
  version: string;
  image: Uint8Array;
  imageName?: string;
  /** The release key that signs the bundle's firmware manifest (PKCS#8 PEM). */
  releaseKeyPem: string;
  /** Anti-rollback counter (firmware-manifest.ts). Default 0. */
  securityCounter?: number;
  /** Key ids of release keys this release retires. */
  retires?: string[];
}

/**
 * The signed firmware manifest of an image: type and version from its header, size and SHA-256
 * from its bytes. What a release key holder's build step makes, and what the announce carries.
 */
export function signFirmwareImage(
  image: Uint8Array,
  signing: Pick<FirmwareBundleInput, 'releaseKeyPem' | 'securityCounter' | 'retires'>,
): Uint8Array {
  const header = parseFirmwareImageHeader(image);
  return signFirmwareManifest(
    {
      deviceType: header.deviceType,
      version: header.version,
      imageSize: image.length,
      imageSha256: sha256Hex(image),
      securityCounter: signing.securityCounter ?? 0,
      retires: signing.retires ?? [],
    },
    signing.releaseKeyPem,
  );
}

export function buildFirmwareBundle(input: FirmwareBundleInput): Uint8Array {
  const imageName = input.imageName ?? 'application.bin';
  const imageSha256 = sha256Hex(input.image);
  const manifest: BundleManifest = {
    format: FIRMWARE_BUNDLE_FORMAT,
    deviceType: input.deviceType,
    version: input.version,
    images: [{ name: imageName, size: input.image.length, sha256: imageSha256 }],
  };
  const signed = signFirmwareImage(input.image, input);
  // Fixed mtime so the same inputs always give the same zip (and the same bundle hash): Ed25519
  // signatures are deterministic too.
  return zipSync(
    {
      [MANIFEST_FILE]: strToU8(JSON.stringify(manifest, null, 2)),
      [imageName]: input.image,
      [SIGNED_MANIFEST_FILE]: signed,
    },
    { level: 6, mtime: new Date('2020-01-01T00:00:00Z') },
  );
}

function fail(code: string, message: string): never {
  throw new FileFormatError(code, message);
}

/**
 * Opens a bundle and checks everything a technician would want checked before a device is touched:
 * the manifest, the image's size and SHA-256, that its header names the same type and version, and,
 * when given, the type and version expected.
 */
export function readFirmwareBundle(
  zip: Uint8Array,
  expect: { deviceType?: string; version?: string } = {},
): FirmwareBundle {
  // Sizes, counts and ratios from the central directory first: a zip bomb fails before it inflates.
  checkZipLimits(zip, FIRMWARE_BUNDLE_LIMITS);
  let files: Record<string, Uint8Array>;
  try {
    files = unzipSync(zip);
  } catch {
    fail('FW_BAD_BUNDLE', 'The firmware file is not a valid zip bundle. Download it again.');
  }
  const manifestBytes = files[MANIFEST_FILE] ?? fail('FW_BAD_BUNDLE', 'The firmware bundle has no manifest.json.');
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(strFromU8(manifestBytes));
  } catch {
    fail('FW_BAD_BUNDLE', 'The firmware bundle manifest.json is not valid JSON.');
  }
  const parsed = bundleManifestSchema.safeParse(manifestJson);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    fail(
      'FW_BAD_BUNDLE',
      `The firmware bundle manifest is not valid: ${issue?.path.join('.') || 'manifest'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  const manifest = parsed.data;
  const entry = manifest.images[0]!;
  const listed = new Set([
    MANIFEST_FILE,
    entry.name,
    ...(manifest.format === FIRMWARE_BUNDLE_FORMAT ? [SIGNED_MANIFEST_FILE] : []),
  ]);
  const extra = Object.keys(files).filter((name) => !listed.has(name));
  if (extra.length > 0)
    fail('FW_BAD_BUNDLE', `The firmware bundle holds files its manifest does not list: ${extra.join(', ')}.`);
  const image =
    files[entry.name] ??
    fail('FW_BAD_BUNDLE', `The firmware bundle lacks the image ${entry.name} that its manifest lists.`);
  if (image.length !== entry.size) {
    fail(
      'FW_SIZE_MISMATCH',
      `The image ${entry.name} is ${image.length} bytes but the manifest says ${entry.size}. The bundle is damaged.`,
    );
  }
  const imageSha256 = sha256Hex(image);
  if (imageSha256 !== entry.sha256)
    fail(
      'FW_HASH_MISMATCH',
      `The image ${entry.name} does not match its SHA-256 in the manifest. The bundle is damaged.`,
    );
  const header = parseFirmwareImageHeader(image);
  if (header.deviceType !== manifest.deviceType || header.version !== manifest.version) {
    fail(
      'FW_BAD_BUNDLE',
      `The image is built for ${header.deviceType} ${header.version} but the manifest says ${manifest.deviceType} ${manifest.version}.`,
    );
  }
  if (expect.deviceType !== undefined && manifest.deviceType !== expect.deviceType) {
    fail('FW_WRONG_TYPE', `This firmware is for ${manifest.deviceType} devices, not ${expect.deviceType}.`);
  }
  if (expect.version !== undefined && manifest.version !== expect.version) {
    fail('FW_WRONG_VERSION', `This bundle holds version ${manifest.version}, not ${expect.version}.`);
  }
  // A missing signed manifest is not a damaged bundle: it is refused as unsigned where signatures are checked.
  const signedBytes = files[SIGNED_MANIFEST_FILE];
  let signed: SignedFirmwareManifest | null = null;
  if (signedBytes !== undefined) {
    signed = readSignedFirmwareManifest(signedBytes);
    checkFirmwareManifest(signed.manifest, {
      image: { size: image.length, sha256: imageSha256, deviceType: manifest.deviceType, version: manifest.version },
    });
  }
  return {
    manifest,
    deviceType: manifest.deviceType,
    version: manifest.version,
    image,
    imageName: entry.name,
    imageSha256,
    bundleSha256: sha256Hex(zip),
    signed,
  };
}

/**
 * The bundle's signature checked against a keyring: signed at all (FW_UNSIGNED), by a key not
 * retired (FW_KEY_RETIRED) and trusted (FW_UNTRUSTED_KEY), and the signature verifies
 * (FW_BAD_SIGNATURE). Returns the manifest and the key that signed it.
 */
export function verifyFirmwareBundleSignature(
  bundle: FirmwareBundle,
  keyring: ReleaseKeyring,
): VerifiedFirmwareManifest {
  if (bundle.signed === null) {
    fail(
      'FW_UNSIGNED',
      `The firmware bundle ${bundle.deviceType} ${bundle.version} is not signed with a release key; devices refuse it.`,
    );
  }
  return verifySignedFirmwareManifest(bundle.signed.bytes, keyring);
}
