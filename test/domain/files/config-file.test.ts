import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  createConfigFileSigner,
  decodeCbor,
  encodeCbor,
  encodeConfigFile,
  FileFormatError,
  generateSigningKeyPair,
  verifyConfigFile,
  type ConfigFileContent,
} from '../../../domain/files';

const keys = generateSigningKeyPair();
const signer = createConfigFileSigner(keys.privateKeyPem);

function content(overrides: Partial<ConfigFileContent> = {}): ConfigFileContent {
  return {
    format: 'provisioner-config/1',
    syncId: '0b7f2c1e-8a43-4d0e-9a59-2f4a1c7e6d10',
    serialNumber: 'EPC000101',
    deviceType: 'EPC',
    configurationId: '6c1d3f0a-1111-4a2b-9c3d-123456789abc',
    blank: false,
    issuedAt: '2026-11-21T10:00:00.000Z',
    device: { role: 'Receiver', commInterface: 'Ethernet', ipAddress: '192.168.3.10' },
    peers: [{ serialNumber: 'EPC000102', role: 'Sender', ipAddress: '192.168.3.11' }],
    safety: { timeoutConfiguration: '500ms', canMode: 'none' },
    ...overrides,
  };
}

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    if (error instanceof FileFormatError) return error.code;
    throw error;
  }
  throw new Error('expected a FileFormatError');
}

describe('configuration file', () => {
  it('round-trips and verifies for its own device', () => {
    const file = encodeConfigFile(content(), signer);
    const decoded = verifyConfigFile(file, { publicKeyPem: keys.publicKeyPem, expectedSerialNumber: 'EPC000101' });
    expect(decoded.syncId).toBe('0b7f2c1e-8a43-4d0e-9a59-2f4a1c7e6d10');
    expect(decoded.content.peers).toHaveLength(1);
    expect(decoded.keyId).toBe(keys.keyId);
    expect(decoded.signature).toHaveLength(64);
  });

  it('carries plain CBOR byte strings, not typed-array tags', () => {
    const file = encodeConfigFile(content(), signer);
    // Map header then text keys: a tag 64 (0xd8 0x40) would mean a device needs cbor-x's extensions.
    expect(Buffer.from(file).includes(Buffer.from([0xd8, 0x40]))).toBe(false);
  });

  it('refuses a file for another device', () => {
    const file = encodeConfigFile(content(), signer);
    expect(codeOf(() => verifyConfigFile(file, { publicKeyPem: keys.publicKeyPem, expectedSerialNumber: 'EPC000102' }))).toBe('CONFIG_WRONG_DEVICE');
  });

  it('refuses a file signed by another key', () => {
    const other = generateSigningKeyPair();
    const file = encodeConfigFile(content(), createConfigFileSigner(other.privateKeyPem));
    expect(codeOf(() => verifyConfigFile(file, { publicKeyPem: keys.publicKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
  });

  it('detects settings changed after signing', () => {
    const file = encodeConfigFile(content(), signer);
    const top = decodeCbor(file) as Record<string, Uint8Array>;
    const tampered = encodeCbor({ ...top, settings: encodeCbor({ ...content(), safety: { timeoutConfiguration: '5000ms' } }) });
    expect(codeOf(() => verifyConfigFile(tampered, { publicKeyPem: keys.publicKeyPem }))).toBe('CONFIG_CHECKSUM_MISMATCH');
  });

  it('detects a re-computed checksum without a new signature', () => {
    const file = encodeConfigFile(content(), signer);
    const top = decodeCbor(file) as Record<string, unknown>;
    const settings = encodeCbor({ ...content(), safety: { timeoutConfiguration: '5000ms' } });
    const tampered = encodeCbor({ ...top, settings, sha256: new Uint8Array(createHash('sha256').update(settings).digest()) });
    expect(codeOf(() => verifyConfigFile(tampered, { publicKeyPem: keys.publicKeyPem }))).toBe('CONFIG_BAD_SIGNATURE');
  });

  it('refuses a header that disagrees with the signed settings', () => {
    const file = encodeConfigFile(content(), signer);
    const top = decodeCbor(file) as Record<string, unknown>;
    const relabelled = encodeCbor({ ...top, serialNumber: 'EPC000102' });
    expect(codeOf(() => verifyConfigFile(relabelled, { publicKeyPem: keys.publicKeyPem, expectedSerialNumber: 'EPC000102' }))).toBe('CONFIG_BAD_FORMAT');
  });

  it('refuses bytes that are not a configuration file', () => {
    expect(codeOf(() => verifyConfigFile(new Uint8Array([0xff, 0x00, 0x13]), { publicKeyPem: keys.publicKeyPem }))).toBe('CONFIG_BAD_FORMAT');
    expect(codeOf(() => verifyConfigFile(encodeCbor({ format: 'other' }), { publicKeyPem: keys.publicKeyPem }))).toBe('CONFIG_BAD_FORMAT');
  });
});
