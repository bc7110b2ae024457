import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  configurationConfirmationSchema,
  configurationCreateSchema,
  configurationPatchSchema,
  deviceAddSchema,
  deviceUpdateSchema,
  parsePayload,
  userRegisterSchema,
  violationsToMessage,
} from '../../domain';
import { expectAccepted, expectRejected, pairs } from './expectations';

describe('parsePayload', () => {
  it('never throws, whatever the input', () => {
    for (const input of [undefined, null, 42, 'text', [], [1], { name: {} }]) {
      const result = parsePayload(configurationCreateSchema, input);
      expect(result.ok).toBe(false);
    }
  });

  it('reports a missing required field as REQUIRED', () => {
    expectRejected(parsePayload(configurationCreateSchema, {}), 'REQUIRED', 'name');
    expectRejected(parsePayload(configurationCreateSchema, { name: null }), 'REQUIRED', 'name');
    expectRejected(parsePayload(deviceAddSchema, {}), 'REQUIRED', 'serialNumber');
  });

  it('reports a wrong JSON type as INVALID_TYPE, in words a technician reads', () => {
    const v = expectRejected(
      parsePayload(configurationCreateSchema, { name: 'A', ismTxChannel: '5' }),
      'INVALID_TYPE',
      'ismTxChannel',
    );
    expect(v.message).toBe('ISM channel must be a number, not the text "5".');
    expectRejected(parsePayload(configurationCreateSchema, { name: 7 }), 'INVALID_TYPE', 'name');
    expectRejected(parsePayload(deviceAddSchema, { serialNumber: 101 }), 'INVALID_TYPE', 'serialNumber');
  });

  it('reports a fraction where a whole number belongs as INVALID_INTEGER', () => {
    expectRejected(
      parsePayload(configurationCreateSchema, { name: 'A', ismTxChannel: 5.5 }),
      'INVALID_INTEGER',
      'ismTxChannel',
    );
  });

  it('reports numbers beyond int32 as INTEGER_OUT_OF_RANGE', () => {
    expectRejected(
      parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', can0Id: 2 ** 40 }),
      'INTEGER_OUT_OF_RANGE',
      'can0Id',
    );
  });

  it('reports the index of a bad list entry in the field path', () => {
    expectRejected(
      parsePayload(configurationCreateSchema, { name: 'A', approvedSourceAddresses: [1, 'two'] }),
      'INVALID_TYPE',
      'approvedSourceAddresses.1',
    );
  });

  it('refuses unknown fields in create and patch payloads, one violation per field', () => {
    const result = parsePayload(configurationPatchSchema, { nmae: 'typo', colour: 'red' });
    expectRejected(result, 'UNKNOWN_FIELD', 'nmae');
    expectRejected(result, 'UNKNOWN_FIELD', 'colour');
    expectRejected(
      parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', ipaddress: '10.0.0.1' }),
      'UNKNOWN_FIELD',
      'ipaddress',
    );
  });

  it('refuses the update-only fields on device add and takes them on update', () => {
    for (const [field, value] of [
      ['can1Id', 2],
      ['voltage', 'VOLTAGE_24V'],
      ['serial0Baudrate', 'BAUDRATE_115200'],
      ['serial1Baudrate', 'BAUDRATE_115200'],
    ] as const) {
      expectRejected(
        parsePayload(deviceAddSchema, { serialNumber: 'NSCP000101', [field]: value }),
        'UPDATE_ONLY_FIELD',
        field,
      );
      expect(expectAccepted(parsePayload(deviceUpdateSchema, { [field]: value }))).toEqual({ [field]: value });
    }
  });

  it('refuses a serial number in a device update body', () => {
    expectRejected(
      parsePayload(deviceUpdateSchema, { serialNumber: 'EPC000102' }),
      'SERIAL_NUMBER_IN_UPDATE',
      'serialNumber',
    );
  });

  it('refuses an empty serial number on add', () => {
    expectRejected(parsePayload(deviceAddSchema, { serialNumber: '   ' }), 'SERIAL_NUMBER_TOO_SHORT', 'serialNumber');
  });

  it('reports bad ids, times and emails with their own codes', () => {
    const confirmation = {
      configurationFileSuccessfullyDeployed: true,
      syncId: 'not-a-uuid',
      applyTimeStamp: 'yesterday',
    };
    const result = parsePayload(configurationConfirmationSchema, confirmation);
    expectRejected(result, 'INVALID_UUID', 'syncId');
    expectRejected(result, 'INVALID_DATE_TIME', 'applyTimeStamp');
    expectRejected(parsePayload(userRegisterSchema, { email: 'bob', userRole: 'Admin' }), 'INVALID_EMAIL', 'email');
    expectRejected(
      parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', networkTemplateId: 'x' }),
      'INVALID_UUID',
      'networkTemplateId',
    );
  });

  it('falls back to INVALID_VALUE for checks the domain does not name', () => {
    expectRejected(parsePayload(z.object({ tag: z.string().max(3) }), { tag: 'long tag' }), 'INVALID_VALUE', 'tag');
  });

  it('reports every problem of a payload at once', () => {
    const result = parsePayload(configurationCreateSchema, {
      name: '',
      ismTxPower: 'Max',
      displayTextPgn: 1,
      receiverOutputControl: 3,
      startingIpAddress: '10.0.0',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(
      pairs(result.violations)
        .map((p) => p.code)
        .sort(),
    ).toEqual(
      [
        'INVALID_ENUM_VALUE',
        'INVALID_IPV4_ADDRESS',
        'NAME_TOO_SHORT',
        'PGN_OUT_OF_RANGE',
        'RECEIVER_OUTPUT_CONTROL_INVALID',
      ].sort(),
    );
    expect(violationsToMessage(result.violations).split('\n')).toHaveLength(5);
  });
});
