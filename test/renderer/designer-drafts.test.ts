import { describe, expect, it } from 'vitest';
import type { ConfigurationSettings } from '../../domain/configuration';
import { applicableDeviceFields, checkDeviceDraft, emptyDeviceDraft } from '../../renderer/designer/device-draft';
import { checkSettingsDraft, draftFromSettings } from '../../renderer/designer/settings-draft';
import { placeViolations } from '../../renderer/designer/violations';

const stored: ConfigurationSettings = { name: 'Line 3', timeoutConfiguration: '1000ms', canMode: 'none' };
const codes = (vs: { code: string; field: string }[]) => vs.map((v) => `${v.field}:${v.code}`);

describe('configuration settings draft', () => {
  it('sends only what changed', () => {
    const draft = { ...draftFromSettings(stored), ismTxChannel: '5', ismTxPower: 'High' };
    const check = checkSettingsDraft(draft, stored, { region: 'NA', deviceTypes: [] });
    expect(check.violations).toEqual([]);
    expect(check.patch).toEqual({ ismTxChannel: 5, ismTxPower: 'High' });
    expect(check.changed).toBe(true);
    expect(checkSettingsDraft(draftFromSettings(stored), stored, { region: 'NA', deviceTypes: [] }).changed).toBe(
      false,
    );
  });

  it('reports the region rule on the ISM channel, beside that field', () => {
    const draft = { ...draftFromSettings(stored), ismTxChannel: '22' };
    expect(codes(checkSettingsDraft(draft, stored, { region: 'NA', deviceTypes: [] }).violations)).toEqual([
      'ismTxChannel:ISM_CHANNEL_OUT_OF_RANGE',
    ]);
    const eu = { ...draftFromSettings(stored), ismTxChannel: '2' };
    expect(codes(checkSettingsDraft(eu, stored, { region: 'EU', deviceTypes: [] }).violations)).toEqual([
      'ismTxChannel:ISM_CHANNEL_NOT_ALLOWED_IN_REGION',
    ]);
  });

  it('reports text that is not a number, PGNs without J1939 and bitrates the devices refuse', () => {
    const draft = {
      ...draftFromSettings(stored),
      ismTxChannel: 'five',
      displayTextPgn: '0xFF10',
      canKBitrate: 'BITRATE_125000',
    };
    const found = codes(checkSettingsDraft(draft, stored, { region: 'NA', deviceTypes: ['EPC'] }).violations);
    expect(found).toContain('ismTxChannel:INVALID_INTEGER');
    // Fix the text and the rules on the merge still speak, as they did beside it.
    const fixed = { ...draft, ismTxChannel: '5' };
    expect(codes(checkSettingsDraft(fixed, stored, { region: 'NA', deviceTypes: ['EPC'] }).violations)).toEqual([
      'displayTextPgn:PGN_REQUIRES_J1939',
      'canKBitrate:CAN_BITRATE_NOT_SUPPORTED',
    ]);
  });

  it('marks every invalid field at once: a rule on one field still speaks while another fails the schema', () => {
    // ISM channel 40 breaks the region's rule, 192.168.10.300 the address format: both at once.
    const draft = { ...draftFromSettings(stored), ismTxChannel: '40', startingIpAddress: '192.168.10.300' };
    const check = checkSettingsDraft(draft, stored, { region: 'NA', deviceTypes: [] });
    expect(
      codes(check.violations)
        .map((c) => c.split(':')[0])
        .sort(),
    ).toEqual(['ismTxChannel', 'startingIpAddress']);
    expect(placeViolations(check.violations, ['ismTxChannel', 'startingIpAddress']).unplaced).toEqual([]);
  });

  it('refuses to empty a stored setting (PATCH cannot unset)', () => {
    const draft = { ...draftFromSettings(stored), timeoutConfiguration: '' };
    expect(codes(checkSettingsDraft(draft, stored, { region: 'NA', deviceTypes: [] }).violations)).toEqual([
      'timeoutConfiguration:REQUIRED',
    ]);
  });
});

describe('device in a configuration draft', () => {
  it('offers the fields that apply to the type, role, interfaces and stop category only', () => {
    const srcp = applicableDeviceFields(
      'SRCP',
      { deviceConfigurationType: 'Sender', commInterface: 'ISM', stopCategory: '' },
      'add',
    );
    expect(srcp).toEqual(['deviceConfigurationType', 'commInterface']);
    const epc = applicableDeviceFields(
      'EPC',
      { deviceConfigurationType: 'Receiver', commInterface: 'BLE,Ethernet', stopCategory: '' },
      'edit',
    );
    expect(epc).toEqual(
      expect.arrayContaining([
        'ipAddress',
        'inputConfiguration1',
        'inputConfiguration2',
        'can1Id',
        'voltage',
        'ethNetmask',
      ]),
    );
    expect(epc).not.toContain('stopCategory');
    expect(epc).not.toContain('wifiSsid');
    const nscp = applicableDeviceFields(
      'NSCP',
      { deviceConfigurationType: 'EStopSender', commInterface: 'ISM', stopCategory: 'CAT1' },
      'add',
    );
    expect(nscp).toEqual(
      expect.arrayContaining([
        'inputConfiguration1',
        'inputConfiguration3',
        'stopCategory',
        'cat1StopDelay',
        'serial0Usage',
      ]),
    );
    // Rule 2: no input 2 with CAT1; update-only fields are not offered when adding.
    expect(nscp).not.toContain('inputConfiguration2');
    expect(nscp).not.toContain('serial0Baudrate');
  });

  it('checks an add with the domain: required choices block, an interface the type lacks (our rule) warns', () => {
    const ctx = {
      mode: 'add' as const,
      serialNumber: 'SRCP000101',
      deviceType: 'SRCP' as const,
      stored: null,
      configuration: stored,
      region: 'NA' as const,
    };
    expect(codes(checkDeviceDraft(emptyDeviceDraft(), ctx).violations)).toEqual([
      'deviceConfigurationType:DEVICE_ROLE_MISSING',
      'commInterface:COMM_INTERFACE_MISSING',
    ]);
    const wrong = { ...emptyDeviceDraft(), deviceConfigurationType: 'Sender', commInterface: 'Ethernet' };
    expect(checkDeviceDraft(wrong, ctx).violations).toEqual([]);
    expect(codes(checkDeviceDraft(wrong, ctx).warnings)).toEqual([
      'commInterface:INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE',
    ]);
    const good = { ...emptyDeviceDraft(), deviceConfigurationType: 'Sender', commInterface: 'ISM' };
    const check = checkDeviceDraft(good, ctx);
    expect(check.violations).toEqual([]);
    expect(check.warnings).toEqual([]);
    expect(check.payload).toEqual({
      serialNumber: 'SRCP000101',
      deviceConfigurationType: 'Sender',
      commInterface: 'ISM',
    });
  });

  it('checks addresses as they are typed', () => {
    const ctx = {
      mode: 'add' as const,
      serialNumber: 'EPC000101',
      deviceType: 'EPC' as const,
      stored: null,
      configuration: stored,
      region: 'NA' as const,
    };
    const draft = {
      ...emptyDeviceDraft(),
      deviceConfigurationType: 'Receiver',
      commInterface: 'Ethernet',
      ipAddress: '10.0.0.300',
      ethNetmask: '255.255.255.0',
    };
    expect(codes(checkDeviceDraft(draft, ctx).violations)).toEqual(['ipAddress:INVALID_IPV4_ADDRESS']);
  });
});

describe('placing violations beside fields', () => {
  it('maps dotted paths to their field and keeps the rest for a list', () => {
    const placed = placeViolations(
      [
        { code: 'SOURCE_ADDRESS_OUT_OF_RANGE', field: 'approvedSourceAddresses.2', message: 'too big' },
        { code: 'NO_SENDER', field: 'devices', message: 'no sender' },
        { code: 'X', field: 'approvedSourceAddresses.3', message: 'second' },
      ],
      ['approvedSourceAddresses', 'name'],
    );
    expect(placed.byField).toEqual({ approvedSourceAddresses: 'too big' });
    expect(placed.unplaced.map((v) => v.code)).toEqual(['NO_SENDER']);
    const device = placeViolations(
      [{ code: 'Y', field: 'devices.EPC1.ipAddress', message: 'ip' }],
      ['ipAddress'],
      'devices.EPC1',
    );
    expect(device.byField).toEqual({ ipAddress: 'ip' });
  });
});
