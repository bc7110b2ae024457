import { describe, expect, it } from 'vitest';
import {
  canonicalParameterEncoding,
  compareParameters,
  confirmationRefusal,
  intendedParameters,
  parameterValueText,
  parameterChecksum,
  peerRoleKey,
  shortChecksum,
  type ParameterValues,
  type RunningParameters,
} from '../../domain/running-parameters';
import { documentedTestVector } from '../fixtures/parameters-test-vector';

const content = {
  serialNumber: 'NSC000101',
  device: {
    deviceConfigurationType: 'Receiver',
    commInterface: 'BLE,ISM',
    stopCategory: 'CAT1',
    cat1StopDelay: 1.5,
    ossdEnabled: true,
    inputConfiguration1: 'ESTOP_TYPE_SWITCH',
    can0Id: 17,
  },
  peers: [
    { serialNumber: 'SRC000102', deviceConfigurationType: 'Sender' },
    { serialNumber: 'EPC000101', deviceConfigurationType: 'EStopSender' },
  ],
  safety: {
    timeoutConfiguration: '750ms',
    ismTxPower: 'High',
    ismTxChannel: 3,
    canKBitrate: 'BITRATE_500000',
    approvedSourceAddresses: [130, 128],
  },
};

function deviceReport(values: ParameterValues): RunningParameters {
  return { values, checksum: parameterChecksum(values), checksumBy: 'device' };
}

describe('the canonical encoding and checksum', () => {
  it('give the documented test vector', () => {
    const vector = documentedTestVector();
    expect(Buffer.from(canonicalParameterEncoding(vector.values)).toString('hex')).toBe(vector.encodingHex);
    expect(parameterChecksum(vector.values)).toBe(vector.checksum);
    expect(shortChecksum(vector.checksum)).toBe(vector.short);
  });

  it('do not depend on the order keys were written in', () => {
    const { values } = documentedTestVector();
    const reversed = Object.fromEntries(Object.entries(values).reverse());
    expect(parameterChecksum(reversed)).toBe(parameterChecksum(values));
  });

  it('use the shortest integer forms and refuse what is not a parameter value', () => {
    expect(Buffer.from(canonicalParameterEncoding({ a: 23 })).toString('hex')).toBe('a1616117');
    expect(Buffer.from(canonicalParameterEncoding({ a: 24 })).toString('hex')).toBe('a161611818');
    expect(Buffer.from(canonicalParameterEncoding({ a: 65536 })).toString('hex')).toBe('a161611a00010000');
    expect(Buffer.from(canonicalParameterEncoding({ a: -25 })).toString('hex')).toBe('a161613818');
    expect(Buffer.from(canonicalParameterEncoding({ a: 2 ** 32 })).toString('hex')).toBe('a161611b0000000100000000');
    expect(() => canonicalParameterEncoding({ a: 1.5 })).toThrow(/integer/);
  });
});

describe('intendedParameters', () => {
  it('takes each parameter from the file in its unit', () => {
    const values = intendedParameters(content);
    expect(values).toMatchObject({
      'safety.timeout': 750,
      'safety.cat1StopDelay': 1500,
      'safety.ossdEnabled': true,
      'safety.input1': 'ESTOP_TYPE_SWITCH',
      'safety.input2': null,
      'device.serialNumber': 'NSC000101',
      'device.role': 'Receiver',
      'device.peers': 'EPC000101,SRC000102',
      [peerRoleKey('SRC000102')]: 'Sender',
      [peerRoleKey('EPC000101')]: 'EStopSender',
      'ism.txPower': 'High',
      'ism.channel': 3,
      'ism.networkId': null,
      'can.bitrate': 500000,
      'can.can0Id': 17,
      'can.approvedSourceAddresses': '130,128',
      'network.commInterface': 'BLE,ISM',
    });
  });
});

describe('compareParameters', () => {
  const intended = intendedParameters(content);

  it('matches a device that runs what was intended', () => {
    const comparison = compareParameters(intended, deviceReport({ ...intended }));
    expect(comparison.match).toBe(true);
    expect(comparison.intendedChecksum).toBe(comparison.runningChecksum);
    expect(comparison.rows.every((row) => row.match)).toBe(true);
    expect(comparison.rows[0]).toMatchObject({
      key: 'safety.timeout',
      label: 'Safety timeout',
      unit: 'ms',
      intended: 750,
      running: 750,
    });
  });

  it('catches one parameter stored differently, row and checksum', () => {
    const comparison = compareParameters(intended, deviceReport({ ...intended, 'safety.timeout': 1000 }));
    expect(comparison.match).toBe(false);
    expect(comparison.checksumsMatch).toBe(false);
    expect(comparison.rows.filter((row) => !row.match).map((row) => row.key)).toEqual(['safety.timeout']);
    expect(confirmationRefusal(comparison, shortChecksum(comparison.runningChecksum))).toMatch(/differ/);
  });

  it('catches a device whose checksum is not that of the values it reports', () => {
    const comparison = compareParameters(intended, {
      ...deviceReport(intended),
      checksum: parameterChecksum({ ...intended, 'ism.channel': 4 }),
    });
    expect(comparison.runningChecksumConsistent).toBe(false);
    expect(comparison.match).toBe(false);
  });

  it('compares only over the scope a device can report', () => {
    const scope = ['safety.timeout', 'ism.channel'];
    const running: RunningParameters = {
      values: { 'safety.timeout': 750, 'ism.channel': 3 },
      checksum: parameterChecksum({ 'safety.timeout': 750, 'ism.channel': 3 }),
      checksumBy: 'host',
      scope,
    };
    const comparison = compareParameters(intended, running);
    expect(comparison.rows.map((row) => row.key)).toEqual(scope);
    expect(comparison.match).toBe(true);
  });

  it('the table digest changes with any running value', () => {
    const a = compareParameters(intended, deviceReport(intended));
    const b = compareParameters(intended, deviceReport({ ...intended, 'can.can0Id': 18 }));
    expect(a.tableDigest).toMatch(/^[0-9a-f]{64}$/);
    expect(a.tableDigest).not.toBe(b.tableDigest);
  });
});

describe('confirmationRefusal', () => {
  const intended = intendedParameters(content);
  const comparison = compareParameters(intended, deviceReport(intended));

  it('takes the short checksum typed, in either case', () => {
    expect(confirmationRefusal(comparison, shortChecksum(comparison.runningChecksum))).toBeNull();
    expect(confirmationRefusal(comparison, ` ${shortChecksum(comparison.runningChecksum).toLowerCase()} `)).toBeNull();
  });

  it('refuses another checksum and text that is not one', () => {
    const wrong = shortChecksum(comparison.runningChecksum) === '00000000' ? '00000001' : '00000000';
    expect(confirmationRefusal(comparison, wrong)).toMatch(/not the checksum/);
    expect(confirmationRefusal(comparison, 'yes')).toMatch(/8 hex digits/);
  });

  it('shows a choice by its label, and a value no label knows as the device sent it', () => {
    expect(parameterValueText('canopen', '', 'can.mode')).toBe('CANopen');
    expect(parameterValueText('ESTOP_TYPE_SWITCH', '', 'safety.input1')).toBe('E-stop switch');
    expect(parameterValueText('Receiver', '', 'peer.EPC000102.role')).toBe('Receiver');
    expect(parameterValueText('EStopSender', '', 'device.role')).toBe('E-stop sender');
    expect(parameterValueText('canopen', '', 'network.ipAddress')).toBe('canopen');
    expect(parameterValueText('toString', '', 'can.mode')).toBe('toString');
    expect(parameterValueText(500, 'ms', 'safety.timeout')).toBe('500 ms');
  });
});
