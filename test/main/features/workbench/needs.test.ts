import { describe, expect, it } from 'vitest';
import type { ServiceClient } from '../../../../main/cloud';
import type { Account } from '../../../../main/core/account-session';
import { needsOf } from '../../../../main/features/workbench/workbench';

/**
 * What the Workbench's Needs column says of a device, from the service's two answers (its latest
 * firmware and its record). The vendor's EPC names no configuration file it holds: a record that
 * says the configuration was applied is not "not applied yet".
 */

function accountWith(record: { deployStatus: string; deployedSyncId: string | null }): Account {
  const client = {
    devices: {
      firmwareVersion: async () => ({ version: '1.1.0' }),
      list: async () => ({
        items: [{ serialNumber: 'EPC000201', configurationId: 'c-1', configurationName: 'Loader 7', ...record }],
        page: 1,
        limit: 1,
        totalCount: 1,
      }),
    },
  } as unknown as ServiceClient;
  return {
    kind: 'service',
    serviceUrl: 'http://127.0.0.1:1',
    orgId: 'demo',
    keyName: 'k',
    role: 'Admin',
    organizationName: null,
    region: null,
    remembered: false,
    client,
  };
}

describe('needsOf', () => {
  it('takes the record of an applied configuration for a vendor EPC that names no file, and says how to be sure', async () => {
    const needs = await needsOf(accountWith({ deployStatus: 'Deployed', deployedSyncId: 's-1' }), {
      serialNumber: 'EPC000201',
      firmwareVersion: '1.1.0',
      configSyncId: null,
      protocol: 'vendor',
    });
    expect(needs.configuration.needed).toBe(false);
    expect(needs.configuration.reason).toMatch(/records “Loader 7” as applied; .*Verify reads its settings back/);
  });

  it('still asks for the configuration when the record says it is not applied, or when our device holds none', async () => {
    const vendor = await needsOf(accountWith({ deployStatus: 'NotDeployed', deployedSyncId: null }), {
      serialNumber: 'EPC000201',
      firmwareVersion: '1.1.0',
      configSyncId: null,
      protocol: 'vendor',
    });
    expect(vendor.configuration).toMatchObject({
      needed: true,
      reason: 'Configuration “Loader 7” is not applied yet.',
    });
    const ours = await needsOf(accountWith({ deployStatus: 'Deployed', deployedSyncId: 's-1' }), {
      serialNumber: 'EPC000201',
      firmwareVersion: '1.1.0',
      configSyncId: null,
      protocol: 'provisioner',
    });
    expect(ours.configuration.needed).toBe(true);
    const current = await needsOf(accountWith({ deployStatus: 'Deployed', deployedSyncId: 's-1' }), {
      serialNumber: 'EPC000201',
      firmwareVersion: '1.1.0',
      configSyncId: 's-1',
      protocol: 'provisioner',
    });
    expect(current.configuration).toMatchObject({
      needed: false,
      reason: 'Holds the current configuration “Loader 7”.',
    });
  });
});
