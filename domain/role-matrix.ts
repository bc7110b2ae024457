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
const EVERYONE: readonly ApiKeyRole[] = [
  'Admin',
  'KeyManager',
  'ConfigManager',
  'DeviceManager',
  'Service',
  'Operator',
];

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
  'devices.release': DEVICE_WRITERS,
  'devices.firmware': FILE_READERS,
  'devices.firmwareVersion': [...FILE_READERS, 'ConfigManager'],
  'devices.typeFirmware': FILE_READERS,
  'devices.typeFirmwareVersion': [...FILE_READERS, 'ConfigManager'],
  'devices.typeFirmwarePatches': FILE_READERS,
  'devices.typeFirmwarePatch': FILE_READERS,
  'devices.configurationFile': FILE_READERS,
  'devices.blankConfigurationFile': FILE_READERS,
  'devices.syncId': FILE_READERS,
  'devices.confirmFirmware': CONFIRMERS,
  'devices.confirmConfiguration': CONFIRMERS,
  // The ledger goes with the confirmations: who confirms an action sends its signed record.
  'ledger.append': CONFIRMERS,
  'ledger.list': CONFIRMERS,
  // Who may send a workstation's entries may enrol its key (the service records who did);
  // replacing or revoking a key is an Admin's (the rotation's check is in the route).
  'workstations.enrol': CONFIRMERS,
  // Who exports a work package (reads the files it carries) has the service issue its grant.
  'workstations.grant': FILE_READERS,
  'workstations.revoke': ADMINS,
  'workstations.keys': EVERYONE,
  // Who exports a work package has the organization's key sign it (the service checks what it grants).
  'workPackages.sign': FILE_READERS,

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
  // Ours: issuing, revoking and rotating keys; a caller touches only keys of roles it ranks above
  // or equal to (checked in the routes, as for a role change).
  'apiKeys.create': KEY_MANAGERS,
  'apiKeys.revoke': KEY_MANAGERS,
  'apiKeys.rotate': KEY_MANAGERS,
  // Anyone holding a key may check one: clients validate the key they were given at sign-in.
  'apiKeys.validate': EVERYONE,

  'version.organization': EVERYONE,
} as const satisfies Record<string, readonly ApiKeyRole[]>;

export type OperationId = keyof typeof ROLE_MATRIX;

export function isAllowed(operation: OperationId, role: ApiKeyRole): boolean {
  return (ROLE_MATRIX[operation] as readonly ApiKeyRole[]).includes(role);
}

const OPERATIONS = Object.keys(ROLE_MATRIX) as OperationId[];

/**
 * The rank of roles, which keeps key management to least privilege: a caller sees the value of a
 * key, gives a role or changes a key's role only when `holder` (its own role) ranks at least as
 * high as that role, i.e. the role can do nothing the holder cannot. Seeing a key's value is
 * holding its powers, so a lower key must never see a higher one.
 * - Admin ranks above every role: it may call every operation.
 * - KeyManager ranks above every role but Admin: it may give any of them, to its own key too, so
 *   their operations are within its reach already; Admin's (users, making admins) are not.
 * - Any other role ranks at least as high as the roles whose every operation it may call
 *   (DeviceManager over Operator and Service, Operator over Service); ConfigManager and the rest
 *   do not compare. docs/service-roles.md draws it.
 */
export function ranksAtLeast(holder: ApiKeyRole, role: ApiKeyRole): boolean {
  if (holder === 'KeyManager' && role !== 'Admin') return true;
  return OPERATIONS.every((operation) => !isAllowed(operation, role) || isAllowed(operation, holder));
}
