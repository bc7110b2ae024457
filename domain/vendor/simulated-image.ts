import { parseFirmwareImageHeader } from '../files/firmware-image';

/**
 * The vendor's devices check nothing we know of in a firmware file (vendor spec §7), so a simulated
 * vendor device cannot learn its new version from a signature or manifest. Our convention for
 * simulated images: the file starts with the line `SIMULATED-VENDOR-IMAGE <version>\n`; the device
 * runs that version after installing it (our image header names one too, below). Any other file is installed too (the device
 * accepts any file) and leaves the version as it was. Real images are untouched by this: the host
 * checks our signed manifest before sending, whatever the file holds.
 */
export const SIMULATED_IMAGE_MAGIC = 'SIMULATED-VENDOR-IMAGE ';

const VERSION = /^[0-9A-Za-z.+_-]{1,32}$/;

/** An image of `size` bytes (at least the header) announcing `version`; filler is deterministic. */
export function simulatedVendorImage(version: string, size = 4096): Uint8Array {
  if (!VERSION.test(version))
    throw new RangeError(
      `A simulated image version is 1 to 32 letters, digits, '.', '+', '_' or '-', not "${version}".`,
    );
  const header = new TextEncoder().encode(`${SIMULATED_IMAGE_MAGIC}${version}\n`);
  const image = new Uint8Array(Math.max(size, header.length));
  image.set(header);
  for (let i = header.length; i < image.length; i++) image[i] = (i * 31 + 7) % 251;
  return image;
}

/**
 * The version a simulated image announces, or undefined for any other file. Our own image header
 * (domain/files/firmware-image.ts: the demo's releases and the simulator's images) names a version
 * too: a simulated vendor device takes it, so the local workspace's firmware installs on one.
 */
export function simulatedImageVersion(image: Uint8Array): string | undefined {
  return vendorMagicVersion(image) ?? ourHeaderVersion(image);
}

function ourHeaderVersion(image: Uint8Array): string | undefined {
  try {
    const { version } = parseFirmwareImageHeader(image);
    return VERSION.test(version) ? version : undefined;
  } catch {
    return undefined;
  }
}

function vendorMagicVersion(image: Uint8Array): string | undefined {
  const head = new TextDecoder('latin1').decode(image.subarray(0, SIMULATED_IMAGE_MAGIC.length + 34));
  if (!head.startsWith(SIMULATED_IMAGE_MAGIC)) return undefined;
  const end = head.indexOf('\n', SIMULATED_IMAGE_MAGIC.length);
  if (end < 0) return undefined;
  const version = head.slice(SIMULATED_IMAGE_MAGIC.length, end);
  return VERSION.test(version) ? version : undefined;
}
