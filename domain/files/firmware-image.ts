import { opensWith, writeOpening, type BinaryOpening } from './binary-opening';
import { FileFormatError } from './file-error';

/**
 * Every firmware image starts with a 64-byte header so that a device can refuse an image built for
 * another type before it writes anything, and report the version it runs after the apply.
 *
 *   0  magic "PVFW"
 *   4  header version, 1
 *   5  3 bytes zero
 *   8  device type, ASCII, NUL-padded to 8 bytes
 *  16  firmware version, ASCII, NUL-padded to 32 bytes
 *  48  body length (bytes after the header), uint32 little-endian
 *  52  12 bytes zero
 */
const FIRMWARE_IMAGE_OPENING: BinaryOpening = { magic: 'PVFW', version: 1 };
export const FIRMWARE_IMAGE_HEADER_SIZE = 64;

export interface FirmwareImageHeader {
  deviceType: string;
  version: string;
  bodyLength: number;
}

function writeAscii(target: Uint8Array, offset: number, width: number, value: string, what: string): void {
  if (!/^[\x20-\x7e]*$/.test(value) || value.length === 0 || value.length > width) {
    throw new FileFormatError(
      'FW_BAD_HEADER',
      `The ${what} "${value}" must be 1 to ${width} printable ASCII characters.`,
    );
  }
  for (let i = 0; i < value.length; i++) target[offset + i] = value.charCodeAt(i);
}

function readAscii(source: Uint8Array, offset: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    const c = source[offset + i]!;
    if (c === 0) break;
    out += String.fromCharCode(c);
  }
  return out;
}

export function encodeFirmwareImageHeader(header: FirmwareImageHeader): Uint8Array {
  const out = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE);
  writeOpening(out, FIRMWARE_IMAGE_OPENING);
  writeAscii(out, 8, 8, header.deviceType, 'device type');
  writeAscii(out, 16, 32, header.version, 'firmware version');
  new DataView(out.buffer).setUint32(48, header.bodyLength, true);
  return out;
}

export function parseFirmwareImageHeader(image: Uint8Array): FirmwareImageHeader {
  if (image.length < FIRMWARE_IMAGE_HEADER_SIZE || !opensWith(image, FIRMWARE_IMAGE_OPENING)) {
    throw new FileFormatError(
      'FW_BAD_HEADER',
      'This is not a firmware image for these devices (its header is missing or unknown).',
    );
  }
  const bodyLength = new DataView(image.buffer, image.byteOffset, image.byteLength).getUint32(48, true);
  return { deviceType: readAscii(image, 8, 8), version: readAscii(image, 16, 32), bodyLength };
}

/**
 * A valid image with a deterministic pseudo-random body, for test bundles, the demo seed and the
 * simulator. Random-looking bytes make SLIP escaping cost what it costs on real images.
 */
export function makeFirmwareImage(deviceType: string, version: string, bodyLength: number): Uint8Array {
  const image = new Uint8Array(FIRMWARE_IMAGE_HEADER_SIZE + bodyLength);
  image.set(encodeFirmwareImageHeader({ deviceType, version, bodyLength }));
  let state = 0x9e3779b9;
  for (const c of `${deviceType}/${version}`) state = Math.imul(state ^ c.charCodeAt(0), 0x01000193) >>> 0;
  for (let i = FIRMWARE_IMAGE_HEADER_SIZE; i < image.length; i++) {
    // xorshift32: cheap and repeatable.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    image[i] = state & 0xff;
  }
  return image;
}
