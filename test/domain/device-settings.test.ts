import { describe, expect, it } from 'vitest';
import {
  configurationDeviceRecordSchema,
  DEVICE_SETTING_KEYS,
  deviceAddSchema,
  deviceUpdateSchema,
  recordedDeviceSettings,
  UPDATE_ONLY_DEVICE_SETTINGS,
} from '../../domain';
import { fieldLabel } from '../../domain/field-labels';

/** The one list of device settings, and what is made from it. */
describe('device settings', () => {
  it('gives the record every setting but the Wifi password, which it only says is set', () => {
    const recordFields = Object.keys(configurationDeviceRecordSchema.shape);
    expect(recordFields).toEqual(expect.arrayContaining(DEVICE_SETTING_KEYS.filter((k) => k !== 'wifiPassword')));
    expect(recordFields.filter((k) => !(DEVICE_SETTING_KEYS as string[]).includes(k)).sort()).toEqual([
      'deviceType',
      'serialNumber',
      'wifiPasswordSet',
    ]);
  });

  it('lets updates carry every setting and adds all but the update-only ones', () => {
    expect(Object.keys(deviceUpdateSchema.shape).sort()).toEqual(['serialNumber', ...DEVICE_SETTING_KEYS].sort());
    expect(Object.keys(deviceAddSchema.shape).sort()).toEqual(['serialNumber', ...DEVICE_SETTING_KEYS].sort());
    for (const key of UPDATE_ONLY_DEVICE_SETTINGS) {
      expect(deviceAddSchema.safeParse({ serialNumber: 'EPC000101', [key]: deviceUpdateValue(key) }).success, key).toBe(
        false,
      );
      expect(deviceUpdateSchema.safeParse({ [key]: deviceUpdateValue(key) }).success, key).toBe(true);
    }
  });

  it('names every setting for the technician', () => {
    for (const key of DEVICE_SETTING_KEYS) expect(fieldLabel(key), key).not.toBe(key);
  });

  it('records unset settings as null, copies lists, and never the password itself', () => {
    const nameservers = ['10.0.0.53'];
    const recorded = recordedDeviceSettings({
      commInterface: 'Ethernet',
      ethNameservers: nameservers,
      wifiPassword: 'secret',
      wifiPasswordSet: true,
    });
    expect(recorded).toMatchObject({
      commInterface: 'Ethernet',
      ethNameservers: ['10.0.0.53'],
      ipAddress: null,
      can1Id: null,
      wifiPasswordSet: true,
    });
    expect(recorded.ethNameservers).not.toBe(nameservers);
    expect(recorded).not.toHaveProperty('wifiPassword');
    expect(
      configurationDeviceRecordSchema.safeParse({ serialNumber: 'EPC000101', deviceType: 'EPC', ...recorded }).success,
    ).toBe(true);
    expect(recordedDeviceSettings({}).wifiPasswordSet).toBe(false);
  });
});

function deviceUpdateValue(key: (typeof UPDATE_ONLY_DEVICE_SETTINGS)[number]): unknown {
  return { can1Id: 7, voltage: 'VOLTAGE_12V', serial0Baudrate: 'BAUDRATE_115200', serial1Baudrate: 'BAUDRATE_115200' }[
    key
  ];
}
