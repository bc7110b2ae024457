import fc from 'fast-check';
import { describe, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../domain/files/cbor';
import {
  CONFIG_FILE_FORMAT,
  CONFIG_FILE_FORMAT_LAYOUT2,
  decodeConfigFile,
  encodeConfigFile,
  sha256,
  type ConfigFileContent,
} from '../../domain/files/config-file';
import {
  createConfigFileSigner,
  createOrganizationKey,
  generateSigningKeyPair,
  verifyConfigFile,
} from '../../domain/files/config-file-signature';
import { FileFormatError } from '../../domain/files/file-error';
import { assertFuzz, FUZZ_RUNS, hostileBytes, onlyTypedErrors, withinMemory } from './fuzz-support';

const root = generateSigningKeyPair();
const orgKey = createOrganizationKey('plant-a', root.privateKeyPem);
const signer = createConfigFileSigner(orgKey.privateKeyPem, orgKey.certificate);

/** Keys the decoder refuses (`__proto__`, test/domain/files/cbor.test.ts) are not part of a valid file. */
function withoutProtoKeys(value: unknown): boolean {
  if (Array.isArray(value)) return value.every(withoutProtoKeys);
  if (value === null || typeof value !== 'object') return true;
  return Object.entries(value).every(([key, inner]) => key !== '__proto__' && withoutProtoKeys(inner));
}
const settingValue = fc.jsonValue({ maxDepth: 2 }).filter(withoutProtoKeys);
const settingKey = fc.string({ maxLength: 12 }).filter((key) => key !== '__proto__');
const content: fc.Arbitrary<ConfigFileContent> = fc.record({
  format: fc.constant(CONFIG_FILE_FORMAT),
  syncId: fc.uuid(),
  serialNumber: fc.string({ minLength: 1, maxLength: 16 }),
  deviceType: fc.constantFrom('SRCP', 'WESP', 'EPC', 'NSCP'),
  orgId: fc.constant('plant-a'),
  sequence: fc.integer({ min: 1, max: 2 ** 40 }),
  configurationId: fc.option(fc.uuid(), { nil: null }),
  blank: fc.boolean(),
  issuedAt: fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  device: fc.dictionary(settingKey, settingValue, { maxKeys: 4 }),
  peers: fc.array(fc.dictionary(settingKey, settingValue, { maxKeys: 3 }), { maxLength: 3 }),
  safety: fc.dictionary(settingKey, settingValue, { maxKeys: 3 }),
});

/** A few signed files to mutate (signing every case would be most of the run): layout 3, and layout 2 that is still read. */
const sampled = fc.sample(content, { numRuns: 8, seed: 42 });
const signedFiles = [
  ...sampled.map((c) => encodeConfigFile(c, signer)),
  ...sampled.slice(0, 3).map((c) => encodeConfigFile({ ...c, format: CONFIG_FILE_FORMAT_LAYOUT2 }, signer)),
];

/**
 * Files whose top level is put together field by field: each field the real one, missing, or a
 * value of another kind; the settings the real ones, random CBOR, or not CBOR. Reaches the checks
 * behind the first one that random bytes stop at.
 */
const assembled = fc
  .record({
    base: fc.constantFrom(...signedFiles),
    replace: fc.dictionary(
      fc.constantFrom(
        // layout 2
        'format',
        'syncId',
        'serialNumber',
        'deviceType',
        'orgId',
        'sequence',
        'settings',
        'sha256',
        'signature',
        'keyId',
        'orgKey',
        // layout 3
        'config-data',
        'config-checksum',
        'r-component',
        's-component',
        'fso7-3',
        'other',
      ),
      fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.uint8Array({ maxLength: 80 }), fc.constant(undefined)),
      { maxKeys: 3 },
    ),
    settings: fc.option(
      fc.oneof(
        fc.jsonValue({ maxDepth: 3 }).map((v) => encodeCbor(v)),
        fc.uint8Array({ maxLength: 64 }),
      ),
      { nil: undefined },
    ),
  })
  .map(({ base, replace, settings }) => {
    const top = { ...(decodeCbor(base) as Record<string, unknown>), ...replace };
    if (settings && 'config-data' in top)
      Object.assign(top, { 'config-data': settings, 'config-checksum': Buffer.from(sha256(settings)).toString('hex') });
    else if (settings) Object.assign(top, { settings, sha256: sha256(settings) });
    return encodeCbor(Object.fromEntries(Object.entries(top).filter(([, v]) => v !== undefined)));
  });

const isFileFormatError = (error: unknown): boolean => error instanceof FileFormatError;

describe('fuzz: configuration file decoder', () => {
  it('decodes and verifies what it encodes', () => {
    // Signing and verifying take most of each case: the hostile-input properties below get the long runs.
    assertFuzz(
      fc.property(content, (c) => {
        const file = encodeConfigFile(c, signer);
        const decoded = verifyConfigFile(file, { rootKeyPem: root.publicKeyPem, expectedSerialNumber: c.serialNumber });
        if (JSON.stringify(decoded.content) !== JSON.stringify(c))
          throw new Error(`came back as ${JSON.stringify(decoded.content)}`);
      }),
      Math.min(FUZZ_RUNS, 1000),
    );
  });

  it('random and mutated files raise only FileFormatError, decoded or verified, within a memory bound', () => {
    assertFuzz(
      fc.property(hostileBytes(fc.constantFrom(...signedFiles)), (bytes) => {
        withinMemory(() => {
          onlyTypedErrors(() => decodeConfigFile(bytes), isFileFormatError);
          onlyTypedErrors(() => verifyConfigFile(bytes, { rootKeyPem: root.publicKeyPem }), isFileFormatError);
        });
      }),
    );
  });

  it('files put together field by field raise only FileFormatError', () => {
    assertFuzz(
      fc.property(assembled, (bytes) => {
        onlyTypedErrors(
          () => verifyConfigFile(bytes, { rootKeyPem: root.publicKeyPem, expectedSerialNumber: 'EPC000101' }),
          isFileFormatError,
        );
      }),
    );
  });
});
