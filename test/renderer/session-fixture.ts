import type { SessionView } from '../../contract/index';

const ALLOWED = { allowed: true } as const;
/** A signed-in local session; an Operator may not create or change configurations. */
export function session(role: 'Admin' | 'Operator'): SessionView {
  const refused = {
    allowed: false,
    reason: `Your key's role ${role} may not create or change configurations; Admin or ConfigManager may.`,
  } as const;
  return {
    status: 'signedIn',
    kind: 'local',
    serviceUrl: 'http://127.0.0.1:1',
    orgId: 'demo',
    organizationName: 'Demo',
    region: 'NA',
    keyName: 'k',
    role,
    remembered: true,
    capabilities: {
      'configurations.read': ALLOWED,
      'configurations.write': role === 'Admin' ? ALLOWED : refused,
      'devices.read': ALLOWED,
      'devices.write': ALLOWED,
      'files.download': ALLOWED,
      'confirmations.send': ALLOWED,
      'templates.read': ALLOWED,
      'templates.write': ALLOWED,
      'users.manage': ALLOWED,
      'keys.manage': ALLOWED,
    },
  };
}
