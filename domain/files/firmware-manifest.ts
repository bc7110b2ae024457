import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { opensWith, writeOpening, type BinaryOpening } from './binary-opening';
import { FileFormatError } from './file-error';
import {
  RELEASE_KEY_ID_BYTES,
  releaseKeyPairFromPrivateKey,
  type ReleaseKey,
  type ReleaseKeyring,
} from './firmware-release-key';

/**
 * The firmware manifest: what the owner of a release key vouches for about one image. A device
 * takes an image only with a manifest signed by a release key it trusts (docs/device-protocol.md
 * section 8.3). The layout is fixed binary, little-endian, so that a bootloader checks it with
 * offsets and memcmp instead of a parser:
 *
 *     0   4  magic "PVFM"
 *     4   1  layout version, 1
 *     5   1  n: number of retired key ids, 0 to 8
 *     6   2  zero
 *     8   8  device type, ASCII, NUL-padded
 *    16  32  firmware version, ASCII, NUL-padded
 *    48   4  image size in bytes, uint32
 *    52   4  security counter, uint32
 *    56  32  SHA-256 of the whole image
 *    88  16  key id of the release key that signs this manifest
 *   104  16n key ids this manifest retires
 *
 * The signed manifest is those 104 + 16n bytes followed by the 64-byte Ed25519 signature (RFC 8032,
 * pure Ed25519) of exactly those bytes.
 */

const FIRMWARE_MANIFEST_OPENING: BinaryOpening = { magic: 'PVFM', version: 1 };
/** The bytes before the retired key ids. */
export const FIRMWARE_MANIFEST_FIXED_SIZE = 104;
export const FIRMWARE_MANIFEST_MAX_RETIRED = 8;
export const FIRMWARE_SIGNATURE_SIZE = 64;
const UINT32_MAX = 0xffff_ffff;
const KEY_ID = /^[0-9a-f]{32}$/;

export interface FirmwareManifest {
  deviceType: string;
  version: string;
  imageSize: number;
  /** SHA-256 of the whole image (header included), 64 lower-case hex digits. */
  imageSha256: string;
  /**
   * Anti-rollback: a device refuses an image whose counter is below the highest counter it has
   * applied. Raised for a release that fixes a vulnerability, not for every version.
   */
  securityCounter: number;
  /** The release key that signs this manifest. */
  keyId: string;
  /** Release keys no longer to be trusted once this image is applied (on a device) or imported (by the service). */
  retires: string[];
}

/** A signed manifest taken apart (not yet verified: see verifySignedFirmwareManifest). */
export interface SignedFirmwareManifest {
  manifest: FirmwareManifest;
  /** The signed manifest as it travels: manifest bytes, then signature. */
  bytes: Uint8Array;
}

/** Who signed a manifest that verified. */
export interface VerifiedFirmwareManifest extends SignedFirmwareManifest {
  key: ReleaseKey;
}

function malformed(detail: string): FileFormatError {
  return new FileFormatError('FW_BAD_SIGNATURE', `The firmware's signed manifest is not valid: ${detail}.`);
}

function writeAscii(target: Uint8Array, offset: number, width: number, value: string, what: string): void {
  if (!/^[\x21-\x7e]+$/.test(value) || value.length > width)
    throw malformed(`the ${what} "${value}" must be 1 to ${width} printable ASCII characters`);
  for (let i = 0; i < value.length; i++) target[offset + i] = value.charCodeAt(i);
}

/** NUL-padded text; the padding must be all zero, so that one manifest has one encoding. */
function readAscii(source: Uint8Array, offset: number, width: number, what: string): string {
  let out = '';
  let ended = false;
  for (let i = 0; i < width; i++) {
    const c = source[offset + i]!;
    if (c === 0) ended = true;
    else if (ended || c < 0x21 || c > 0x7e) throw malformed(`its ${what} is not NUL-padded printable ASCII`);
    else out += String.fromCharCode(c);
  }
  if (out.length === 0) throw malformed(`its ${what} is empty`);
  return out;
}

function hexBytes(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, 'hex'));
}

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

export function encodeFirmwareManifest(manifest: FirmwareManifest): Uint8Array {
  const { retires } = manifest;
  if (retires.length > FIRMWARE_MANIFEST_MAX_RETIRED)
    throw malformed(`it retires ${retires.length} keys, at most ${FIRMWARE_MANIFEST_MAX_RETIRED} fit`);
  for (const id of [manifest.keyId, ...retires])
    if (!KEY_ID.test(id)) throw malformed(`"${id}" is not a key id (32 hex digits)`);
  if (retires.includes(manifest.keyId)) throw malformed('it retires the key that signs it');
  if (new Set(retires).size !== retires.length) throw malformed('it retires a key twice');
  if (!/^[0-9a-f]{64}$/.test(manifest.imageSha256))
    throw malformed('the image SHA-256 must be 64 lower-case hex digits');
  for (const [what, value] of [
    ['image size', manifest.imageSize],
    ['security counter', manifest.securityCounter],
  ] as const) {
    if (!Number.isInteger(value) || value < 0 || value > UINT32_MAX)
      throw malformed(`the ${what} ${value} is not a 32-bit unsigned integer`);
  }
  const out = new Uint8Array(FIRMWARE_MANIFEST_FIXED_SIZE + RELEASE_KEY_ID_BYTES * retires.length);
  const view = new DataView(out.buffer);
  writeOpening(out, FIRMWARE_MANIFEST_OPENING);
  out[5] = retires.length;
  writeAscii(out, 8, 8, manifest.deviceType, 'device type');
  writeAscii(out, 16, 32, manifest.version, 'firmware version');
  view.setUint32(48, manifest.imageSize, true);
  view.setUint32(52, manifest.securityCounter, true);
  out.set(hexBytes(manifest.imageSha256), 56);
  out.set(hexBytes(manifest.keyId), 88);
  retires.forEach((id, i) => out.set(hexBytes(id), FIRMWARE_MANIFEST_FIXED_SIZE + RELEASE_KEY_ID_BYTES * i));
  return out;
}

/** The manifest bytes exactly as encodeFirmwareManifest writes them; anything else is refused. */
export function decodeFirmwareManifest(bytes: Uint8Array): FirmwareManifest {
  if (bytes.length < FIRMWARE_MANIFEST_FIXED_SIZE)
    throw malformed(`it is ${bytes.length} bytes, shorter than the ${FIRMWARE_MANIFEST_FIXED_SIZE}-byte layout`);
  if (!opensWith(bytes, FIRMWARE_MANIFEST_OPENING)) {
    throw malformed('its magic or layout version is unknown');
  }
  const count = bytes[5]!;
  if (count > FIRMWARE_MANIFEST_MAX_RETIRED)
    throw malformed(`it claims ${count} retired keys, at most ${FIRMWARE_MANIFEST_MAX_RETIRED} are allowed`);
  if (bytes[6] !== 0 || bytes[7] !== 0) throw malformed('its reserved bytes are not zero');
  if (bytes.length !== FIRMWARE_MANIFEST_FIXED_SIZE + RELEASE_KEY_ID_BYTES * count)
    throw malformed(`its length ${bytes.length} does not match its ${count} retired keys`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const retires: string[] = [];
  for (let i = 0; i < count; i++) {
    const at = FIRMWARE_MANIFEST_FIXED_SIZE + RELEASE_KEY_ID_BYTES * i;
    retires.push(hexOf(bytes.subarray(at, at + RELEASE_KEY_ID_BYTES)));
  }
  const manifest: FirmwareManifest = {
    deviceType: readAscii(bytes, 8, 8, 'device type'),
    version: readAscii(bytes, 16, 32, 'firmware version'),
    imageSize: view.getUint32(48, true),
    securityCounter: view.getUint32(52, true),
    imageSha256: hexOf(bytes.subarray(56, 88)),
    keyId: hexOf(bytes.subarray(88, 104)),
    retires,
  };
  if (retires.includes(manifest.keyId)) throw malformed('it retires the key that signs it');
  if (new Set(retires).size !== retires.length) throw malformed('it retires a key twice');
  return manifest;
}

/** Signs a manifest with a release key; the key id in the manifest is the signing key's. */
export function signFirmwareManifest(manifest: Omit<FirmwareManifest, 'keyId'>, privateKeyPem: string): Uint8Array {
  const { keyId } = releaseKeyPairFromPrivateKey(privateKeyPem);
  const body = encodeFirmwareManifest({ ...manifest, keyId });
  const signature = sign(null, body, createPrivateKey(privateKeyPem));
  const out = new Uint8Array(body.length + FIRMWARE_SIGNATURE_SIZE);
  out.set(body);
  out.set(signature, body.length);
  return out;
}

/** Splits a signed manifest into manifest and signature and decodes the manifest; verifies nothing. */
export function readSignedFirmwareManifest(
  bytes: Uint8Array,
): SignedFirmwareManifest & { signedPart: Uint8Array; signature: Uint8Array } {
  if (bytes.length < FIRMWARE_MANIFEST_FIXED_SIZE + FIRMWARE_SIGNATURE_SIZE)
    throw malformed(`it is ${bytes.length} bytes, too short to hold a manifest and its signature`);
  const signedPart = bytes.subarray(0, bytes.length - FIRMWARE_SIGNATURE_SIZE);
  return {
    manifest: decodeFirmwareManifest(signedPart),
    bytes,
    signedPart,
    signature: bytes.subarray(signedPart.length),
  };
}

/**
 * What a device does before it takes a single block, and what the service and the host do before
 * they accept or send an image: the manifest is well-formed, its key is not retired, its key is
 * trusted, and the signature verifies with that key. Throws FileFormatError with FW_BAD_SIGNATURE,
 * FW_KEY_RETIRED or FW_UNTRUSTED_KEY.
 */
export function verifySignedFirmwareManifest(bytes: Uint8Array, keyring: ReleaseKeyring): VerifiedFirmwareManifest {
  const { manifest, signedPart, signature } = readSignedFirmwareManifest(bytes);
  if (keyring.retiredKeyIds.includes(manifest.keyId)) {
    throw new FileFormatError(
      'FW_KEY_RETIRED',
      `The firmware is signed by release key ${manifest.keyId}, which a later release retired.`,
    );
  }
  const key = keyring.keys.find((k) => k.keyId === manifest.keyId);
  if (!key)
    throw new FileFormatError(
      'FW_UNTRUSTED_KEY',
      `The firmware is signed by release key ${manifest.keyId}, which is not trusted here.`,
    );
  if (!verify(null, signedPart, createPublicKey(key.publicKeyPem), signature)) {
    throw new FileFormatError(
      'FW_BAD_SIGNATURE',
      `The firmware manifest's signature does not verify with release key ${key.name} (${key.keyId}).`,
    );
  }
  return { manifest, bytes, key };
}

/**
 * Whether a manifest describes exactly this image and, when given, this device: the image's size and
 * SHA-256 are the signed ones (FW_BAD_SIGNATURE otherwise: the image is not what was signed), the type
 * is the device's (FW_WRONG_TYPE) and the counter is not below its floor (FW_ROLLBACK).
 */
export function checkFirmwareManifest(
  manifest: FirmwareManifest,
  against: {
    image?: { size: number; sha256: string; deviceType: string; version: string };
    deviceType?: string;
    securityCounterFloor?: number;
  },
): void {
  const { image } = against;
  if (
    image &&
    (image.size !== manifest.imageSize ||
      image.sha256 !== manifest.imageSha256 ||
      image.deviceType !== manifest.deviceType ||
      image.version !== manifest.version)
  ) {
    throw new FileFormatError(
      'FW_BAD_SIGNATURE',
      `The signed manifest is for ${manifest.deviceType} ${manifest.version} (${manifest.imageSize} bytes, SHA-256 ${manifest.imageSha256.slice(0, 12)}…), ` +
        `not for this image (${image.deviceType} ${image.version}, ${image.size} bytes, SHA-256 ${image.sha256.slice(0, 12)}…): it was changed after it was signed.`,
    );
  }
  if (against.deviceType !== undefined && manifest.deviceType !== against.deviceType) {
    throw new FileFormatError(
      'FW_WRONG_TYPE',
      `This firmware is signed for ${manifest.deviceType} devices, not ${against.deviceType}.`,
    );
  }
  if (against.securityCounterFloor !== undefined && manifest.securityCounter < against.securityCounterFloor) {
    throw new FileFormatError(
      'FW_ROLLBACK',
      `This firmware's security counter is ${manifest.securityCounter}; the device has applied counter ${against.securityCounterFloor} and takes nothing older.`,
    );
  }
}
