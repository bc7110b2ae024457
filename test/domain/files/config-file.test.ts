import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_FILE_FORMAT_LAYOUT2,
  createConfigFileSigner,
  createOrganizationKey,
  decodeCbor,
  encodeCbor,
  encodeConfigFile,
  generateSigningKeyPair,
  verifyConfigFile,
  verifyOrganizationKey,
  type ConfigFileContent,
  type ConfigFileSigner,
} from '../../../domain/files';
import { codeOf } from '../../fixtures/file-format-error';
import { orgKey, root, rootKeyPem, sampleContent, signer } from './config-file-samples';

/** Layout 2's content: what devices in the field hold. */
const content = (overrides: Partial<ConfigFileContent> = {}): ConfigFileContent =>
  sampleContent({ format: CONFIG_FILE_FORMAT_LAYOUT2, ...overrides });

/** The file's top-level map, changed and encoded again: what someone holding the bytes can do. */
function rewritten(file: Uint8Array, change: (top: Record<string, unknown>) => Record<string, unknown>): Uint8Array {
  return encodeCbor(change(decodeCbor(file) as Record<string, unknown>));
}

/** Layout 2 (config-file-layout2.ts): no longer served, still read and checked by every reader. */
describe('configuration file, layout 2 (still read)', () => {
  it('round-trips and verifies for its own device, naming its organization, key and sequence', () => {
    const file = encodeConfigFile(content(), signer);
    const decoded = verifyConfigFile(file, { rootKeyPem, expectedSerialNumber: 'EPC000101' });
    expect(decoded).toMatchObject({
      syncId: '0b7f2c1e-8a43-4d0e-9a59-2f4a1c7e6d10',
      orgId: 'plant-a',
      sequence: 7,
      keyId: orgKey.keyId,
    });
    expect(decoded.keyId).not.toBe(root.keyId);
    expect(decoded.content).toMatchObject({ orgId: 'plant-a', sequence: 7, issuedAt: '2026-11-21T10:00:00.000Z' });
    expect(decoded.content.peers).toHaveLength(1);
    expect(decoded.signature).toHaveLength(64);
  });

  it('carries plain CBOR byte strings, not typed-array tags', () => {
    const file = encodeConfigFile(content(), signer);
    // Map header then text keys: a tag 64 (0xd8 0x40) would mean a device needs cbor-x's extensions.
    expect(Buffer.from(file).includes(Buffer.from([0xd8, 0x40]))).toBe(false);
  });

  it('refuses a file for another device', () => {
    const file = encodeConfigFile(content(), signer);
    expect(codeOf(() => verifyConfigFile(file, { rootKeyPem, expectedSerialNumber: 'EPC000102' }))).toBe(
      'CONFIG_WRONG_DEVICE',
    );
  });

  it('refuses a file whose organization key another root certified', () => {
    const otherRoot = generateSigningKeyPair();
    const key = createOrganizationKey('plant-a', otherRoot.privateKeyPem);
    const file = encodeConfigFile(content(), createConfigFileSigner(key.privateKeyPem, key.certificate));
    expect(codeOf(() => verifyConfigFile(file, { rootKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
  });

  it("refuses a file signed by another key than the certificate's", () => {
    // Someone with A's certificate (every file of A carries it) but not A's private key.
    const stranger = createOrganizationKey('plant-a', generateSigningKeyPair().privateKeyPem);
    const impostor: ConfigFileSigner = {
      ...signer,
      sign: createConfigFileSigner(stranger.privateKeyPem, stranger.certificate).sign,
    };
    expect(codeOf(() => verifyConfigFile(encodeConfigFile(content(), impostor), { rootKeyPem }))).toBe(
      'CONFIG_BAD_SIGNATURE',
    );
  });

  it('refuses a file whose organization key certificate belongs to another organization', () => {
    const other = createOrganizationKey('plant-b', root.privateKeyPem);
    const otherSigner = createConfigFileSigner(other.privateKeyPem, other.certificate);
    // B signs a file that says it is A's: the certificate says B.
    const forged: ConfigFileSigner = { ...otherSigner, orgId: 'plant-a' };
    expect(codeOf(() => verifyConfigFile(encodeConfigFile(content(), forged), { rootKeyPem }))).toBe(
      'CONFIG_BAD_SIGNATURE',
    );
    // A's file given B's certificate: A's signature does not verify with B's key.
    const swapped = rewritten(encodeConfigFile(content(), signer), (top) => ({
      ...top,
      orgKey: other.certificate,
      keyId: other.keyId,
    }));
    expect(codeOf(() => verifyConfigFile(swapped, { rootKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
  });

  it('detects settings changed after signing', () => {
    const file = encodeConfigFile(content(), signer);
    const tampered = rewritten(file, (top) => ({
      ...top,
      settings: encodeCbor({ ...content(), safety: { timeoutConfiguration: '5000ms' } }),
    }));
    expect(codeOf(() => verifyConfigFile(tampered, { rootKeyPem }))).toBe('CONFIG_CHECKSUM_MISMATCH');
  });

  it('detects a re-computed checksum without a new signature: a raised sequence is refused', () => {
    const file = encodeConfigFile(content(), signer);
    for (const changed of [content({ safety: { timeoutConfiguration: '5000ms' } }), content({ sequence: 99 })]) {
      const settings = encodeCbor(changed);
      const tampered = rewritten(file, (top) => ({
        ...top,
        sequence: changed.sequence,
        settings,
        sha256: new Uint8Array(createHash('sha256').update(settings).digest()),
      }));
      expect(codeOf(() => verifyConfigFile(tampered, { rootKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
    }
  });

  it('refuses a header that disagrees with the signed settings', () => {
    const file = encodeConfigFile(content(), signer);
    for (const change of [{ serialNumber: 'EPC000102' }, { sequence: 8 }, { orgId: 'plant-b' }]) {
      expect(
        codeOf(() =>
          verifyConfigFile(
            rewritten(file, (top) => ({ ...top, ...change })),
            { rootKeyPem },
          ),
        ),
      ).toBe('CONFIG_BAD_FORMAT');
    }
  });

  it('refuses a file without a sequence, and a version 1 file', () => {
    const file = encodeConfigFile(content(), signer);
    expect(
      codeOf(() =>
        verifyConfigFile(
          rewritten(file, ({ sequence: _s, ...top }) => top),
          { rootKeyPem },
        ),
      ),
    ).toBe('CONFIG_BAD_FORMAT');
    expect(
      codeOf(() =>
        verifyConfigFile(
          rewritten(file, (top) => ({ ...top, sequence: 0 })),
          { rootKeyPem },
        ),
      ),
    ).toBe('CONFIG_BAD_FORMAT');
    const v1 = rewritten(file, (top) => ({ ...top, format: 'provisioner-config/1' }));
    expect(() => verifyConfigFile(v1, { rootKeyPem })).toThrow(
      /unknown format "provisioner-config\/1": expected .*"provisioner-config\/2"/,
    );
  });

  it('will not sign a file of another organization, or without a positive sequence', () => {
    expect(() => encodeConfigFile(content({ orgId: 'plant-b' }), signer)).toThrow(
      /cannot be signed with the key of plant-a/,
    );
    expect(() => encodeConfigFile(content({ sequence: 0 }), signer)).toThrow(/positive integer/);
  });

  it('refuses bytes that are not a configuration file', () => {
    expect(codeOf(() => verifyConfigFile(new Uint8Array([0xff, 0x00, 0x13]), { rootKeyPem }))).toBe(
      'CONFIG_BAD_FORMAT',
    );
    expect(codeOf(() => verifyConfigFile(encodeCbor({ format: 'other' }), { rootKeyPem }))).toBe('CONFIG_BAD_FORMAT');
  });
});

describe('organization key certificate', () => {
  it('names the organization and the key, and checks against the root key only', () => {
    expect(verifyOrganizationKey(orgKey.certificate, rootKeyPem)).toEqual({
      orgId: 'plant-a',
      keyId: orgKey.keyId,
      publicKeyPem: orgKey.publicKeyPem,
    });
    expect(codeOf(() => verifyOrganizationKey(orgKey.certificate, generateSigningKeyPair().publicKeyPem))).toBe(
      'CONFIG_BAD_SIGNATURE',
    );
  });

  it('refuses a body changed after the root signed it', () => {
    const top = decodeCbor(orgKey.certificate) as { body: Uint8Array };
    const body = decodeCbor(top.body) as Record<string, unknown>;
    const moved = encodeCbor({ ...top, body: encodeCbor({ ...body, orgId: 'plant-b' }) });
    expect(codeOf(() => verifyOrganizationKey(moved, rootKeyPem))).toBe('CONFIG_BAD_SIGNATURE');
  });

  it('is made only for the key it certifies', () => {
    expect(() => createConfigFileSigner(generateSigningKeyPair().privateKeyPem, orgKey.certificate)).toThrow(
      /for another key/,
    );
  });
});
