import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../../domain/files/cbor';
import { parseScm2 } from '../../../domain/vendor/scm2';
import {
  decodeConfigData,
  decodeSecureConfig,
  encodeConfigData,
  encodeSecureConfig,
  sha256Hex,
  type SecureConfigError,
} from '../../../domain/vendor/secure-config';
import { epcEthernetScm2 } from './samples';

const dummy = { rComponent: 'DummyRComponent', sComponent: 'DummySComponent', fso73: 'DummyFSO7_3PEM' };

describe('secure-config map', () => {
  it('round-trips in the vendor tool key order with the SHA-256 of config-data', () => {
    const configData = encodeConfigData({ scm2: parseScm2(epcEthernetScm2()), provisioner: { syncId: 'x' } });
    const bytes = encodeSecureConfig({ configData, ...dummy });
    // a5 6b "config-data": the prefix the vendor's tool writes (spec §8.1)
    expect([...bytes.subarray(0, 2)]).toEqual([0xa5, 0x6b]);
    expect(Object.keys(decodeCbor(bytes) as object)).toEqual([
      'config-data',
      'config-checksum',
      'r-component',
      's-component',
      'fso7-3',
    ]);
    const decoded = decodeSecureConfig(bytes);
    expect(decoded.checksum).toBe(sha256Hex(configData));
    expect(decoded.rComponent).toBe('DummyRComponent');
    const data = decodeConfigData(decoded.configData);
    expect(data.scm2.NET.eth0?.ip4).toBe('192.168.3.10');
    expect(data.provisioner).toEqual({ syncId: 'x' });
  });

  it('refuses a damaged config-data by its checksum', () => {
    const configData = encodeConfigData({ scm2: parseScm2(epcEthernetScm2()) });
    const map = decodeCbor(encodeSecureConfig({ configData, ...dummy })) as Record<string, unknown>;
    const damaged = Uint8Array.from(configData);
    damaged[damaged.length - 1] = damaged[damaged.length - 1]! ^ 1;
    map['config-data'] = damaged;
    const error = (() => {
      try {
        decodeSecureConfig(encodeCbor(map));
      } catch (e) {
        return e as SecureConfigError;
      }
      throw new Error('accepted');
    })();
    expect(error.code).toBe('VENDOR_CONFIG_CHECKSUM');
    expect(error.message).toMatch(/damaged/);
  });

  it('refuses structure errors with what is missing', () => {
    expect(() => decodeSecureConfig(Uint8Array.of(0xff))).toThrow(/not CBOR/);
    expect(() => decodeSecureConfig(encodeCbor([1]))).toThrow(/not a CBOR map/);
    expect(() => decodeSecureConfig(encodeCbor({ 'config-checksum': 'ab' }))).toThrow(/no "config-data"/);
    const configData = encodeConfigData({ scm2: parseScm2(epcEthernetScm2()) });
    expect(() =>
      decodeSecureConfig(
        encodeCbor({ 'config-data': configData, 'config-checksum': sha256Hex(configData), 'r-component': 1 }),
      ),
    ).toThrow(/"r-component" must be text/);
  });

  it('refuses config-data whose scm2 breaks the vendor rules', () => {
    expect(() => decodeConfigData(encodeCbor({ body: {} }))).toThrow(/no body\.scm2/);
    const bad = epcEthernetScm2() as { SAFE: Record<string, unknown> };
    bad.SAFE['safetyRate'] = 30;
    try {
      decodeConfigData(encodeCbor({ body: { scm2: bad } }));
      throw new Error('accepted');
    } catch (error) {
      expect((error as SecureConfigError).code).toBe('VENDOR_CONFIG_INVALID');
      expect((error as Error).message).toMatch(/safetyRate/);
    }
  });
});
