import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { SYNC_ID_HEADER } from '../../domain/config-file-download';
import { FIRMWARE_BUNDLE_LIMITS } from '../../domain/files/zip-limits';
import { writeStreamAtomic } from '../../platform/durable-file';
import type { DownloadBody } from './http';

/** What a finished download left on disk, with the headers that matter to the caller. */
export interface DownloadedFile {
  path: string;
  size: number;
  /** SHA-256 (hex) of the bytes written, computed while streaming. */
  sha256: string;
  contentType: string | undefined;
  /** The file name the service suggested in Content-Disposition, if any. */
  fileName: string | undefined;
  /** `X-Config-File-Sync-Id`, present on configuration file downloads. */
  syncId: string | undefined;
  headers: Headers;
}

export interface DownloadTarget {
  /** The final path. Written as a temp file beside it and renamed, so a half download never sits there. */
  path: string;
  /** Bytes received so far, for progress displays. */
  onProgress?: (received: number, total: number | undefined) => void;
  /** Largest body taken; default MAX_DOWNLOAD_BYTES. */
  maxBytes?: number;
}

/**
 * The largest file the service serves is a firmware bundle, and a bundle larger than its limit is
 * refused when opened anyway: a body past that is a broken or hostile server, not a file to keep.
 */
export const MAX_DOWNLOAD_BYTES = FIRMWARE_BUNDLE_LIMITS.maxZipBytes;

/** A body larger than the limit: refused from its Content-Length, or stopped once it passed the limit. */
export class DownloadTooLargeError extends Error {
  override readonly name = 'DownloadTooLargeError';
  constructor(
    readonly maxBytes: number,
    /** The Content-Length the service declared, when that was what gave it away. */
    readonly declaredBytes: number | undefined,
  ) {
    super(
      declaredBytes !== undefined
        ? `The service offered a file of ${declaredBytes} bytes; at most ${maxBytes} are taken, so it was not downloaded.`
        : `The download went past ${maxBytes} bytes, the most taken; it was stopped and nothing was kept.`,
    );
  }
}

function declaredLength(headers: Headers): number | undefined {
  const value = headers.get('content-length');
  return value !== null && /^\d+$/.test(value) ? Number(value) : undefined;
}

/** Refuses a body whose Content-Length is above `maxBytes` before anything of it is read. */
function refuseDeclaredTooLarge(headers: Headers, maxBytes: number): void {
  const declared = declaredLength(headers);
  if (declared !== undefined && declared > maxBytes) throw new DownloadTooLargeError(maxBytes, declared);
}

/**
 * The chunks, cut off as soon as what arrived passes `maxBytes` (the next read never happens): a
 * server may send more than it declared, or declare nothing.
 */
async function* boundedChunks(chunks: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  let received = 0;
  for await (const chunk of chunks) {
    received += chunk.length;
    if (received > maxBytes) throw new DownloadTooLargeError(maxBytes, undefined);
    yield chunk;
  }
}

export function fileNameFromDisposition(value: string | null): string | undefined {
  if (!value) return undefined;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(value);
  if (star?.[1]) {
    try {
      return basename(decodeURIComponent(star[1].trim().replace(/^"|"$/g, '')));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(value);
  return plain?.[1] ? basename(plain[1].trim()) : undefined;
}

/**
 * Stream a response body to `target.path`: temp file in the same directory, fsync, rename, fsync
 * the directory. A failure part way (network, disk, a body past the limit) removes the temp file
 * and leaves any older file at the path untouched.
 */
export async function saveBody(body: DownloadBody, target: DownloadTarget): Promise<DownloadedFile> {
  const maxBytes = target.maxBytes ?? MAX_DOWNLOAD_BYTES;
  refuseDeclaredTooLarge(body.headers, maxBytes);
  const total = declaredLength(body.headers);
  const hash = createHash('sha256');
  let size = 0;
  await writeStreamAtomic(target.path, boundedChunks(body.chunks, maxBytes), (chunk) => {
    hash.update(chunk);
    size += chunk.length;
    target.onProgress?.(size, total);
  });
  return {
    path: target.path,
    size,
    sha256: hash.digest('hex'),
    contentType: body.headers.get('content-type') ?? undefined,
    fileName: fileNameFromDisposition(body.headers.get('content-disposition')),
    syncId: body.headers.get(SYNC_ID_HEADER) ?? undefined,
    headers: body.headers,
  };
}

/** Collect a (small) body in memory, for callers that verify it before it touches the disk. */
export async function collectBody(
  body: DownloadBody,
  options: { maxBytes?: number } = {},
): Promise<{ bytes: Uint8Array; headers: Headers; syncId: string | undefined }> {
  const maxBytes = options.maxBytes ?? MAX_DOWNLOAD_BYTES;
  refuseDeclaredTooLarge(body.headers, maxBytes);
  const parts: Uint8Array[] = [];
  for await (const chunk of boundedChunks(body.chunks, maxBytes)) parts.push(chunk);
  const joined = Buffer.concat(parts);
  const bytes = new Uint8Array(joined.buffer, joined.byteOffset, joined.byteLength);
  return { bytes, headers: body.headers, syncId: body.headers.get(SYNC_ID_HEADER) ?? undefined };
}
