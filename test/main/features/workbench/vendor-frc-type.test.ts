import { describe, expect, it } from 'vitest';
import type { DeviceListEvent, DiscoveredDevice } from '../../../../main/devices/discovery';
import type { ServiceClient } from '../../../../main/cloud';
import { CoreLog } from '../../../../main/engine/core-log';
import { EventHub } from '../../../../main/engine/event-hub';
import type { Account } from '../../../../main/core/account-session';
import { Workbench, type DeviceSource } from '../../../../main/features/workbench/workbench';

/**
 * Issue 24: the vendor's FRC family does not say whether it is an SRC Pro or an NSC, nor do the
 * vendor's serial numbers, so discovery takes such a device for an SRC Pro. The Workbench's row
 * shows the type the service's record gives its serial number, as the job takes it; an EPC, told by
 * its transport, and our own devices keep what they said.
 */

function source(devices: DiscoveredDevice[]): DeviceSource {
  return {
    start: async () => undefined,
    stop: async () => undefined,
    devices: () => devices,
    on: (_listener: (event: DeviceListEvent) => void) => () => undefined,
    refresh: async () => undefined,
  };
}

function accountRecording(types: Record<string, string>): Account {
  const client = {
    devices: {
      firmwareVersion: async () => ({ version: '1.0.0' }),
      list: async (query: { serial?: string }) => {
        const type = query.serial === undefined ? undefined : types[query.serial];
        const items =
          type === undefined
            ? []
            : [
                {
                  serialNumber: query.serial,
                  deviceType: type,
                  configurationId: null,
                  configurationName: null,
                  deployStatus: 'NotDeployed',
                  deployedSyncId: null,
                },
              ];
        return { items, page: 1, limit: 1, totalCount: items.length };
      },
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

const device = (
  serialNumber: string,
  deviceType: string,
  model: string,
  protocol: 'vendor' | 'provisioner',
  link: string,
): DiscoveredDevice => ({
  serialNumber,
  deviceType,
  model,
  firmwareVersion: '1.0.0',
  configSyncId: null,
  link,
  linkKind: link.startsWith('udp:') ? 'udp' : 'serial',
  protocol,
});

async function rowsOf(devices: DiscoveredDevice[], account: Account | null) {
  const events = new EventHub();
  const workbench = new Workbench({
    source: source(devices),
    account: () => account,
    events,
    log: new CoreLog(events),
  });
  await workbench.start();
  await workbench.refreshNeeds();
  const rows = workbench.devices();
  await workbench.close();
  return new Map(rows.map((row) => [row.serialNumber, row]));
}

describe('a vendor FRC on the Workbench', () => {
  it("shows the type and model the service's record gives its serial number", async () => {
    const rows = await rowsOf(
      [device('WBJFU8CN', 'SRCP', 'SRC Pro', 'vendor', 'serial:/dev/ttyACM7')],
      accountRecording({ WBJFU8CN: 'NSCP' }),
    );
    expect(rows.get('WBJFU8CN')).toMatchObject({ deviceType: 'NSCP', model: 'NSC' });
  });

  it('keeps what the device said without a record, for an EPC, and for our own devices', async () => {
    const devices = [
      device('WBJFU8CN', 'SRCP', 'SRC Pro', 'vendor', 'serial:/dev/ttyACM7'),
      device('EPC000301', 'EPC', 'EPC', 'vendor', 'udp:127.0.0.1:5683'),
      device('SRCP000301', 'SRCP', 'SRCP-100', 'provisioner', 'serial:/dev/ttyACM8'),
    ];
    // Not signed in: no record is read.
    expect((await rowsOf(devices, null)).get('WBJFU8CN')).toMatchObject({ deviceType: 'SRCP', model: 'SRC Pro' });
    // Not registered: nothing to take.
    expect((await rowsOf(devices, accountRecording({}))).get('WBJFU8CN')).toMatchObject({ deviceType: 'SRCP' });
    // A record of another family changes nothing, and our devices say who they are.
    const rows = await rowsOf(devices, accountRecording({ EPC000301: 'NSCP', SRCP000301: 'NSCP' }));
    expect(rows.get('EPC000301')).toMatchObject({ deviceType: 'EPC' });
    expect(rows.get('SRCP000301')).toMatchObject({ deviceType: 'SRCP', model: 'SRCP-100' });
  });
});
