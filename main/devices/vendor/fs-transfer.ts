import {
  decodeFsMetadata,
  encodeFsMetadata,
  fsMetadataOf,
  FS_METADATA_COMPUTED,
  VENDOR_CONTENT_FORMAT,
  VENDOR_RESOURCE,
  type FsMetadata,
} from '../../../protocol/vendor';
import { MAX_BLOCK_SIZE } from '../../../protocol/constants';
import { CODE } from '../../../protocol/coap/parameters';
import { uploadBlock1 } from '../coap/block1';
import { downloadBlock2 } from '../coap/block2';
import { DeviceError, DeviceProtocolError, DeviceVerificationError } from '../errors';
import { isLinkLoss } from '../operations/link-loss';
import type { DeviceSession } from '../session';
import { vendorGet, vendorPost } from './requests';

/**
 * The FRC's file transfer (vendor spec §6.1): select a file by name (POST fs/data), say what is
 * coming (POST fs/metadata: start, length, CRC-32), send it (Block1 POST fs/data), and check what
 * the device computed over what it stored (GET fs/metadata?computed).
 *
 * Faster than the vendor's tool within what the device takes: block 0 asks for 1024-byte blocks
 * (SZX 6); a device that answers 2.31 with a smaller SZX, or 4.13 with one, gets that size from
 * then on (RFC 7959 §2.5, uploadBlock1). One block is in flight at a time: nothing a vendor device
 * says proves it keeps blocks that arrive ahead of their turn (docs/vendor-devices.md).
 */

export interface FsUploadOptions {
  signal?: AbortSignal;
  /** Largest block asked for in block 0. Default 1024; 64 is the vendor tool's. */
  blockSize?: number;
  /** Bytes acknowledged so far of this file. */
  onProgress?: (acknowledged: number) => void;
  /** The file is sent again after `error` (a mismatch in ?computed, a damaged answer). */
  onRetry?: (error: unknown) => void;
}

export interface FsUploadResult {
  /** The block size the device kept us to. */
  blockSize: number;
  /** True when the device already held exactly this file (a resume after a pulled cable): nothing was sent. */
  alreadyThere: boolean;
}

async function select(session: DeviceSession, name: string, signal: AbortSignal | undefined): Promise<void> {
  await vendorPost(session, VENDOR_RESOURCE.fsData, new TextEncoder().encode(name), {
    contentFormat: VENDOR_CONTENT_FORMAT.text,
    signal,
    step: `selecting file ${name}`,
  });
}

/** What the device computes over the selected file as it holds it. */
async function computedMetadata(
  session: DeviceSession,
  name: string,
  signal: AbortSignal | undefined,
): Promise<FsMetadata> {
  const step = `checking file ${name} (fs/metadata?computed)`;
  const response = await vendorGet(session, `${VENDOR_RESOURCE.fsMetadata}?${FS_METADATA_COMPUTED}`, { signal, step });
  try {
    return decodeFsMetadata(response.message.payload);
  } catch (error) {
    throw new DeviceProtocolError(session.context(step), (error as Error).message);
  }
}

/**
 * The device's own length and CRC-32 of a file it holds (the vendor menu's "compute on-device
 * metadata"); a file it does not hold (4.04) reads as empty.
 */
export async function fileMetadata(session: DeviceSession, name: string, signal?: AbortSignal): Promise<FsMetadata> {
  try {
    await select(session, name, signal);
    return await computedMetadata(session, name, signal);
  } catch (error) {
    if (error instanceof DeviceError && error.coapCode === CODE.NOT_FOUND) return { start: 0, length: 0, crc32: 0 };
    throw error;
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}

/**
 * How often one file is sent before its mismatch is the job's failure. The vendor's USB frames carry
 * no CRC: a damaged block is stored as it arrived and shows only in ?computed, and a damaged answer
 * may be one the exchange cannot use. Either way the file starts over (docs/vendor-devices.md).
 */
export const FS_UPLOAD_ATTEMPTS = 3;

/**
 * Uploads `data` as file `name` and checks the device's computed length and CRC-32. A device that
 * already holds the very same file (length and CRC-32) is not sent it again: after a pulled cable
 * the components that went whole are skipped and the one that was cut short starts over. A file
 * the device computed otherwise, or whose exchange broke on a damaged answer, is sent again, up to
 * FS_UPLOAD_ATTEMPTS times; a lost link is the caller's to resume.
 */
export async function uploadFile(
  session: DeviceSession,
  name: string,
  data: Uint8Array,
  options: FsUploadOptions = {},
): Promise<FsUploadResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await uploadFileOnce(session, name, data, options);
    } catch (error) {
      if (attempt >= FS_UPLOAD_ATTEMPTS || options.signal?.aborted || isLinkLoss(error)) throw error;
      options.onRetry?.(error);
    }
  }
}

async function uploadFileOnce(
  session: DeviceSession,
  name: string,
  data: Uint8Array,
  options: FsUploadOptions,
): Promise<FsUploadResult> {
  const { signal } = options;
  const expected = fsMetadataOf(data);
  const held = await fileMetadata(session, name, signal);
  if (held.length === expected.length && held.crc32 === expected.crc32 && data.length > 0) {
    options.onProgress?.(data.length);
    return { blockSize: 0, alreadyThere: true };
  }
  await vendorPost(session, VENDOR_RESOURCE.fsMetadata, encodeFsMetadata(expected), {
    signal,
    step: `announcing file ${name} (${data.length} bytes)`,
  });
  const { blockSize } = await uploadBlock1(session.engine, {
    path: VENDOR_RESOURCE.fsData,
    method: CODE.POST,
    data,
    blockSize: options.blockSize ?? MAX_BLOCK_SIZE,
    window: 1,
    what: `file ${name}`,
    signal,
    onProgress: options.onProgress,
  });
  const computed = await computedMetadata(session, name, signal);
  if (computed.length !== expected.length || computed.crc32 !== expected.crc32) {
    throw new DeviceVerificationError(
      'FS_FILE_MISMATCH',
      session.context(`checking file ${name}`),
      `the device holds ${computed.length} bytes with CRC-32 ${hex(computed.crc32)} for ${name}, not the ${expected.length} bytes with CRC-32 ${hex(expected.crc32)} sent`,
    );
  }
  return { blockSize, alreadyThere: false };
}

/** Reads file `name` back (Block2 GET fs/data), checked against the device's computed metadata; null when it holds none. */
export async function downloadFile(
  session: DeviceSession,
  name: string,
  options: { signal?: AbortSignal; maxBytes?: number } = {},
): Promise<Uint8Array | null> {
  try {
    return await downloadFileOnce(session, name, options);
  } catch (error) {
    // A damaged block (no CRC on the vendor's USB frames) shows as a CRC mismatch: read it once more.
    if (!(error instanceof DeviceProtocolError) || options.signal?.aborted) throw error;
    return downloadFileOnce(session, name, options);
  }
}

async function downloadFileOnce(
  session: DeviceSession,
  name: string,
  options: { signal?: AbortSignal; maxBytes?: number },
): Promise<Uint8Array | null> {
  const metadata = await fileMetadata(session, name, options.signal);
  if (metadata.length === 0) return null;
  const step = `reading file ${name}`;
  const { payload } = await downloadBlock2(session.engine, {
    path: VENDOR_RESOURCE.fsData,
    blockSize: MAX_BLOCK_SIZE,
    step,
    signal: options.signal,
    maxBytes: options.maxBytes ?? 64 * 1024,
  });
  const got = fsMetadataOf(payload);
  if (got.length !== metadata.length || got.crc32 !== metadata.crc32) {
    throw new DeviceProtocolError(
      session.context(step),
      `${name} came back as ${got.length} bytes with CRC-32 ${hex(got.crc32)}, not the ${metadata.length} bytes with ${hex(metadata.crc32)} the device computed`,
    );
  }
  return payload;
}
