import { strToU8, zipSync } from 'fflate';
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { FileFormatError } from '../../domain/files/file-error';
import { readFirmwareBundle, SIGNED_MANIFEST_FILE } from '../../domain/files/firmware-bundle';
import { makeFirmwareImage } from '../../domain/files/firmware-image';
import { signedTestBundle } from '../fixtures/release-key';
import { assertFuzz, hostileBytes, mutatedBytes, onlyTypedErrors, withinMemory } from './fuzz-support';

/** Real bundles to start from (made once: signing and zipping each case would be most of the time). */
const bundles = [
  signedTestBundle('EPC', '1.0.0', 300),
  signedTestBundle('NSCP', '10.2.3-rc.1', 1500),
  signedTestBundle('WESP', '3.0.0', 64),
];

/**
 * zipSync cannot be given an entry named `__proto__` (an object key): one named this is renamed in
 * the zip's bytes afterwards, local header and central directory alike.
 */
const PROTO_STAND_IN = '__proto_X';
function withProtoName(zip: Uint8Array): Uint8Array {
  const text = Buffer.from(zip);
  for (let at = text.indexOf(PROTO_STAND_IN); at >= 0; at = text.indexOf(PROTO_STAND_IN, at + 1))
    zip[at + 8] = '_'.charCodeAt(0);
  return zip;
}

/**
 * Zips put together from a bundle's parts: the manifest as it is or mutated, images of other
 * sizes and types, the signed manifest or random bytes in its place, extra and missing entries,
 * stored or deflated.
 */
const assembled = fc
  .record({
    manifest: fc.oneof(
      fc.constant({
        format: 'provisioner-firmware/2',
        deviceType: 'EPC',
        version: '1.0.0',
        images: [{ name: 'application.bin', size: 364, sha256: '0'.repeat(64) }],
      }),
      fc.jsonValue(),
    ),
    manifestText: fc.option(fc.string(), { nil: undefined }),
    image: fc.oneof(
      fc.constant(makeFirmwareImage('EPC', '1.0.0', 300)),
      fc.uint8Array({ maxLength: 512 }),
      fc
        .tuple(fc.constantFrom('EPC', 'SRCP', 'X'), fc.integer({ min: 0, max: 256 }))
        .map(([type, body]) => makeFirmwareImage(type, '1.0.0', body)),
    ),
    imageName: fc.constantFrom('application.bin', 'other.bin', '../escape.bin', PROTO_STAND_IN, ''),
    signed: fc.option(fc.uint8Array({ maxLength: 300 }), { nil: undefined }),
    extra: fc.dictionary(
      fc.string({ maxLength: 12 }).filter((name) => name !== '__proto__'),
      fc.uint8Array({ maxLength: 16 }),
      { maxKeys: 3 },
    ),
    level: fc.constantFrom(0 as const, 6 as const),
  })
  .map(({ manifest, manifestText, image, imageName, signed, extra, level }) => {
    const files: Record<string, Uint8Array> = {
      ...extra,
      'manifest.json': strToU8(manifestText ?? JSON.stringify(manifest)),
      [imageName]: image,
    };
    if (signed) files[SIGNED_MANIFEST_FILE] = signed;
    return withProtoName(zipSync(files, { level }));
  });

const isFileFormatError = (error: unknown): boolean => error instanceof FileFormatError;

describe('fuzz: firmware bundle reader', () => {
  it('reads the real bundles', () => {
    for (const bundle of bundles) readFirmwareBundle(bundle);
  });

  it('mutated bundles and random bytes raise only FileFormatError, within a memory bound', () => {
    assertFuzz(
      fc.property(hostileBytes(fc.constantFrom(...bundles)), (bytes) => {
        withinMemory(() => onlyTypedErrors(() => readFirmwareBundle(bytes), isFileFormatError));
      }),
    );
  });

  it('zips assembled from odd parts, and mutations of them, raise only FileFormatError', () => {
    assertFuzz(
      fc.property(fc.oneof(assembled, mutatedBytes(assembled)), (bytes) => {
        withinMemory(() => onlyTypedErrors(() => readFirmwareBundle(bytes, { deviceType: 'EPC' }), isFileFormatError));
      }),
    );
  });
});
