import { describe, expect, it } from 'vitest';
import {
  apiKeyRecordSchema,
  apiKeyValidationSchema,
  configurationDeviceRecordSchema,
  configurationRecordSchema,
  deviceRecordSchema,
  envelopeSchema,
  errorEntrySchema,
  ipNetworkTemplateRecordSchema,
  pageSchema,
  userRecordSchema,
  versionSchema,
  type ConfigurationDeviceRecord,
  type ConfigurationRecord,
} from '../../domain';

const now = '2025-03-01T14:30:00.000Z';
const deviceRecord: ConfigurationDeviceRecord = {
  serialNumber: 'EPC000101',
  deviceType: 'EPC',
  deviceConfigurationType: 'Receiver',
  commInterface: 'BLE,Ethernet',
  ipAddress: '10.0.0.3',
  inputConfiguration1: null,
  inputConfiguration2: null,
  inputConfiguration3: null,
  can0Id: 1,
  can1Id: null,
  voltage: null,
  serial0Usage: null,
  serial1Usage: null,
  serial0Baudrate: null,
  serial1Baudrate: null,
  stopCategory: null,
  cat1StopDelay: null,
  ossdEnabled: null,
  ethNetmask: '255.255.255.0',
  ethGateway: null,
  ethNameservers: null,
  wifiNetmask: null,
  wifiGateway: null,
  wifiNameservers: null,
  wifiSsid: null,
  wifiPasswordSet: false,
  networkTemplateId: null,
};
const configurationRecord: ConfigurationRecord = {
  id: '2f0e6b7c-1d2e-4f3a-9b4c-5d6e7f8a9b0c',
  name: 'Mixer bay',
  startingIpAddress: null,
  ismTxPower: null,
  ismTxChannel: null,
  ismNetworkId: null,
  canMode: 'j1939',
  canKBitrate: 'BITRATE_500000',
  displayTextPgn: 65281,
  settingsPgn: 65282,
  approvedSourceAddresses: null,
  receiverOutputControl: 2,
  timeoutConfiguration: '5000ms',
  devices: [deviceRecord],
  createdAt: now,
  lastEditedAt: now,
};

describe('record schemas', () => {
  it('read a configuration inside the envelope', () => {
    const body = { data: configurationRecord, success: true, errors: null };
    expect(envelopeSchema(configurationRecordSchema).parse(body)).toEqual(body);
  });

  it('read a failure envelope with error entries', () => {
    const body = {
      data: null,
      success: false,
      errors: [
        { code: 'NAME_TOO_SHORT', message: 'The configuration needs a name.', field: 'name' },
        { code: 'NOT_FOUND', message: 'No such configuration.' },
      ],
    };
    expect(envelopeSchema(configurationRecordSchema.nullable()).parse(body)).toEqual(body);
    expect(errorEntrySchema.safeParse({ code: 'X' }).success).toBe(false);
  });

  it('refuse a device record that leaks the Wifi password', () => {
    expect(configurationDeviceRecordSchema.safeParse(deviceRecord).success).toBe(true);
    expect(configurationDeviceRecordSchema.safeParse({ ...deviceRecord, wifiPassword: 'secret' }).success).toBe(false);
  });

  it('refuse a template record that leaks its password', () => {
    const template = {
      id: '7b7f6bde-2b1c-4d4b-8d8e-0c8d9e6f1a22',
      ipNetworkTemplateName: 'Plant',
      commInterface: 'Wifi',
      netmask: '255.255.255.0',
      gatewayIpAddress: null,
      nameservers: null,
      ssid: 'Plant',
      passwordSet: true,
      createdAt: now,
      lastEditedAt: now,
    };
    expect(ipNetworkTemplateRecordSchema.safeParse(template).success).toBe(true);
    expect(ipNetworkTemplateRecordSchema.safeParse({ ...template, password: 'pw' }).success).toBe(false);
  });

  it('ignore fields a newer service adds', () => {
    expect(configurationRecordSchema.safeParse({ ...configurationRecord, colour: 'blue' }).success).toBe(true);
  });

  it('need every field, null when unset', () => {
    const { ismTxChannel: _dropped, ...withoutChannel } = configurationRecord;
    expect(configurationRecordSchema.safeParse(withoutChannel).success).toBe(false);
  });

  it('read a page of registered devices', () => {
    const device = {
      serialNumber: 'EPC000101',
      name: 'Press 4',
      deviceType: 'EPC',
      model: 'EPC-2',
      hasImage: false,
      deviceImage: null,
      configurationId: null,
      configurationName: null,
      firmwareVersion: '2.4.1',
      lastFirmwareApply: { success: true, firmwareVersion: '2.4.1', error: null, appliedAt: now },
      deployStatus: 'NotDeployed',
      deployedSyncId: null,
      lastConfigurationApply: null,
      registeredAt: now,
    };
    const page = { items: [device], page: 1, limit: 20, totalCount: 1 };
    expect(pageSchema(deviceRecordSchema).parse(page)).toEqual(page);
    expect(pageSchema(deviceRecordSchema).safeParse({ ...page, page: 0 }).success).toBe(false);
    expect(deviceRecordSchema.safeParse({ ...device, deployStatus: 'Pending' }).success).toBe(false);
  });

  it('read users, keys, validation results and the version', () => {
    expect(
      userRecordSchema.safeParse({
        id: '5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
        email: 'ana@example.com',
        firstName: null,
        lastName: null,
        userRole: 'Admin',
        isActive: true,
        lastActivityAt: null,
        createdAt: now,
      }).success,
    ).toBe(true);
    expect(
      apiKeyRecordSchema.safeParse({ name: 'line-3', role: 'Service', createdAt: now, lastUsedAt: null }).success,
    ).toBe(true);
    expect(
      apiKeyRecordSchema.safeParse({
        name: 'line-3',
        role: 'Service',
        createdAt: now,
        lastUsedAt: null,
        key: '••••3f9a',
      }).success,
    ).toBe(true);
    expect(
      apiKeyValidationSchema.safeParse({ valid: false, organizationId: null, keyName: null, role: null }).success,
    ).toBe(true);
    expect(versionSchema.safeParse({ apiVersion: '1', serviceVersion: '0.1.0' }).success).toBe(true);
  });
});
