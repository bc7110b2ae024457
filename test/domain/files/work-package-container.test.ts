import { strToU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { FileFormatError } from '../../../domain/files/file-error';
import { readWorkPackage } from '../../../domain/files/work-package';
import { buildWorkConfirmations } from '../../../domain/files/work-package-confirmations';
import { buildSignedZip, generateContainerSigner, openSignedZip } from '../../../domain/files/work-package-container';

/**
 * The signed container on its own: the same contents always make the same bytes (which is what
 * lets the reader compare every byte), and a file of the wrong kind, a compressed entry, too many
 * entries or an unlisted file are refused before anything in them is used.
 */

const LIMITS = { maxZipBytes: 1024 * 1024, maxEntries: 8 };
const signer = generateContainerSigner();

function codeOf(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    if (error instanceof FileFormatError) return `${error.code}: ${error.message}`;
    throw error;
  }
  return 'accepted';
}

describe('the signed container', () => {
  it('makes the same bytes from the same contents, and opens them', () => {
    const files = new Map([
      ['b.bin', new Uint8Array([1, 2, 3])],
      ['a/x.cbor', new Uint8Array([4])],
    ]);
    const first = buildSignedZip({ format: 'test/1', body: { n: 1 }, files, signer });
    const again = buildSignedZip({ format: 'test/1', body: { n: 1 }, files: new Map([...files].reverse()), signer });
    expect(Buffer.from(again).equals(Buffer.from(first))).toBe(true);
    const opened = openSignedZip(first, { format: 'test/1', what: 'test file', limits: LIMITS });
    expect(opened.manifest.body).toEqual({ n: 1 });
    expect([...opened.files.keys()].sort()).toEqual(['a/x.cbor', 'b.bin']);
    expect(opened.manifest.signer.keyId).toBe(signer.keyId);
  });

  it('names a file of another kind for what it is', () => {
    const confirmations = buildWorkConfirmations(
      {
        exportId: crypto.randomUUID(),
        createdAt: new Date().toISOString(),
        workstation: 'w',
        confirmations: [],
        ledger: [],
      },
      signer,
    );
    expect(codeOf(() => readWorkPackage(confirmations))).toBe(
      'WP_NOT_A_PACKAGE: The file is not a work package: it is a provisioner-work-confirmations/1 file. Check that you chose the right file.',
    );
  });

  it('refuses a zip with a compressed entry, too many entries, or a file its manifest does not list', () => {
    const genuine = buildSignedZip({
      format: 'test/1',
      body: {},
      files: new Map([['a.bin', new Uint8Array(10)]]),
      signer,
    });
    const opened = openSignedZip(genuine, { format: 'test/1', what: 'test file', limits: LIMITS });
    const entries = unzipSync(genuine);
    const deflated = zipSync({ ...entries }, { level: 6 });
    expect(codeOf(() => openSignedZip(deflated, { format: 'test/1', what: 'test file', limits: LIMITS }))).toMatch(
      /^WP_TAMPERED: .*compressed/,
    );
    const extra = zipSync({ ...entries, 'smuggled.bin': [strToU8('x'), { level: 0 }] }, { level: 0 });
    expect(codeOf(() => openSignedZip(extra, { format: 'test/1', what: 'test file', limits: LIMITS }))).toMatch(
      /^WP_TAMPERED: .*smuggled\.bin/,
    );
    const many = zipSync(
      Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`f${i}`, [new Uint8Array(1), { level: 0 }]])),
      { level: 0 },
    );
    expect(codeOf(() => openSignedZip(many, { format: 'test/1', what: 'test file', limits: LIMITS }))).toBe(
      'WP_TOO_LARGE: The test file holds more than 8 files.',
    );
    expect(opened.files.size).toBe(1);
  });
});
