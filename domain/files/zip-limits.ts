import { unzipSync } from 'fflate';
import { FileFormatError } from './file-error';

/**
 * Limits a zip must keep before anything in it is inflated. fflate's unzipSync allocates each
 * entry's output at the size the central directory declares, so a few kilobytes declaring a
 * gigabyte (a zip bomb) would cost a gigabyte; and a directory may list thousands of entries, or
 * the same compressed bytes many times over.
 */
export interface ZipLimits {
  /** Largest zip taken at all. */
  maxZipBytes: number;
  maxEntries: number;
  /** Largest inflated size one entry may declare. */
  maxEntryBytes: number;
  /** Largest inflated size all entries together may declare. */
  maxTotalBytes: number;
  /** Largest inflated : compressed ratio of a deflated entry of more than RATIO_FLOOR_BYTES. */
  maxRatio: number;
}

/** Entries this small may compress as well as they like: a short manifest costs nothing. */
export const RATIO_FLOOR_BYTES = 64 * 1024;

/**
 * A bundle holds manifest.json, one image and its signed manifest. Device image slots hold a few
 * megabytes (the simulator's 8 MiB); machine code deflates to a third or so, padding better, but
 * nowhere near 100:1 over a whole image.
 */
export const FIRMWARE_BUNDLE_LIMITS: ZipLimits = {
  maxZipBytes: 32 * 1024 * 1024,
  maxEntries: 8,
  maxEntryBytes: 16 * 1024 * 1024,
  maxTotalBytes: 32 * 1024 * 1024,
  maxRatio: 100,
};

export interface ZipDirectoryEntry {
  name: string;
  /** Bytes stored in the zip. */
  compressedSize: number;
  /** Bytes once inflated, as the directory declares them. */
  size: number;
  /** 0 stored, 8 deflate. */
  compression: number;
}

const STORED = 0;
const DEFLATE = 8;

class TooManyEntries extends Error {}

/**
 * Reads the central directory only (the same reader unzipSync uses, told to inflate nothing) and
 * checks it against `limits`: FW_BUNDLE_TOO_LARGE for sizes, counts and ratios, FW_BAD_BUNDLE for a
 * zip that is not one or that names an entry twice. Returns the entries when they pass.
 */
export function checkZipLimits(zip: Uint8Array, limits: ZipLimits): ZipDirectoryEntry[] {
  const tooLarge = (detail: string): never => {
    throw new FileFormatError(
      'FW_BUNDLE_TOO_LARGE',
      `The firmware bundle is refused: ${detail}. It is damaged or not a firmware bundle.`,
    );
  };
  const bad = (detail: string): never => {
    throw new FileFormatError(
      'FW_BAD_BUNDLE',
      `The firmware file is not a valid zip bundle (${detail}). Download it again.`,
    );
  };
  if (zip.length > limits.maxZipBytes)
    tooLarge(`it is ${zip.length} bytes, more than the ${limits.maxZipBytes} a bundle may be`);
  const entries: ZipDirectoryEntry[] = [];
  try {
    unzipSync(zip, {
      filter: (file) => {
        entries.push({
          name: file.name,
          compressedSize: file.size,
          size: file.originalSize,
          compression: file.compression,
        });
        // Stops a directory that claims millions of entries before it is walked to the end.
        if (entries.length > limits.maxEntries) throw new TooManyEntries();
        return false;
      },
    });
  } catch (error) {
    if (error instanceof TooManyEntries) tooLarge(`it holds more than ${limits.maxEntries} files`);
    bad('no readable central directory');
  }
  const names = new Set<string>();
  let total = 0;
  for (const entry of entries) {
    // Two entries of one name would leave which one counts to the reader; `__proto__` would not be a file at all.
    if (names.has(entry.name) || entry.name === '__proto__')
      bad(`the name ${JSON.stringify(entry.name)} is listed twice or not a file name`);
    names.add(entry.name);
    if (entry.compression !== STORED && entry.compression !== DEFLATE)
      bad(`${entry.name} uses compression method ${entry.compression}`);
    if (entry.size > limits.maxEntryBytes)
      tooLarge(`${entry.name} declares ${entry.size} bytes inflated, more than ${limits.maxEntryBytes}`);
    total += entry.size;
    if (total > limits.maxTotalBytes) tooLarge(`its files declare more than ${limits.maxTotalBytes} bytes inflated`);
    if (
      entry.compression === DEFLATE &&
      entry.size > RATIO_FLOOR_BYTES &&
      entry.size > entry.compressedSize * limits.maxRatio
    ) {
      tooLarge(
        `${entry.name} inflates ${entry.compressedSize} bytes to ${entry.size}, more than ${limits.maxRatio} times`,
      );
    }
  }
  return entries;
}
