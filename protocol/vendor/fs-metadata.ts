import { crc32 } from 'node:zlib';

/** `fs/metadata`'s 12 bytes: u32 LE start, length, CRC-32 of the file (vendor spec §6.1). */
export interface FsMetadata {
  start: number;
  length: number;
  crc32: number;
}

export const FS_METADATA_SIZE = 12;

/** CRC-32 as the vendor's tool computes it (zlib: IEEE 802.3, reflected, init and xor-out all ones). */
export function vendorCrc32(data: Uint8Array): number {
  return crc32(data) >>> 0;
}

export function fsMetadataOf(data: Uint8Array): FsMetadata {
  return { start: 0, length: data.length, crc32: vendorCrc32(data) };
}

export function encodeFsMetadata(metadata: FsMetadata): Uint8Array {
  for (const [name, value] of Object.entries(metadata)) {
    if (!Number.isInteger(value) || value < 0 || value > 0xffffffff)
      throw new RangeError(`fs/metadata ${name} must be an unsigned 32-bit integer, not ${value}.`);
  }
  const bytes = new Uint8Array(FS_METADATA_SIZE);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, metadata.start, true);
  view.setUint32(4, metadata.length, true);
  view.setUint32(8, metadata.crc32, true);
  return bytes;
}

export function decodeFsMetadata(bytes: Uint8Array): FsMetadata {
  if (bytes.length !== FS_METADATA_SIZE)
    throw new RangeError(
      `fs/metadata is ${FS_METADATA_SIZE} bytes (start, length, CRC-32, each u32 little-endian), not ${bytes.length}.`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  return { start: view.getUint32(0, true), length: view.getUint32(4, true), crc32: view.getUint32(8, true) };
}
