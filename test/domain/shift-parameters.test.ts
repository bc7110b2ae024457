import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalParameterEncoding,
  compareParameters,
  parameterChecksum,
  shortChecksum,
  type ParameterValues,
} from '../../domain/running-parameters';
import {
  configurationParameterChecksum,
  departureFromShift,
  shiftConfirmationRefusal,
  shiftParameters,
} from '../../domain/shift-parameters';

/**
 * The Station shift's parameters (issue 26): the configuration's checksum over its devices'
 * intended checksums, the operator's typed confirmation, and whether a device's verification used
 * the values the operator confirmed.
 */

const CONFIGURATION = { id: '00000000-0000-4000-8000-000000000001', name: 'Loader 7 remote (ISM)' };
const values = (serialNumber: string, timeout: number): ParameterValues => ({
  'device.serialNumber': serialNumber,
  'safety.timeout': timeout,
  'device.peers': null,
});
const devices = (epcTimeout = 500) => [
  { serialNumber: 'SRCP000101', deviceType: 'SRCP', syncId: 's1', values: values('SRCP000101', 500) },
  { serialNumber: 'EPC000101', deviceType: 'EPC', syncId: 's2', values: values('EPC000101', epcTimeout) },
];

describe("a configuration's parameter checksum", () => {
  it('is SHA-256 of the canonical map serial number to device checksum, in any order of the devices', () => {
    const shift = shiftParameters(CONFIGURATION, devices());
    const expected = createHash('sha256')
      .update(
        canonicalParameterEncoding({
          EPC000101: parameterChecksum(values('EPC000101', 500)),
          SRCP000101: parameterChecksum(values('SRCP000101', 500)),
        }),
      )
      .digest('hex');
    expect(shift.checksum).toBe(expected);
    expect(shiftParameters(CONFIGURATION, [...devices()].reverse()).checksum).toBe(expected);
    expect(shift.devices.map((d) => d.serialNumber)).toEqual(['EPC000101', 'SRCP000101']);
  });

  it("changes when one device's value changes, or a device leaves", () => {
    const before = shiftParameters(CONFIGURATION, devices()).checksum;
    expect(shiftParameters(CONFIGURATION, devices(510)).checksum).not.toBe(before);
    expect(configurationParameterChecksum(shiftParameters(CONFIGURATION, devices()).devices.slice(1))).not.toBe(before);
  });
});

describe("the operator's confirmation", () => {
  const shift = shiftParameters(CONFIGURATION, devices());
  const short = shortChecksum(shift.checksum);

  it('takes the short form in any case and with spaces around', () => {
    expect(shiftConfirmationRefusal(shift, short)).toBeNull();
    expect(shiftConfirmationRefusal(shift, ` ${short.toLowerCase()} `)).toBeNull();
  });

  it('refuses other digits, another length and a device checksum', () => {
    const other = short.slice(0, 7) + (short.endsWith('0') ? '1' : '0');
    expect(shiftConfirmationRefusal(shift, other)).toContain("not this configuration's parameter checksum");
    expect(shiftConfirmationRefusal(shift, shortChecksum(shift.devices[0]!.checksum))).toContain(
      "not this configuration's parameter checksum",
    );
    expect(shiftConfirmationRefusal(shift, short.slice(0, 7))).toContain('Type the 8 hex digits');
    expect(shiftConfirmationRefusal(shift, '')).toContain('Type the 8 hex digits');
  });
});

describe('a device verified against what the shift confirmed', () => {
  const shift = shiftParameters(CONFIGURATION, devices());
  const epc = shift.devices.find((d) => d.serialNumber === 'EPC000101')!;
  const verified = (intended: ParameterValues, running: ParameterValues, scope?: string[]) =>
    compareParameters(intended, {
      values: running,
      checksum: parameterChecksum(scope ? Object.fromEntries(scope.map((k) => [k, running[k] ?? null])) : running),
      checksumBy: scope ? 'host' : 'device',
      ...(scope ? { scope } : {}),
    });

  it('is covered when the file intended the confirmed values', () => {
    expect(departureFromShift(epc, verified(values('EPC000101', 500), values('EPC000101', 500)))).toBeNull();
  });

  it('is not when the file changed since, even if the device runs the new file', () => {
    expect(departureFromShift(epc, verified(values('EPC000101', 750), values('EPC000101', 750)))).toEqual({
      kind: 'shiftChanged',
      rows: [{ key: 'safety.timeout', unit: 'ms', first: 750, second: 500 }],
    });
  });

  it("is not when our device's file adds a key the operator never saw", () => {
    const more = { ...values('EPC000101', 500), 'peer.SRCP000101.role': 'Sender' };
    expect(departureFromShift(epc, verified(more, more))).toEqual({
      kind: 'shiftChanged',
      rows: [{ key: 'peer.SRCP000101.role', unit: '', first: 'Sender', second: null }],
    });
  });

  it("covers a vendor device's scope by its rows", () => {
    const scope = ['device.serialNumber', 'safety.timeout'];
    expect(departureFromShift(epc, verified(values('EPC000101', 500), values('EPC000101', 500), scope))).toBeNull();
    expect(departureFromShift(epc, verified(values('EPC000101', 600), values('EPC000101', 600), scope))).toEqual({
      kind: 'shiftChanged',
      rows: [{ key: 'safety.timeout', unit: 'ms', first: 600, second: 500 }],
    });
  });
});
