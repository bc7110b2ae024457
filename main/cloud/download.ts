import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { SYNC_ID_HEADER } from '../../domain/config-file-download';
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
 * the directory. A failure part way (network or disk) removes the temp file and leaves any older
 * file at the path untouched.
 */
export async function saveBody(body: DownloadBody, target: DownloadTarget): Promise<DownloadedFile> {
  const lengthHeader = body.headers.get('content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : undefined;
  const hash = createHash('sha256');
  let size = 0;
  await writeStreamAtomic(target.path, body.chunks, (chunk) => {
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
export async function collectBody(body: DownloadBody): Promise<{ bytes: Uint8Array; headers: Headers; syncId: string | undefined }> {
  const collected = await buffer(body.chunks);
  const bytes = new Uint8Array(collected.buffer, collected.byteOffset, collected.byteLength);
  return { bytes, headers: body.headers, syncId: body.headers.get(SYNC_ID_HEADER) ?? undefined };
}
