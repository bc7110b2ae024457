import { describe, expect, it } from 'vitest';
import {
  applyNetworkTemplate,
  assignIpAddresses,
  commInterfaceFlags,
  configurationPatchSchema,
  deriveDeployStatus,
  deviceUpdateSchema,
  formatCommInterface,
  isHostAddress,
  isIpv4Address,
  mergeConfigurationPatch,
  mergeDevicePatch,
  netmaskPrefixLength,
  parsePayload,
  sameSubnet,
  withConfigurationDefaults,
  withDeviceDefaults,
  type ConfigurationDeviceSettings,
  type ConfigurationSettings,
} from '../../domain';
import { expectAccepted } from './expectations';

describe('ipv4', () => {
  it('reads dotted quads only', () => {
    expect(['0.0.0.0', '192.168.1.20', '255.255.255.255'].map(isIpv4Address)).toEqual([true, true, true]);
    expect(
      ['192.168.1', '192.168.1.1.1', '256.0.0.1', '01.2.3.4', '1.2.3.-4', ' 1.2.3.4', '1.2.3.4 '].map(isIpv4Address),
    ).toEqual(Array(7).fill(false));
  });
  it('knows contiguous masks', () => {
    expect(netmaskPrefixLength('255.255.255.0')).toBe(24);
    expect(netmaskPrefixLength('255.255.255.255')).toBe(32);
    expect(netmaskPrefixLength('128.0.0.0')).toBe(1);
    expect(netmaskPrefixLength('255.0.255.0')).toBeNull();
    expect(netmaskPrefixLength('0.0.0.0')).toBeNull();
  });
  it('knows subnets and host addresses', () => {
    expect(sameSubnet('10.0.1.5', '10.0.200.1', '255.255.0.0')).toBe(true);
    expect(sameSubnet('10.0.1.5', '10.1.0.1', '255.255.0.0')).toBe(false);
    expect(isHostAddress('10.0.0.0', '255.255.255.0')).toBe(false);
    expect(isHostAddress('10.0.0.255', '255.255.255.0')).toBe(false);
    expect(isHostAddress('10.0.0.1', '255.255.255.0')).toBe(true);
    expect(isHostAddress('10.0.0.0', '255.255.255.254')).toBe(true);
  });
});

describe('commInterface helpers', () => {
  it('give the flags of a stored value and format flags back', () => {
    expect(commInterfaceFlags('BLE,Ethernet')).toEqual(['BLE', 'Ethernet']);
    expect(commInterfaceFlags('None')).toEqual([]);
    expect(commInterfaceFlags(null)).toEqual([]);
    expect(formatCommInterface(['Wifi', 'BLE'])).toBe('BLE,Wifi');
    expect(formatCommInterface([])).toBe('None');
  });
});

describe('defaults', () => {
  it('PGNs default to 65281 and 65282 under j1939 only', () => {
    expect(withConfigurationDefaults({ canMode: 'j1939' })).toMatchObject({
      displayTextPgn: 65281,
      settingsPgn: 65282,
    });
    expect(withConfigurationDefaults({ canMode: 'j1939', settingsPgn: 0xff20 })).toMatchObject({
      displayTextPgn: 65281,
      settingsPgn: 0xff20,
    });
    const canopen: ConfigurationSettings = { canMode: 'canopen' };
    expect(withConfigurationDefaults(canopen).displayTextPgn).toBeUndefined();
  });
  it('OSSD pulses default to on for an NSCP only', () => {
    const unset: ConfigurationDeviceSettings = {};
    expect(withDeviceDefaults(unset, 'NSCP').ossdEnabled).toBe(true);
    expect(withDeviceDefaults({ ossdEnabled: false }, 'NSCP').ossdEnabled).toBe(false);
    expect(withDeviceDefaults(unset, 'EPC').ossdEnabled).toBeUndefined();
  });
});

describe('mergeConfigurationPatch', () => {
  const stored: ConfigurationSettings = {
    name: 'Line 1',
    canMode: 'j1939',
    displayTextPgn: 0xff10,
    settingsPgn: 0xff11,
    ismTxChannel: 4,
  };
  const patch = (input: unknown) => expectAccepted(parsePayload(configurationPatchSchema, input));

  it('keeps what the patch leaves out or sends as null', () => {
    expect(mergeConfigurationPatch(stored, patch({ name: null, ismTxChannel: 9 }))).toEqual({
      ...stored,
      ismTxChannel: 9,
    });
  });
  it('drops stored PGNs when canMode leaves j1939', () => {
    expect(mergeConfigurationPatch(stored, patch({ canMode: 'none' }))).toMatchObject({
      canMode: 'none',
      displayTextPgn: null,
      settingsPgn: null,
    });
  });
  it('keeps PGNs the same patch sends, so the rule still catches them', () => {
    expect(mergeConfigurationPatch(stored, patch({ canMode: 'none', displayTextPgn: 0xff30 }))).toMatchObject({
      displayTextPgn: 0xff30,
      settingsPgn: null,
    });
  });
});

describe('mergeDevicePatch', () => {
  const stored: ConfigurationDeviceSettings = {
    commInterface: 'Wifi',
    ipAddress: '10.0.0.5',
    wifiNetmask: '255.255.255.0',
    wifiSsid: 'Plant',
    wifiPasswordSet: true,
    networkTemplateId: '7b7f6bde-2b1c-4d4b-8d8e-0c8d9e6f1a22',
    stopCategory: 'CAT1',
    cat1StopDelay: 2,
  };
  const patch = (input: unknown) => expectAccepted(parsePayload(deviceUpdateSchema, input));

  it('keeps what the patch leaves out', () => {
    expect(mergeDevicePatch(stored, patch({ can1Id: 4 }))).toEqual({ ...stored, can1Id: 4 });
  });
  it('drops Wifi fields and the stored password when the device leaves Wifi for Ethernet', () => {
    const merged = mergeDevicePatch(stored, patch({ commInterface: 'ethernet', ethNetmask: '255.255.255.0' }));
    expect(merged).toMatchObject({
      commInterface: 'Ethernet',
      ethNetmask: '255.255.255.0',
      ipAddress: '10.0.0.5',
      wifiNetmask: null,
      wifiSsid: null,
      wifiPasswordSet: false,
    });
  });
  it('marks a stored password when the update sends one', () => {
    expect(mergeDevicePatch({ ...stored, wifiPasswordSet: false }, patch({ wifiPassword: 'new' }))).toMatchObject({
      wifiPassword: 'new',
      wifiPasswordSet: true,
    });
  });
  it('drops IP settings when the device uses no IP any more', () => {
    expect(mergeDevicePatch(stored, patch({ commInterface: 'BLE' }))).toMatchObject({
      ipAddress: null,
      networkTemplateId: null,
    });
  });
  it('drops the CAT1 delay when the stop category becomes CAT0', () => {
    expect(mergeDevicePatch(stored, patch({ stopCategory: 'CAT0' })).cat1StopDelay).toBeNull();
  });
});

describe('applyNetworkTemplate', () => {
  it('fills unset adapter fields and lets device values win', () => {
    const device: ConfigurationDeviceSettings = { commInterface: 'Wifi', wifiSsid: 'Override' };
    expect(
      applyNetworkTemplate(device, {
        commInterface: 'Wifi',
        netmask: '255.255.0.0',
        gatewayIpAddress: '10.1.0.1',
        nameservers: ['10.1.0.1'],
        ssid: 'Plant',
        password: 'pw',
      }),
    ).toMatchObject({
      wifiNetmask: '255.255.0.0',
      wifiGateway: '10.1.0.1',
      wifiNameservers: ['10.1.0.1'],
      wifiSsid: 'Override',
      wifiPassword: 'pw',
    });
  });
  it('an Ethernet template fills Ethernet fields only', () => {
    const device: ConfigurationDeviceSettings = { commInterface: 'Ethernet' };
    const applied = applyNetworkTemplate(device, { commInterface: 'Ethernet', netmask: '255.255.255.0' });
    expect(applied).toMatchObject({ ethNetmask: '255.255.255.0' });
    expect(applied.wifiNetmask).toBeUndefined();
  });
});

describe('assignIpAddresses', () => {
  it('counts up from the start, skipping taken addresses, devices without IP and those with an address', () => {
    const assigned = assignIpAddresses('10.0.0.10', [
      { serialNumber: 'EPC000101', commInterface: 'Ethernet', ipAddress: null },
      { serialNumber: 'SRCP000101', commInterface: 'BLE', ipAddress: null },
      { serialNumber: 'EPC000102', commInterface: 'Ethernet', ipAddress: '10.0.0.11' },
      { serialNumber: 'EPC000103', commInterface: 'Wifi', ipAddress: null },
    ]);
    expect(Object.fromEntries(assigned)).toEqual({ EPC000101: '10.0.0.10', EPC000103: '10.0.0.12' });
  });
  it('skips the broadcast and network addresses of the device subnet', () => {
    const assigned = assignIpAddresses('10.0.0.255', [
      { serialNumber: 'EPC000101', commInterface: 'Ethernet', ethNetmask: '255.255.255.0' },
    ]);
    expect(assigned.get('EPC000101')).toBe('10.0.1.1');
  });
  it('assigns nothing without a usable start', () => {
    expect(assignIpAddresses(null, [{ serialNumber: 'EPC000101', commInterface: 'Ethernet' }]).size).toBe(0);
    expect(assignIpAddresses('10.0.0', [{ serialNumber: 'EPC000101', commInterface: 'Ethernet' }]).size).toBe(0);
  });
});

describe('deriveDeployStatus', () => {
  const syncA = '8e3c2a1b-4d5e-4f6a-9b7c-0d1e2f3a4b5c';
  const syncB = '9f4d3b2c-5e6f-4a7b-8c9d-1e2f3a4b5c6d';
  it.each([
    [null, syncA, 'NotDeployed'],
    [{ success: true, syncId: syncA }, null, 'NotDeployed'],
    [{ success: false, syncId: syncA }, syncA, 'Failed'],
    [{ success: false, syncId: syncA }, null, 'Failed'],
    [{ success: true, syncId: syncA }, syncB, 'Outdated'],
    [{ success: true, syncId: syncA }, syncA, 'Deployed'],
  ] as const)('%j with current %s is %s', (lastConfigurationApply, currentSyncId, status) => {
    expect(deriveDeployStatus({ lastConfigurationApply, currentSyncId })).toBe(status);
  });
});
