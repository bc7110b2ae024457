import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decodeCbor, encodeCbor } from '../../../domain/files/cbor';
import {
  decodeEpcFirmwareBody,
  decodeFsMetadata,
  decodeRawInt,
  decodeRawUint,
  decodeSystemReset,
  decodeVendorValue,
  encodeEpcFirmwareBody,
  encodeFsMetadata,
  encodeRawInt,
  encodeRawUint,
  encodeSystemReset,
  encodeVendorValue,
  fsMetadataOf,
  valueFormOf,
  vendorCrc32,
} from '../../../protocol/vendor';

describe('fs/metadata', () => {
  it('is start, length and CRC-32, each u32 little-endian', () => {
    const data = new TextEncoder().encode('123456789');
    // The CRC-32 check value of "123456789" (IEEE 802.3).
    expect(vendorCrc32(data)).toBe(0xcbf43926);
    const bytes = encodeFsMetadata(fsMetadataOf(data));
    expect([...bytes]).toEqual([0, 0, 0, 0, 9, 0, 0, 0, 0x26, 0x39, 0xf4, 0xcb]);
    expect(decodeFsMetadata(bytes)).toEqual({ start: 0, length: 9, crc32: 0xcbf43926 });
  });

  it('refuses any other size and values beyond u32', () => {
    expect(() => decodeFsMetadata(new Uint8Array(11))).toThrow(/12 bytes .* not 11/);
    expect(() => encodeFsMetadata({ start: 0, length: 2 ** 32, crc32: 0 })).toThrow(/unsigned 32-bit/);
  });
});

describe('raw little-endian integers ("fake CBOR")', () => {
  it('uses the fewest bytes and reads any width', () => {
    expect([...encodeRawUint(12)]).toEqual([12]);
    expect([...encodeRawUint(0x1234)]).toEqual([0x34, 0x12]);
    expect([...encodeRawUint(0x12345678)]).toEqual([0x78, 0x56, 0x34, 0x12]);
    expect(decodeRawUint(Uint8Array.of(0x0c, 0, 0, 0))).toBe(12);
    expect(() => decodeRawUint(new Uint8Array(0))).toThrow(/1 to 4 bytes/);
  });

  it('negative dBm as two’s complement of its width', () => {
    expect([...encodeRawInt(-5)]).toEqual([0xfb]);
    expect(decodeRawInt(Uint8Array.of(0xfb))).toBe(-5);
    expect(decodeRawInt(Uint8Array.of(0xec, 0xff))).toBe(-20);
    expect(decodeRawInt(Uint8Array.of(27))).toBe(27);
  });
});

describe('EPC firmware body', () => {
  const data = Uint8Array.from({ length: 3000 }, (_, i) => i % 251);

  it('is {length, data, sha256} in that order and checks both on decode', () => {
    const body = encodeEpcFirmwareBody(data);
    // a3 66 "length": the prefix the vendor's tool writes (spec §6.3)
    expect([...body.subarray(0, 2)]).toEqual([0xa3, 0x66]);
    expect(Object.keys(decodeCbor(body) as object)).toEqual(['length', 'data', 'sha256']);
    const decoded = decodeEpcFirmwareBody(body);
    expect(decoded.length).toBe(3000);
    expect(decoded.sha256).toBe(createHash('sha256').update(data).digest('hex'));
  });

  it('refuses a wrong length, a wrong hash and a malformed map', () => {
    const sha256 = createHash('sha256').update(data).digest('hex');
    expect(() => decodeEpcFirmwareBody(encodeCbor({ length: 2999, data, sha256 }))).toThrow(/cut short/);
    expect(() => decodeEpcFirmwareBody(encodeCbor({ length: 3000, data, sha256: '0'.repeat(64) }))).toThrow(/damaged/);
    expect(() => decodeEpcFirmwareBody(encodeCbor({ length: 3000, sha256 }))).toThrow(/no "data"/);
    expect(() => decodeEpcFirmwareBody(Uint8Array.of(0xff))).toThrow(/not CBOR/);
  });
});

describe('systemReset', () => {
  it('n, b and empty', () => {
    expect(new TextDecoder().decode(encodeSystemReset('bootloader'))).toBe('b');
    expect(decodeSystemReset(encodeSystemReset('normal'))).toBe('normal');
    expect(decodeSystemReset(new Uint8Array(0))).toBe('normal');
    expect(decodeSystemReset(Uint8Array.of(0x62))).toBe('bootloader');
    expect(decodeSystemReset(new TextEncoder().encode('x'))).toBeUndefined();
  });
});

describe('setting values on the wire', () => {
  it('FRC text, FRC raw integers, EPC JSON', () => {
    expect(valueFormOf('cfg/setup/ism/pairAddr?3', 'FRC')).toBe('text');
    expect(valueFormOf('cfg/setup/radioPower', 'FRC')).toBe('raw-int');
    expect(valueFormOf('cfg/sf/smcu/global/timeoutMs', 'EPC')).toBe('json');
    const power = encodeVendorValue('raw-int', -10);
    expect(power.contentFormat).toBe(60);
    expect(decodeVendorValue('cfg/setup/radioPower', 'FRC', power.payload, power.contentFormat)).toBe(-10);
    const timeout = encodeVendorValue('json', 500);
    expect(decodeVendorValue('cfg/sf/smcu/global/timeoutMs', 'EPC', timeout.payload, timeout.contentFormat)).toBe(500);
    const name = encodeVendorValue('text', 'TRUCK');
    expect(decodeVendorValue('cfg/setup/pairedDeviceName?0', 'FRC', name.payload, name.contentFormat)).toBe('TRUCK');
    expect(() => decodeVendorValue('cfg/net/eth0/port0/ip', 'EPC', new TextEncoder().encode('{"a":1}'), 50)).toThrow(
      /not a single value/,
    );
  });
});
