import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * Where provisioning keeps its state under one data directory. The firmware cache, the outbox and
 * the intent journal are shared by every account (their entries say which service they belong to);
 * configuration files and the signing key are kept per account, because two services issue files
 * for the same serial number.
 */
export interface ProvisioningPaths {
  firmwareCache: string;
  outbox: string;
  intents: string;
  account(serviceUrl: string, orgId: string): { configFiles: string; keys: string };
}

export function provisioningPaths(dataDir: string): ProvisioningPaths {
  return {
    firmwareCache: join(dataDir, 'firmware-cache'),
    outbox: join(dataDir, 'outbox'),
    intents: join(dataDir, 'intents'),
    account(serviceUrl, orgId) {
      const slug = createHash('sha256').update(`${serviceUrl}\u0000${orgId}`).digest('hex').slice(0, 16);
      const dir = join(dataDir, 'accounts', slug);
      return { configFiles: join(dir, 'config-files'), keys: dir };
    },
  };
}
