/**
 * The vendor's "fake CBOR": some FRC resources (radioChannel, radioPower, joystick/keypad period,
 * legacy length/crc) answer with Content-Format 60 but a raw little-endian integer of 1 to 4
 * bytes. The width is the device's choice; we send the fewest bytes that hold the value. For
 * negative values (radioPower in dBm) the encoding is not public; we send two's complement in the
 * fewest bytes and a reader that knows the resource is signed reads it so (decodeRawInt).
 */

export function encodeRawUint(value: number): Uint8Array {
  if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
    throw new RangeError(`A raw unsigned integer is 0 to 4294967295, not ${value}.`);
  const width = value <= 0xff ? 1 : value <= 0xffff ? 2 : 4;
  return littleEndian(value, width);
}

export function encodeRawInt(value: number): Uint8Array {
  if (value >= 0) return encodeRawUint(value);
  if (!Number.isInteger(value) || value < -0x80000000)
    throw new RangeError(`A raw signed integer is -2147483648 to 2147483647, not ${value}.`);
  const width = value >= -0x80 ? 1 : value >= -0x8000 ? 2 : 4;
  return littleEndian(value + 2 ** (8 * width), width);
}

export function decodeRawUint(bytes: Uint8Array): number {
  if (bytes.length < 1 || bytes.length > 4)
    throw new RangeError(`A raw little-endian integer is 1 to 4 bytes, not ${bytes.length}.`);
  let value = 0;
  for (let i = bytes.length - 1; i >= 0; i--) value = value * 256 + bytes[i]!;
  return value;
}

/** Reads the bytes as two's complement of their own width. */
export function decodeRawInt(bytes: Uint8Array): number {
  const value = decodeRawUint(bytes);
  const half = 2 ** (8 * bytes.length - 1);
  return value >= half ? value - 2 * half : value;
}

function littleEndian(value: number, width: number): Uint8Array {
  const bytes = new Uint8Array(width);
  for (let i = 0; i < width; i++) bytes[i] = Math.floor(value / 2 ** (8 * i)) % 256;
  return bytes;
}
