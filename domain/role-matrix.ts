import type { ApiKeyRole } from './enums';

/**
 * Which role may call which operation: the one table every route is checked against (and the
 * table the tests walk operation by operation). docs/service-roles.md explains each column.
 */
const READERS: readonly ApiKeyRole[] = ['Admin', 'ConfigManager', 'DeviceManager', 'Operator'];
const CONFIG_WRITERS: readonly ApiKeyRole[] = ['Admin', 'ConfigManager'];
const DEVICE_WRITERS: readonly ApiKeyRole[] = ['Admin', 'DeviceManager'];
/** Whoever puts files on devices: technicians (Operator), device managers and device-facing accounts. */
const FILE_READERS: readonly ApiKeyRole[] = ['Admin', 'DeviceManager', 'Service', 'Operator'];
const CONFIRMERS: readonly ApiKeyRole[] = ['Admin', 'DeviceManager', 'Service', 'Operator'];
const KEY_MANAGERS: readonly ApiKeyRole[] = ['Admin', 'KeyManager'];
const ADMINS: readonly ApiKeyRole[] = ['Admin'];
const EVERYONE: readonly ApiKeyRole[] = ['Admin', 'KeyManager', 'ConfigManager', 'DeviceManager', 'Service', 'Operator'];

export const ROLE_MATRIX = {
  'configurations.list': READERS,
  'configurations.create': CONFIG_WRITERS,
  'configurations.get': READERS,
  'configurations.delete': CONFIG_WRITERS,
  'configurations.update': CONFIG_WRITERS,
  'configurations.status': READERS,
  'configurations.addDevice': CONFIG_WRITERS,
  'configurations.removeDevice': CONFIG_WRITERS,
  'configurations.updateDevice': CONFIG_WRITERS,

  'devices.list': READERS,
  'devices.register': DEVICE_WRITERS,
  'devices.update': DEVICE_WRITERS,
  'devices.firmware': FILE_READERS,
  'devices.firmwareVersion': [...FILE_READERS, 'ConfigManager'],
  'devices.typeFirmware': FILE_READERS,
  'devices.typeFirmwareVersion': [...FILE_READERS, 'ConfigManager'],
  'devices.configurationFile': FILE_READERS,
  'devices.blankConfigurationFile': FILE_READERS,
  'devices.confirmFirmware': CONFIRMERS,
  'devices.confirmConfiguration': CONFIRMERS,

  'ipNetworkTemplates.list': READERS,
  'ipNetworkTemplates.create': CONFIG_WRITERS,
  'ipNetworkTemplates.get': READERS,

  'users.list': ADMINS,
  'users.register': ADMINS,
  'users.get': ADMINS,
  'users.delete': ADMINS,
  'users.updateRole': ADMINS,

  'apiKeys.list': KEY_MANAGERS,
  'apiKeys.updateRole': KEY_MANAGERS,
  // Anyone holding a key may check one: clients validate the key they were given at sign-in.
  'apiKeys.validate': EVERYONE,

  'version.organization': EVERYONE,
} as const satisfies Record<string, readonly ApiKeyRole[]>;

export type OperationId = keyof typeof ROLE_MATRIX;

export function isAllowed(operation: OperationId, role: ApiKeyRole): boolean {
  return (ROLE_MATRIX[operation] as readonly ApiKeyRole[]).includes(role);
}
