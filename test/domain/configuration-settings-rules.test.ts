import { describe, expect, it } from 'vitest';
import {
  configurationCreateSchema,
  parsePayload,
  validateConfigurationSettings,
  type ConfigurationSettings,
  type DeviceType,
  type Region,
} from '../../domain';
import { expectAccepted, expectRejected, pairs } from './expectations';

const NA = { region: 'NA' as Region, deviceTypes: [] as DeviceType[] };
const EU = { region: 'EU' as Region, deviceTypes: [] as DeviceType[] };

function check(settings: ConfigurationSettings, ctx = NA) {
  return pairs(validateConfigurationSettings(settings, ctx));
}

describe('validateConfigurationSettings', () => {
  it('accepts a fully set configuration', () => {
    expect(
      check(
        {
          name: 'Line 1',
          startingIpAddress: '192.168.1.10',
          ismTxPower: 'High',
          ismTxChannel: 21,
          ismNetworkId: 0,
          canMode: 'j1939',
          canKBitrate: 'BITRATE_500000',
          displayTextPgn: 0xff00,
          settingsPgn: 0xffff,
          approvedSourceAddresses: [0, 255],
          receiverOutputControl: 2,
          timeoutConfiguration: '5000ms',
        },
        { region: 'NA', deviceTypes: ['EPC', 'NSCP', 'SRCP'] },
      ),
    ).toEqual([]);
  });

  it('accepts an empty configuration: unset settings are completeness, not validity', () => {
    expect(check({})).toEqual([]);
  });

  describe('name minLength 1', () => {
    it('passes with one character', () => expect(check({ name: 'A' })).toEqual([]));
    it('breaks when empty or blank', () => {
      expect(check({ name: '' })).toEqual([{ code: 'NAME_TOO_SHORT', field: 'name' }]);
      expect(check({ name: '   ' })).toEqual([{ code: 'NAME_TOO_SHORT', field: 'name' }]);
    });
    it('is reported by the create payload as well', () => {
      expectRejected(parsePayload(configurationCreateSchema, { name: '' }), 'NAME_TOO_SHORT', 'name');
    });
  });

  describe('ismTxChannel', () => {
    it.each([1, 11, 21])('North America: %d passes', (channel) => expect(check({ ismTxChannel: channel })).toEqual([]));
    it.each([0, 22, -1])('North America: %d breaks', (channel) =>
      expect(check({ ismTxChannel: channel })).toEqual([{ code: 'ISM_CHANNEL_OUT_OF_RANGE', field: 'ismTxChannel' }]),
    );
    it('Europe: 1 passes', () => expect(check({ ismTxChannel: 1 }, EU)).toEqual([]));
    it.each([2, 21, 0])('Europe: %d breaks', (channel) =>
      expect(check({ ismTxChannel: channel }, EU)).toEqual([
        { code: 'ISM_CHANNEL_NOT_ALLOWED_IN_REGION', field: 'ismTxChannel' },
      ]),
    );
    it('says what to do in Europe', () => {
      expect(validateConfigurationSettings({ ismTxChannel: 25 }, EU)[0]?.message).toBe(
        'ISM channel 25 is not allowed in Europe: European organizations must use channel 1.',
      );
    });
  });

  describe('ismNetworkId', () => {
    it('passes from 0', () => expect(check({ ismNetworkId: 0 })).toEqual([]));
    it('warns when negative: a range of ours, so the payload is accepted', () => {
      expect(check({ ismNetworkId: -1 })).toEqual([{ code: 'ISM_NETWORK_ID_OUT_OF_RANGE', field: 'ismNetworkId' }]);
      expect(validateConfigurationSettings({ ismNetworkId: -1 }, NA)[0]?.severity).toBe('warning');
      expect(
        expectAccepted(parsePayload(configurationCreateSchema, { name: 'A', ismNetworkId: -1 })).ismNetworkId,
      ).toBe(-1);
    });
  });

  describe('displayTextPgn and settingsPgn', () => {
    it.each(['displayTextPgn', 'settingsPgn'] as const)(
      '%s passes at both ends of 0xFF00..0xFFFF under j1939',
      (field) => {
        expect(check({ canMode: 'j1939', [field]: 0xff00 })).toEqual([]);
        expect(check({ canMode: 'j1939', [field]: 0xffff })).toEqual([]);
      },
    );
    it.each(['displayTextPgn', 'settingsPgn'] as const)('%s breaks just outside the range', (field) => {
      expect(check({ canMode: 'j1939', [field]: 0xfeff })).toEqual([{ code: 'PGN_OUT_OF_RANGE', field }]);
      expect(check({ canMode: 'j1939', [field]: 0x10000 })).toEqual([{ code: 'PGN_OUT_OF_RANGE', field }]);
      expectRejected(
        parsePayload(configurationCreateSchema, { name: 'A', [field]: 0x10000 }),
        'PGN_OUT_OF_RANGE',
        field,
      );
    });
    it.each(['displayTextPgn', 'settingsPgn'] as const)('%s breaks with canopen, none or no CAN mode', (field) => {
      expect(check({ canMode: 'canopen', [field]: 0xff01 })).toEqual([{ code: 'PGN_REQUIRES_J1939', field }]);
      expect(check({ canMode: 'none', [field]: 0xff01 })).toEqual([{ code: 'PGN_REQUIRES_J1939', field }]);
      expect(check({ [field]: 0xff01 })).toEqual([{ code: 'PGN_REQUIRES_J1939', field }]);
    });
  });

  describe('approvedSourceAddresses', () => {
    it('passes with entries 0 to 255', () => expect(check({ approvedSourceAddresses: [0, 128, 255] })).toEqual([]));
    it('breaks at each entry outside, with its index', () => {
      expect(check({ approvedSourceAddresses: [0, 256, -1] })).toEqual([
        { code: 'SOURCE_ADDRESS_OUT_OF_RANGE', field: 'approvedSourceAddresses.1' },
        { code: 'SOURCE_ADDRESS_OUT_OF_RANGE', field: 'approvedSourceAddresses.2' },
      ]);
      expectRejected(
        parsePayload(configurationCreateSchema, { name: 'A', approvedSourceAddresses: [300] }),
        'SOURCE_ADDRESS_OUT_OF_RANGE',
        'approvedSourceAddresses.0',
      );
    });
    it('takes whole numbers only', () => {
      expectRejected(
        parsePayload(configurationCreateSchema, { name: 'A', approvedSourceAddresses: [1.5] }),
        'INVALID_INTEGER',
        'approvedSourceAddresses.0',
      );
    });
  });

  describe('receiverOutputControl', () => {
    it.each([1, 2])('%d passes', (output) => expect(check({ receiverOutputControl: output })).toEqual([]));
    it.each([0, 3])('%d breaks', (output) => {
      expect(check({ receiverOutputControl: output })).toEqual([
        { code: 'RECEIVER_OUTPUT_CONTROL_INVALID', field: 'receiverOutputControl' },
      ]);
      expectRejected(
        parsePayload(configurationCreateSchema, { name: 'A', receiverOutputControl: output }),
        'RECEIVER_OUTPUT_CONTROL_INVALID',
        'receiverOutputControl',
      );
    });
  });

  describe('canKBitrate with EPC or NSCP devices', () => {
    it.each(['BITRATE_250000', 'BITRATE_500000'] as const)('%s passes with EPC and NSCP', (bitrate) => {
      expect(check({ canKBitrate: bitrate }, { region: 'NA', deviceTypes: ['EPC', 'NSCP'] })).toEqual([]);
    });
    it.each(['EPC', 'NSCP'] as const)('BITRATE_125000 breaks with an %s', (type) => {
      expect(check({ canKBitrate: 'BITRATE_125000' }, { region: 'NA', deviceTypes: ['SRCP', type] })).toEqual([
        { code: 'CAN_BITRATE_NOT_SUPPORTED', field: 'canKBitrate' },
      ]);
    });
    it('any bitrate passes without endpoint controllers', () => {
      expect(check({ canKBitrate: 'BITRATE_1000000' }, { region: 'NA', deviceTypes: ['SRCP', 'WESP'] })).toEqual([]);
    });
  });

  describe('startingIpAddress', () => {
    it('passes as a dotted quad', () => expect(check({ startingIpAddress: '10.0.0.1' })).toEqual([]));
    it.each(['10.0.0', '10.0.0.256', '010.0.0.1', 'ten'])('%j breaks', (address) => {
      expect(check({ startingIpAddress: address })).toEqual([
        { code: 'INVALID_IPV4_ADDRESS', field: 'startingIpAddress' },
      ]);
      expectRejected(
        parsePayload(configurationCreateSchema, { name: 'A', startingIpAddress: address }),
        'INVALID_IPV4_ADDRESS',
        'startingIpAddress',
      );
    });
  });

  it('a create payload that passes the schema passes the rules in North America', () => {
    const created = expectAccepted(
      parsePayload(configurationCreateSchema, { name: 'A', ismTxChannel: 7, timeoutConfiguration: 1000 }),
    );
    expect(check(created)).toEqual([]);
    expect(check(created, EU)).toEqual([{ code: 'ISM_CHANNEL_NOT_ALLOWED_IN_REGION', field: 'ismTxChannel' }]);
  });
});
