import { describe, expect, it } from 'vitest';
import {
  apiKeyRoleBodySchema,
  apiKeyValidateSchema,
  configurationConfirmationSchema,
  deviceImageBodySchema,
  deviceRegisterQuerySchema,
  deviceRenameQuerySchema,
  firmwareConfirmationSchema,
  MAX_DEVICE_IMAGE_LENGTH,
  parsePayload,
  userRegisterSchema,
  userRoleBodySchema,
  validateDeviceRename,
  validateFirmwareConfirmation,
} from '../../domain';
import { expectAccepted, expectRejected, pairs } from './expectations';

describe('registering and renaming a device', () => {
  it('register takes name and serialNumber from the query, trimmed', () => {
    expect(
      expectAccepted(parsePayload(deviceRegisterQuerySchema, { name: ' Press 4 ', serialNumber: 'EPC000101' })),
    ).toEqual({
      name: 'Press 4',
      serialNumber: 'EPC000101',
    });
  });
  it('register needs a name and a serial number', () => {
    expectRejected(parsePayload(deviceRegisterQuerySchema, { serialNumber: 'EPC000101' }), 'REQUIRED', 'name');
    expectRejected(
      parsePayload(deviceRegisterQuerySchema, { name: ' ', serialNumber: 'EPC000101' }),
      'DEVICE_NAME_TOO_SHORT',
      'name',
    );
    expectRejected(
      parsePayload(deviceRegisterQuerySchema, { name: 'Press', serialNumber: '' }),
      'SERIAL_NUMBER_TOO_SHORT',
      'serialNumber',
    );
  });
  it('the image body is optional and limited in size', () => {
    expect(expectAccepted(parsePayload(deviceImageBodySchema, undefined))).toEqual({});
    expect(
      expectAccepted(parsePayload(deviceImageBodySchema, { deviceImage: 'data:image/png;base64,iVBORw0KGgo=' }))
        .deviceImage,
    ).toContain('base64');
    expectRejected(
      parsePayload(deviceImageBodySchema, { deviceImage: 'x'.repeat(MAX_DEVICE_IMAGE_LENGTH + 1) }),
      'DEVICE_IMAGE_TOO_LARGE',
      'deviceImage',
    );
  });
  it('rename reads deleteImage as a query boolean', () => {
    expect(expectAccepted(parsePayload(deviceRenameQuerySchema, { deleteImage: 'true' }))).toEqual({
      deleteImage: true,
    });
    expectRejected(parsePayload(deviceRenameQuerySchema, { name: '' }), 'DEVICE_NAME_TOO_SHORT', 'name');
  });
  it('deleting the image and sending a new one contradict each other', () => {
    expect(pairs(validateDeviceRename({ deleteImage: true }, { deviceImage: 'abc' }))).toEqual([
      { code: 'DELETE_IMAGE_WITH_IMAGE', field: 'deleteImage' },
    ]);
    expect(validateDeviceRename({ deleteImage: true }, {})).toEqual([]);
    expect(validateDeviceRename({ deleteImage: false }, { deviceImage: 'abc' })).toEqual([]);
  });
});

describe('apply confirmations', () => {
  const at = '2025-03-01T14:30:00Z';
  it('firmware: a success names the version', () => {
    const ok = expectAccepted(
      parsePayload(firmwareConfirmationSchema, {
        firmwareFileSuccessfullyDeployed: true,
        firmwareVersion: '2.4.1',
        applyTimeStamp: at,
      }),
    );
    expect(validateFirmwareConfirmation(ok)).toEqual([]);
    const missing = expectAccepted(
      parsePayload(firmwareConfirmationSchema, { firmwareFileSuccessfullyDeployed: true, applyTimeStamp: at }),
    );
    expect(pairs(validateFirmwareConfirmation(missing))).toEqual([
      { code: 'FIRMWARE_VERSION_REQUIRED', field: 'firmwareVersion' },
    ]);
  });
  it('firmware: null counts as not deployed, and a failure needs no version', () => {
    const failed = expectAccepted(
      parsePayload(firmwareConfirmationSchema, {
        firmwareFileSuccessfullyDeployed: null,
        error: 'CRC mismatch',
        applyTimeStamp: at,
      }),
    );
    expect(failed.firmwareFileSuccessfullyDeployed).toBe(false);
    expect(validateFirmwareConfirmation(failed)).toEqual([]);
  });
  it('firmware: the time stamp is required', () => {
    expectRejected(
      parsePayload(firmwareConfirmationSchema, { firmwareFileSuccessfullyDeployed: true, firmwareVersion: '1' }),
      'REQUIRED',
      'applyTimeStamp',
    );
  });
  it('configuration: needs outcome, syncId and time stamp; accepts an offset', () => {
    const payload = {
      configurationFileSuccessfullyDeployed: true,
      syncId: '8e3c2a1b-4d5e-4f6a-9b7c-0d1e2f3a4b5c',
      applyTimeStamp: '2025-03-01T15:30:00+01:00',
    };
    expect(expectAccepted(parsePayload(configurationConfirmationSchema, payload))).toEqual(payload);
    expectRejected(
      parsePayload(configurationConfirmationSchema, { ...payload, configurationFileSuccessfullyDeployed: null }),
      'REQUIRED',
      'configurationFileSuccessfullyDeployed',
    );
    expectRejected(
      parsePayload(configurationConfirmationSchema, { ...payload, syncId: undefined }),
      'REQUIRED',
      'syncId',
    );
  });
  it('ignores unknown fields, so a replayed confirmation never bounces on them', () => {
    expect(
      parsePayload(configurationConfirmationSchema, {
        configurationFileSuccessfullyDeployed: false,
        error: 'signature rejected',
        syncId: '8e3c2a1b-4d5e-4f6a-9b7c-0d1e2f3a4b5c',
        applyTimeStamp: at,
        clientVersion: '0.9',
      }).ok,
    ).toBe(true);
  });
});

describe('users and API keys', () => {
  it('a user is registered with an email and a role', () => {
    expect(
      expectAccepted(parsePayload(userRegisterSchema, { email: 'ana@example.com', userRole: 'ConfigManager' })),
    ).toEqual({
      email: 'ana@example.com',
      userRole: 'ConfigManager',
    });
    expectRejected(parsePayload(userRegisterSchema, { email: null, userRole: 'Admin' }), 'REQUIRED', 'email');
    expectRejected(
      parsePayload(userRegisterSchema, { email: 'ana@example.com', userRole: 'Service' }),
      'INVALID_ENUM_VALUE',
      'userRole',
    );
  });
  it('role bodies are bare strings', () => {
    expect(expectAccepted(parsePayload(userRoleBodySchema, 'Operator'))).toBe('Operator');
    expectRejected(parsePayload(userRoleBodySchema, 'KeyManager'), 'INVALID_ENUM_VALUE', '');
    expectRejected(parsePayload(userRoleBodySchema, { role: 'Admin' }), 'INVALID_ENUM_VALUE', '');
    expect(expectAccepted(parsePayload(apiKeyRoleBodySchema, 'Service'))).toBe('Service');
    expectRejected(parsePayload(apiKeyRoleBodySchema, 'Owner'), 'INVALID_ENUM_VALUE', '');
  });
  it('key validation takes a key or null', () => {
    expect(expectAccepted(parsePayload(apiKeyValidateSchema, { apiKey: 'pk_live_abc' }))).toEqual({
      apiKey: 'pk_live_abc',
    });
    expect(expectAccepted(parsePayload(apiKeyValidateSchema, { apiKey: null }))).toEqual({ apiKey: null });
    expect(expectAccepted(parsePayload(apiKeyValidateSchema, {}))).toEqual({ apiKey: null });
    expectRejected(parsePayload(apiKeyValidateSchema, { apiKey: 42 }), 'INVALID_TYPE', 'apiKey');
  });
});
