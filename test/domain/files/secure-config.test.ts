import { describe, expect, it } from 'vitest';
import {
  CONFIG_FILE_FORMAT_LAYOUT2,
  createConfigFileSigner,
  createOrganizationKey,
  decodeCbor,
  decodeConfigFile,
  encodeCbor,
  encodeConfigFile,
  generateSigningKeyPair,
  sha256,
  verifyConfigFile,
  type ConfigFileContent,
  type ConfigFileSigner,
} from '../../../domain/files';
import {
  orgKeyCertificateFromPem,
  orgKeyCertificateToPem,
  ORG_KEY_PEM_LABEL,
} from '../../../domain/files/secure-config-pem';
import { codeOf } from '../../fixtures/file-format-error';
import { orgKey, root, rootKeyPem, sampleContent, signer } from './config-file-samples';

const content = sampleContent;

type Top = Record<string, unknown>;

const topOf = (file: Uint8Array): Top => decodeCbor(file) as Top;
/** The file's top-level map, changed and encoded again: what someone holding the bytes can do. */
const rewritten = (file: Uint8Array, change: (top: Top) => Top): Uint8Array => encodeCbor(change(topOf(file)));
const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');
/** Byte strings compared by content, whether a Buffer or a plain Uint8Array holds them. */
const plain = (value: unknown): unknown =>
  value instanceof Uint8Array
    ? hex(value)
    : value && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
      : value;

/** config-data with the signed content changed, and its checksum made to match (no new signature). */
function resigned(
  file: Uint8Array,
  change: (data: { body: unknown; provisioner: ConfigFileContent }) => unknown,
): Uint8Array {
  return rewritten(file, (top) => {
    const data = encodeCbor(
      change(decodeCbor(top['config-data'] as Uint8Array) as { body: unknown; provisioner: ConfigFileContent }),
    );
    return { ...top, 'config-data': data, 'config-checksum': hex(sha256(data)) };
  });
}

describe('configuration file, layout 3 (the vendor secure configuration map)', () => {
  it("is the vendor's map in the vendor tool's key order, then syncId", () => {
    const top = topOf(encodeConfigFile(content(), signer));
    expect(Object.keys(top)).toEqual([
      'config-data',
      'config-checksum',
      'r-component',
      's-component',
      'fso7-3',
      'syncId',
    ]);
    expect(top['config-checksum']).toBe(hex(sha256(top['config-data'] as Uint8Array)));
    expect(top['config-checksum']).toMatch(/^[0-9a-f]{64}$/);
    expect(top['r-component']).toMatch(/^[0-9a-f]{64}$/);
    expect(top['s-component']).toMatch(/^[0-9a-f]{64}$/);
    expect(top['fso7-3']).toMatch(new RegExp(`^-----BEGIN ${ORG_KEY_PEM_LABEL}-----\n`));
    expect(top.syncId).toBe(content().syncId);
    const data = decodeCbor(top['config-data'] as Uint8Array) as Record<string, Record<string, unknown>>;
    expect(Object.keys(data)).toEqual(['body', 'provisioner']);
    expect(data.provisioner).toEqual(content());
    expect(data.body!.scm2).toMatchObject({
      SAFE: { ioDirection: 'Out', safetyTimeout: 500 },
      NET: { eth0: { ip4: '192.168.3.10' } },
    });
  });

  it('round-trips and verifies with the root-certified organization key, in the shape layout 2 gave', () => {
    const file = encodeConfigFile(content(), signer);
    const decoded = verifyConfigFile(file, { rootKeyPem, expectedSerialNumber: 'EPC000101' });
    expect(decoded).toMatchObject({
      syncId: content().syncId,
      serialNumber: 'EPC000101',
      deviceType: 'EPC',
      orgId: 'plant-a',
      sequence: 7,
      keyId: orgKey.keyId,
    });
    expect(decoded.content).toEqual(content());
    expect(decoded.orgKey.orgId).toBe('plant-a');
    expect(decoded.signature).toHaveLength(64);
    expect(hex(decoded.settings)).toBe(hex(topOf(file)['config-data'] as Uint8Array));
  });

  it('carries plain CBOR byte strings, not typed-array tags', () => {
    const file = encodeConfigFile(content(), signer);
    expect(Buffer.from(file).includes(Buffer.from([0xd8, 0x40]))).toBe(false);
  });

  it('refuses a file for another device', () => {
    expect(
      codeOf(() =>
        verifyConfigFile(encodeConfigFile(content(), signer), { rootKeyPem, expectedSerialNumber: 'EPC000102' }),
      ),
    ).toBe('CONFIG_WRONG_DEVICE');
  });

  it('detects a byte of config-data flipped: checksum error', () => {
    const file = encodeConfigFile(content(), signer);
    const tampered = rewritten(file, (top) => {
      const data = new Uint8Array(top['config-data'] as Uint8Array);
      data[data.length - 3]! ^= 0x01;
      return { ...top, 'config-data': data };
    });
    expect(codeOf(() => verifyConfigFile(tampered, { rootKeyPem }))).toBe('CONFIG_CHECKSUM_MISMATCH');
  });

  it('detects config-data changed with its checksum recomputed but no new signature: signature error', () => {
    const file = encodeConfigFile(content(), signer);
    const changes = [
      (d: { body: unknown; provisioner: ConfigFileContent }) => ({
        ...d,
        provisioner: { ...d.provisioner, sequence: 99 },
      }),
      (d: { body: unknown; provisioner: ConfigFileContent }) => ({
        ...d,
        provisioner: { ...d.provisioner, safety: { timeoutConfiguration: '5000ms' } },
      }),
      // The vendor's view is signed as well as ours.
      (d: { body: unknown; provisioner: ConfigFileContent }) => ({ ...d, body: { scm2: { SAFE: {}, NET: {} } } }),
    ];
    for (const change of changes) {
      expect(codeOf(() => verifyConfigFile(resigned(file, change), { rootKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
    }
  });

  it("refuses a file whose fso7-3 is another organization's certificate", () => {
    const other = createOrganizationKey('plant-b', root.privateKeyPem);
    const file = encodeConfigFile(content(), signer);
    const swapped = rewritten(file, (top) => ({ ...top, 'fso7-3': orgKeyCertificateToPem(other.certificate) }));
    expect(codeOf(() => verifyConfigFile(swapped, { rootKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
    // B signs a file that says it is A's, with B's certificate: the certificate names B.
    const forged: ConfigFileSigner = {
      ...createConfigFileSigner(other.privateKeyPem, other.certificate),
      orgId: 'plant-a',
    };
    expect(codeOf(() => verifyConfigFile(encodeConfigFile(content(), forged), { rootKeyPem }))).toBe(
      'CONFIG_BAD_SIGNATURE',
    );
  });

  it("refuses a certificate from another root, and a signature by another key than the certificate's", () => {
    const foreign = createOrganizationKey('plant-a', generateSigningKeyPair().privateKeyPem);
    const foreignSigner = createConfigFileSigner(foreign.privateKeyPem, foreign.certificate);
    expect(codeOf(() => verifyConfigFile(encodeConfigFile(content(), foreignSigner), { rootKeyPem }))).toBe(
      'CONFIG_BAD_SIGNATURE',
    );
    const impostor: ConfigFileSigner = { ...signer, sign: foreignSigner.sign };
    expect(codeOf(() => verifyConfigFile(encodeConfigFile(content(), impostor), { rootKeyPem }))).toBe(
      'CONFIG_BAD_SIGNATURE',
    );
  });

  it('refuses a top-level syncId that is not the signed one', () => {
    const file = rewritten(encodeConfigFile(content(), signer), (top) => ({
      ...top,
      syncId: '11111111-2222-4333-8444-555555555555',
    }));
    expect(() => decodeConfigFile(file)).toThrow(/"syncId" differs between the top level and the signed settings/);
    const without = rewritten(encodeConfigFile(content(), signer), ({ syncId: _s, ...top }) => top);
    expect(codeOf(() => decodeConfigFile(without))).toBe('CONFIG_BAD_FORMAT');
  });

  it('refuses signature and checksum parts that are not 64 lowercase hex digits, and an fso7-3 that is not our PEM block', () => {
    const file = encodeConfigFile(content(), signer);
    const top = topOf(file);
    const cases: Top[] = [
      { 'r-component': (top['r-component'] as string).toUpperCase() },
      { 's-component': (top['s-component'] as string).slice(2) },
      { 'r-component': 'DummyRComponent' },
      { 'config-checksum': (top['config-checksum'] as string).toUpperCase() },
      { 'fso7-3': 'DummyFSO7_3PEM' },
      { 'fso7-3': (top['fso7-3'] as string).replaceAll(ORG_KEY_PEM_LABEL, 'CERTIFICATE') },
      { 'fso7-3': (top['fso7-3'] as string).replace(/\n[A-Za-z0-9+/]/, '\n*') },
      { 'config-data': 'not bytes' },
    ];
    for (const change of cases) {
      expect(
        codeOf(() => verifyConfigFile(encodeCbor({ ...top, ...change }), { rootKeyPem })),
        JSON.stringify(change),
      ).toBe('CONFIG_BAD_FORMAT');
    }
  });

  it('refuses config-data without the vendor view or our content, or with layout-2 content in it', () => {
    const file = encodeConfigFile(content(), signer);
    expect(() => decodeConfigFile(resigned(file, (d) => ({ provisioner: d.provisioner })))).toThrow(
      /"body" is not a map/,
    );
    expect(() => decodeConfigFile(resigned(file, (d) => ({ body: {}, provisioner: d.provisioner })))).toThrow(
      /"body.scm2" is not a map/,
    );
    expect(() => decodeConfigFile(resigned(file, (d) => ({ body: d.body })))).toThrow(/"provisioner" is not a map/);
    const moved = resigned(file, (d) => ({
      ...d,
      provisioner: { ...d.provisioner, format: CONFIG_FILE_FORMAT_LAYOUT2 },
    }));
    expect(() => decodeConfigFile(moved)).toThrow(
      /carry the format "provisioner-config\/2", not "provisioner-config\/3"/,
    );
  });

  it('refuses bytes that are neither layout, naming both', () => {
    expect(() => decodeConfigFile(encodeCbor({ format: 'provisioner-config/1' }))).toThrow(
      /unknown format "provisioner-config\/1".*"config-data".*"provisioner-config\/2"/,
    );
    expect(codeOf(() => decodeConfigFile(new Uint8Array([0xff, 0x00])))).toBe('CONFIG_BAD_FORMAT');
  });

  it('writes layout 2 when the content names it, and reads both with the same answer', () => {
    const three = verifyConfigFile(encodeConfigFile(content(), signer), { rootKeyPem });
    const two = verifyConfigFile(encodeConfigFile(content({ format: CONFIG_FILE_FORMAT_LAYOUT2 }), signer), {
      rootKeyPem,
    });
    expect('format' in topOf(encodeConfigFile(content({ format: CONFIG_FILE_FORMAT_LAYOUT2 }), signer))).toBe(true);
    const { settings: _a, sha256: _b, signature: _c, content: c3, ...rest3 } = three;
    const { settings: _d, sha256: _e, signature: _f, content: c2, ...rest2 } = two;
    expect(plain(rest3)).toEqual(plain(rest2));
    expect({ ...c3, format: null }).toEqual({ ...c2, format: null });
  });
});

describe('organization key certificate as PEM (fso7-3)', () => {
  it('round-trips in 64-character base64 lines, CRLF or not', () => {
    const pem = orgKeyCertificateToPem(orgKey.certificate);
    const lines = pem.trimEnd().split('\n');
    expect(lines[0]).toBe(`-----BEGIN ${ORG_KEY_PEM_LABEL}-----`);
    expect(lines.slice(1, -2).every((line) => line.length === 64)).toBe(true);
    expect(hex(orgKeyCertificateFromPem(pem))).toBe(hex(orgKey.certificate));
    expect(hex(orgKeyCertificateFromPem(pem.replaceAll('\n', '\r\n')))).toBe(hex(orgKey.certificate));
  });

  it('refuses an empty block and text around it', () => {
    expect(
      codeOf(() =>
        orgKeyCertificateFromPem(`-----BEGIN ${ORG_KEY_PEM_LABEL}-----\n-----END ${ORG_KEY_PEM_LABEL}-----\n`),
      ),
    ).toBe('CONFIG_BAD_FORMAT');
    expect(codeOf(() => orgKeyCertificateFromPem(`junk\n${orgKeyCertificateToPem(orgKey.certificate)}`))).toBe(
      'CONFIG_BAD_FORMAT',
    );
  });
});
