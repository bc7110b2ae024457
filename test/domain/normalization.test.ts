import { describe, expect, it } from 'vitest';
import {
  configurationCreateSchema,
  configurationPatchSchema,
  deviceAddSchema,
  deviceUpdateSchema,
  ipNetworkTemplateCreateSchema,
  parseCommInterface,
  parsePayload,
} from '../../domain';
import { expectAccepted, expectRejected } from './expectations';

const create = (fields: Record<string, unknown>) =>
  parsePayload(configurationCreateSchema, { name: 'Line 1', ...fields });
const addDevice = (fields: Record<string, unknown>) =>
  parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', ...fields });

describe('timeoutConfiguration', () => {
  it.each(['250ms', '500ms', '750ms', '1000ms', '3000ms', '5000ms'])('keeps the canonical %s', (value) => {
    expect(expectAccepted(create({ timeoutConfiguration: value })).timeoutConfiguration).toBe(value);
  });

  it.each([
    [250, '250ms'],
    [500, '500ms'],
    [750, '750ms'],
    [1000, '1000ms'],
    [3000, '3000ms'],
    [5000, '5000ms'],
  ])('turns the observed integer %d into %s', (input, canonical) => {
    expect(expectAccepted(create({ timeoutConfiguration: input })).timeoutConfiguration).toBe(canonical);
  });

  it.each([2000, '1000', '1s', '1000MS', 1000.5, true])('refuses %j and names the accepted values', (input) => {
    const v = expectRejected(create({ timeoutConfiguration: input }), 'INVALID_ENUM_VALUE', 'timeoutConfiguration');
    expect(v.message).toContain('250ms, 500ms, 750ms, 1000ms, 3000ms, 5000ms');
    expect(v.message).toContain('milliseconds');
  });
});

describe('ismTxPower', () => {
  it.each([
    ['High', 'High'],
    ['HIGH', 'High'],
    ['high', 'High'],
    ['MEDIUM', 'Medium'],
    ['low', 'Low'],
    [' Low ', 'Low'],
  ])('reads %j as %s', (input, canonical) => {
    expect(expectAccepted(create({ ismTxPower: input })).ismTxPower).toBe(canonical);
  });

  it.each(['Max', 'H', 3])('refuses %j', (input) => {
    expect(expectRejected(create({ ismTxPower: input }), 'INVALID_ENUM_VALUE', 'ismTxPower').message).toContain(
      'Low, Medium, High',
    );
  });
});

describe('canMode', () => {
  it.each([
    ['j1939', 'j1939'],
    ['J1939', 'j1939'],
    ['canopen', 'canopen'],
    ['CANopen', 'canopen'],
    ['none', 'none'],
    ['NONE', 'none'],
  ])('reads %j as %s', (input, canonical) => {
    expect(expectAccepted(create({ canMode: input })).canMode).toBe(canonical);
  });

  it('refuses a mode that does not exist', () => {
    expectRejected(create({ canMode: 'j1708' }), 'INVALID_ENUM_VALUE', 'canMode');
  });
});

describe('canKBitrate', () => {
  it('takes the enumerated names only: the samples send nothing else', () => {
    expect(expectAccepted(create({ canKBitrate: 'BITRATE_250000' })).canKBitrate).toBe('BITRATE_250000');
    expectRejected(create({ canKBitrate: 250000 }), 'INVALID_ENUM_VALUE', 'canKBitrate');
    expectRejected(create({ canKBitrate: 'bitrate_250000' }), 'INVALID_ENUM_VALUE', 'canKBitrate');
  });
});

describe('ismNetworkId (observed on create)', () => {
  it('is kept as a setting of the configuration, on create and on patch', () => {
    expect(expectAccepted(create({ ismNetworkId: 12 })).ismNetworkId).toBe(12);
    expect(expectAccepted(parsePayload(configurationPatchSchema, { ismNetworkId: 0 })).ismNetworkId).toBe(0);
  });

  it('must be a whole number', () => {
    expectRejected(create({ ismNetworkId: '12' }), 'INVALID_TYPE', 'ismNetworkId');
    expectRejected(create({ ismNetworkId: 1.5 }), 'INVALID_INTEGER', 'ismNetworkId');
  });
});

describe('commInterface', () => {
  it.each([
    ['None', 'None'],
    ['BLE', 'BLE'],
    ['ISM', 'ISM'],
    ['Ethernet', 'Ethernet'],
    ['Wifi', 'Wifi'],
    ['BLE,Ethernet', 'BLE,Ethernet'],
    ['BLE,ISM,Wifi', 'BLE,ISM,Wifi'],
    ['ble', 'BLE'],
    ['ethernet', 'Ethernet'],
    ['ethernet,ble', 'BLE,Ethernet'],
    [' Wifi ', 'Wifi'],
    ['wifi, ism ,BLE', 'BLE,ISM,Wifi'],
    ['Ethernet,Wifi,ISM,BLE', 'BLE,ISM,Ethernet,Wifi'],
    ['BLE,ble', 'BLE'],
    ['none', 'None'],
  ])('reads %j as %s', (input, canonical) => {
    expect(expectAccepted(addDevice({ commInterface: input })).commInterface).toBe(canonical);
  });

  it('normalizes in update payloads too', () => {
    expect(expectAccepted(parsePayload(deviceUpdateSchema, { commInterface: 'wifi,ble' })).commInterface).toBe(
      'BLE,Wifi',
    );
  });

  it.each(['Radio', 'BLE,Radio', 'BLE,', '', 'BLE;Ethernet'])('refuses %j and names the accepted values', (input) => {
    const v = expectRejected(addDevice({ commInterface: input }), 'INVALID_COMM_INTERFACE', 'commInterface');
    expect(v.message).toContain('None, BLE, ISM, Ethernet, Wifi');
  });

  it.each(['None,BLE', 'ethernet,none'])('refuses None combined with other flags: %j', (input) => {
    expectRejected(addDevice({ commInterface: input }), 'COMM_INTERFACE_NONE_COMBINED', 'commInterface');
  });

  it('refuses a list: the interface sends one comma-joined string', () => {
    expectRejected(addDevice({ commInterface: ['BLE', 'Ethernet'] }), 'INVALID_TYPE', 'commInterface');
  });

  it('parseCommInterface gives the flags in canonical order', () => {
    expect(parseCommInterface('wifi,ble')).toEqual({ ok: true, value: 'BLE,Wifi', flags: ['BLE', 'Wifi'] });
  });
});

describe('template commInterface', () => {
  const template = (commInterface: unknown) =>
    parsePayload(ipNetworkTemplateCreateSchema, {
      ipNetworkTemplateName: 'Shop LAN',
      commInterface,
      netmask: '255.255.255.0',
    });

  it('reads any letter case', () => {
    expect(expectAccepted(template('ethernet')).commInterface).toBe('Ethernet');
    expect(expectAccepted(template('WIFI')).commInterface).toBe('Wifi');
  });

  it('refuses a device-only flag', () => {
    expectRejected(template('BLE'), 'INVALID_ENUM_VALUE', 'commInterface');
  });
});

describe('names and nulls', () => {
  it('trims the configuration name', () => {
    expect(expectAccepted(create({ name: '  Line 1  ' })).name).toBe('Line 1');
  });

  it('reads null as "not given" in create and patch payloads', () => {
    const created = expectAccepted(create({ ismTxChannel: null, startingIpAddress: null }));
    expect(created.ismTxChannel).toBeUndefined();
    expect(created.startingIpAddress).toBeUndefined();
    const patch = expectAccepted(parsePayload(configurationPatchSchema, { name: null, canMode: null }));
    expect(patch).toEqual({});
  });

  it('trims the serial number of an added device', () => {
    expect(expectAccepted(addDevice({ serialNumber: ' EPC000101 ' })).serialNumber).toBe('EPC000101');
  });
});
