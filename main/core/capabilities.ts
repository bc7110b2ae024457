import type { ApiKeyRole } from '../../domain/enums';
import { ROLE_MATRIX, type OperationId } from '../../domain/role-matrix';
import { CAPABILITIES, type Capability, type CapabilityState } from '../../contract/index';

/**
 * What a role may do, in the renderer's terms, derived from the service's role matrix (the one the
 * service enforces). The renderer disables what is refused and shows the reason.
 */
const OPERATION_OF: Record<Capability, OperationId> = {
  'configurations.read': 'configurations.list',
  'configurations.write': 'configurations.update',
  'devices.read': 'devices.list',
  'devices.write': 'devices.register',
  'files.download': 'devices.firmware',
  'confirmations.send': 'devices.confirmFirmware',
  'templates.read': 'ipNetworkTemplates.list',
  'templates.write': 'ipNetworkTemplates.create',
  'users.manage': 'users.list',
  'keys.manage': 'apiKeys.list',
};

const WHAT: Record<Capability, string> = {
  'configurations.read': 'see configurations',
  'configurations.write': 'create or change configurations',
  'devices.read': 'see the device registry',
  'devices.write': 'register or change devices',
  'files.download': 'put firmware and configuration files on devices',
  'confirmations.send': 'confirm applies to the service',
  'templates.read': 'see network templates',
  'templates.write': 'create network templates',
  'users.manage': 'manage users',
  'keys.manage': 'manage API keys',
};

export function capabilitiesOf(role: ApiKeyRole): Record<Capability, CapabilityState> {
  const entries = CAPABILITIES.map((capability): [Capability, CapabilityState] => {
    const allowed = ROLE_MATRIX[OPERATION_OF[capability]] as readonly ApiKeyRole[];
    if (allowed.includes(role)) return [capability, { allowed: true }];
    return [
      capability,
      { allowed: false, reason: `Your key's role ${role} may not ${WHAT[capability]}; ${listRoles(allowed)} may.` },
    ];
  });
  return Object.fromEntries(entries) as Record<Capability, CapabilityState>;
}

function listRoles(roles: readonly ApiKeyRole[]): string {
  if (roles.length === 1) return roles[0] ?? '';
  return `${roles.slice(0, -1).join(', ')} or ${roles.at(-1) ?? ''}`;
}
