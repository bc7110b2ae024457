import { describe, expect, it } from 'vitest';
import {
  checkConfigurationCompleteness,
  configurationStatus,
  configurationStatusSchema,
  validateConfiguration,
  type ConfigurationMember,
  type ConfigurationSettings,
  type IpNetworkTemplateSettings,
} from '../../domain';
import { pairs } from './expectations';

const bleSettings: ConfigurationSettings = { name: 'Cart', canMode: 'none', timeoutConfiguration: '1000ms' };
const srcp = (over: Partial<ConfigurationMember> = {}): ConfigurationMember => ({
  serialNumber: 'SRCP000101',
  deviceType: 'SRCP',
  deviceConfigurationType: 'Sender',
  commInterface: 'BLE',
  ...over,
});
const epc = (serialNumber: string, over: Partial<ConfigurationMember> = {}): ConfigurationMember => ({
  serialNumber,
  deviceType: 'EPC',
  deviceConfigurationType: 'Receiver',
  commInterface: 'BLE',
  ...over,
});
const ethernet = (ipAddress: string | null): Partial<ConfigurationMember> => ({
  commInterface: 'Ethernet',
  ipAddress,
  ethNetmask: '255.255.255.0',
});

function complete(
  settings: ConfigurationSettings,
  devices: ConfigurationMember[],
  findNetworkTemplate?: (id: string) => IpNetworkTemplateSettings | null,
) {
  return pairs(
    checkConfigurationCompleteness(settings, devices, {
      region: 'NA',
      ...(findNetworkTemplate ? { findNetworkTemplate } : {}),
    }),
  );
}

describe('checkConfigurationCompleteness', () => {
  it('a BLE sender and receiver with timeout and CAN mode is complete', () => {
    expect(complete(bleSettings, [srcp(), epc('EPC000101')])).toEqual([]);
  });

  it('includes every validation rule', () => {
    expect(complete({ ...bleSettings, ismTxChannel: 30 }, [srcp(), epc('EPC000101')])).toEqual([
      { code: 'ISM_CHANNEL_OUT_OF_RANGE', field: 'ismTxChannel' },
    ]);
  });

  describe('senders and receivers', () => {
    it('needs a sender', () => {
      expect(complete(bleSettings, [epc('EPC000101')])).toEqual([{ code: 'NO_SENDER', field: 'devices' }]);
    });
    it('needs a receiver', () => {
      expect(complete(bleSettings, [srcp()])).toEqual([{ code: 'NO_RECEIVER', field: 'devices' }]);
    });
    it('an empty configuration needs both', () => {
      expect(complete(bleSettings, [])).toEqual([
        { code: 'NO_SENDER', field: 'devices' },
        { code: 'NO_RECEIVER', field: 'devices' },
      ]);
    });
    it('an EStopSender counts as a sender', () => {
      expect(
        complete(bleSettings, [epc('EPC000102', { deviceConfigurationType: 'EStopSender' }), epc('EPC000101')]),
      ).toEqual([]);
    });
    it('every device needs a role', () => {
      expect(
        complete(bleSettings, [srcp(), epc('EPC000101'), epc('EPC000102', { deviceConfigurationType: null })]),
      ).toEqual([{ code: 'DEVICE_ROLE_MISSING', field: 'devices.EPC000102.deviceConfigurationType' }]);
    });
    it('every device needs an interface other than None', () => {
      expect(
        complete(bleSettings, [srcp(), epc('EPC000101'), epc('EPC000102', { commInterface: 'None' })]),
      ).toContainEqual({
        code: 'COMM_INTERFACE_MISSING',
        field: 'devices.EPC000102.commInterface',
      });
      expect(complete(bleSettings, [srcp(), epc('EPC000101', { commInterface: null })])).toContainEqual({
        code: 'COMM_INTERFACE_MISSING',
        field: 'devices.EPC000101.commInterface',
      });
    });
  });

  describe('links between senders and receivers', () => {
    it('a sender that shares no interface with a receiver breaks', () => {
      expect(
        complete({ ...bleSettings, ismTxChannel: 3, ismTxPower: 'Low' }, [
          srcp({ commInterface: 'ISM' }),
          epc('EPC000101'),
        ]),
      ).toEqual([
        { code: 'SENDER_WITHOUT_RECEIVER_LINK', field: 'devices.SRCP000101.commInterface' },
        { code: 'RECEIVER_WITHOUT_SENDER_LINK', field: 'devices.EPC000101.commInterface' },
      ]);
    });
    it('a second receiver that no sender reaches breaks alone', () => {
      expect(
        complete({ ...bleSettings, ismTxChannel: 3, ismTxPower: 'Low' }, [
          srcp(),
          epc('EPC000101'),
          epc('EPC000102', { commInterface: 'ISM' }),
        ]),
      ).toEqual([{ code: 'RECEIVER_WITHOUT_SENDER_LINK', field: 'devices.EPC000102.commInterface' }]);
    });
    it('Ethernet and Wifi share the IP link', () => {
      expect(
        complete(bleSettings, [
          epc('EPC000102', { deviceConfigurationType: 'Sender', ...ethernet('10.0.0.2') }),
          epc('EPC000101', {
            commInterface: 'Wifi',
            ipAddress: '10.0.0.3',
            wifiNetmask: '255.255.255.0',
            wifiSsid: 'Plant',
          }),
        ]),
      ).toEqual([]);
    });
  });

  describe('settings every configuration needs', () => {
    it('the safety timeout', () => {
      expect(complete({ ...bleSettings, timeoutConfiguration: null }, [srcp(), epc('EPC000101')])).toEqual([
        { code: 'TIMEOUT_CONFIGURATION_MISSING', field: 'timeoutConfiguration' },
      ]);
    });
    it('a CAN mode when there is an EPC or NSCP, not otherwise', () => {
      expect(complete({ ...bleSettings, canMode: null }, [srcp(), epc('EPC000101')])).toEqual([
        { code: 'CAN_MODE_MISSING', field: 'canMode' },
      ]);
      expect(
        complete({ ...bleSettings, canMode: null }, [
          srcp(),
          srcp({ serialNumber: 'SRCP000102', deviceConfigurationType: 'Receiver' }),
        ]),
      ).toEqual([]);
    });
    it.each(['canopen', 'j1939'] as const)('a CAN bitrate with %s, not with none', (canMode) => {
      expect(complete({ ...bleSettings, canMode }, [srcp(), epc('EPC000101')])).toEqual([
        { code: 'CAN_BITRATE_MISSING', field: 'canKBitrate' },
      ]);
      expect(complete({ ...bleSettings, canMode, canKBitrate: 'BITRATE_500000' }, [srcp(), epc('EPC000101')])).toEqual(
        [],
      );
    });
  });

  describe('ISM radio', () => {
    const ism = [srcp({ commInterface: 'ISM' }), epc('EPC000101', { commInterface: 'ISM' })];
    it('is complete with channel and power', () => {
      expect(complete({ ...bleSettings, ismTxChannel: 1, ismTxPower: 'Medium' }, ism)).toEqual([]);
    });
    it('needs a channel and a power', () => {
      expect(complete(bleSettings, ism)).toEqual([
        { code: 'ISM_CHANNEL_MISSING', field: 'ismTxChannel' },
        { code: 'ISM_TX_POWER_MISSING', field: 'ismTxPower' },
      ]);
    });
  });

  describe('Ethernet', () => {
    it('needs an IP address for each device, unless a starting address assigns one', () => {
      const devices = [
        epc('EPC000102', { deviceConfigurationType: 'Sender', ...ethernet(null) }),
        epc('EPC000101', ethernet('10.0.0.9')),
      ];
      expect(complete(bleSettings, devices)).toEqual([
        { code: 'IP_ADDRESS_MISSING', field: 'devices.EPC000102.ipAddress' },
      ]);
      expect(complete({ ...bleSettings, startingIpAddress: '10.0.0.9' }, devices)).toEqual([]);
    });
    it('needs an Ethernet netmask, set or from the template', () => {
      const templateId = '7b7f6bde-2b1c-4d4b-8d8e-0c8d9e6f1a22';
      const devices = [
        epc('EPC000102', { deviceConfigurationType: 'Sender', ...ethernet('10.0.0.2') }),
        epc('EPC000101', { ...ethernet('10.0.0.3'), ethNetmask: null, networkTemplateId: templateId }),
      ];
      expect(complete(bleSettings, devices)).toEqual([
        { code: 'NETMASK_MISSING', field: 'devices.EPC000101.ethNetmask' },
      ]);
      const lan: IpNetworkTemplateSettings = {
        ipNetworkTemplateName: 'LAN',
        commInterface: 'Ethernet',
        netmask: '255.255.255.0',
      };
      expect(complete(bleSettings, devices, (id) => (id === templateId ? lan : null))).toEqual([]);
    });
  });

  describe('Wifi', () => {
    const wifiSender = epc('EPC000102', {
      deviceConfigurationType: 'Sender',
      commInterface: 'Wifi',
      ipAddress: '10.0.0.2',
      wifiNetmask: '255.255.255.0',
      wifiSsid: 'Plant',
    });
    it('needs a Wifi netmask and an SSID', () => {
      expect(
        complete(bleSettings, [wifiSender, epc('EPC000101', { commInterface: 'Wifi', ipAddress: '10.0.0.3' })]),
      ).toEqual([
        { code: 'NETMASK_MISSING', field: 'devices.EPC000101.wifiNetmask' },
        { code: 'WIFI_SSID_MISSING', field: 'devices.EPC000101.wifiSsid' },
      ]);
    });
    it('takes both from a Wifi template', () => {
      const plant: IpNetworkTemplateSettings = {
        ipNetworkTemplateName: 'Plant',
        commInterface: 'Wifi',
        netmask: '255.255.255.0',
        ssid: 'Plant',
        password: 'pw',
      };
      const receiver = epc('EPC000101', {
        commInterface: 'Wifi',
        ipAddress: '10.0.0.3',
        networkTemplateId: '1c6f2a3b-9d8e-4f7a-8b6c-5d4e3f2a1b0c',
      });
      expect(complete(bleSettings, [wifiSender, receiver], () => plant)).toEqual([]);
    });
  });

  describe('mixed', () => {
    it('a receiver on BLE and Ethernet needs the IP settings, its BLE sender nothing more', () => {
      const devices = [
        epc('EPC000102', { deviceConfigurationType: 'EStopSender', ...ethernet('10.0.0.2') }),
        srcp(),
        epc('EPC000101', { commInterface: 'BLE,Ethernet' }),
      ];
      expect(complete(bleSettings, devices)).toEqual([
        { code: 'IP_ADDRESS_MISSING', field: 'devices.EPC000101.ipAddress' },
        { code: 'NETMASK_MISSING', field: 'devices.EPC000101.ethNetmask' },
      ]);
    });
    it('does not ask for IP settings of an interface the type lacks', () => {
      expect(complete(bleSettings, [srcp({ commInterface: 'BLE,Ethernet' }), epc('EPC000101')])).toEqual([
        { code: 'INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE', field: 'devices.SRCP000101.commInterface' },
      ]);
    });
  });

  describe('NSCP', () => {
    const sender = epc('EPC000101', { deviceConfigurationType: 'Sender', ...ethernet('10.0.0.2') });
    const nscp = (over: Partial<ConfigurationMember>): ConfigurationMember => ({
      serialNumber: 'NSCP000101',
      deviceType: 'NSCP',
      deviceConfigurationType: 'Receiver',
      ...ethernet('10.0.0.3'),
      ...over,
    });
    it('needs a stop category', () => {
      expect(complete(bleSettings, [sender, nscp({})])).toEqual([
        { code: 'STOP_CATEGORY_MISSING', field: 'devices.NSCP000101.stopCategory' },
      ]);
      expect(complete(bleSettings, [sender, nscp({ stopCategory: 'CAT0' })])).toEqual([]);
    });
    it('needs a CAT1 stop delay with CAT1', () => {
      expect(complete(bleSettings, [sender, nscp({ stopCategory: 'CAT1' })])).toEqual([
        { code: 'CAT1_STOP_DELAY_MISSING', field: 'devices.NSCP000101.cat1StopDelay' },
      ]);
      expect(complete(bleSettings, [sender, nscp({ stopCategory: 'CAT1', cat1StopDelay: 2 })])).toEqual([]);
    });
  });
});

describe('validateConfiguration', () => {
  it('places device violations under devices.<serialNumber>', () => {
    expect(
      pairs(validateConfiguration({}, [srcp({ inputConfiguration2: 'ESTOP_TYPE_SWITCH' })], { region: 'NA' })),
    ).toEqual([{ code: 'INPUT_MUST_BE_NOT_USED', field: 'devices.SRCP000101.inputConfiguration2' }]);
  });
  it('does not report completeness', () => {
    expect(validateConfiguration({}, [], { region: 'NA' })).toEqual([]);
  });
  it('reports an unsupported bitrate once, on the configuration', () => {
    expect(
      pairs(
        validateConfiguration({ canKBitrate: 'BITRATE_20000' }, [epc('EPC000101'), epc('EPC000102')], { region: 'NA' }),
      ),
    ).toEqual([{ code: 'CAN_BITRATE_NOT_SUPPORTED', field: 'canKBitrate' }]);
  });
  it('reports a device twice in the configuration', () => {
    expect(pairs(validateConfiguration({}, [epc('EPC000101'), epc('EPC000101')], { region: 'NA' }))).toEqual([
      { code: 'DUPLICATE_SERIAL_NUMBER', field: 'devices.EPC000101' },
    ]);
  });
  it('reports a duplicate IP address on the second device, and passes distinct ones', () => {
    const a = epc('EPC000101', ethernet('10.0.0.5'));
    expect(pairs(validateConfiguration({}, [a, epc('EPC000102', ethernet('10.0.0.5'))], { region: 'NA' }))).toEqual([
      { code: 'DUPLICATE_IP_ADDRESS', field: 'devices.EPC000102.ipAddress' },
    ]);
    expect(validateConfiguration({}, [a, epc('EPC000102', ethernet('10.0.0.6'))], { region: 'NA' })).toEqual([]);
  });
  it('looks templates up when it can', () => {
    const member = epc('EPC000101', {
      ...ethernet('10.0.0.5'),
      networkTemplateId: '5a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d',
    });
    expect(pairs(validateConfiguration({}, [member], { region: 'NA', findNetworkTemplate: () => null }))).toEqual([
      { code: 'NETWORK_TEMPLATE_NOT_FOUND', field: 'devices.EPC000101.networkTemplateId' },
    ]);
  });
});

describe('configurationStatus', () => {
  const id = '2f0e6b7c-1d2e-4f3a-9b4c-5d6e7f8a9b0c';
  it('lists every device as ready once complete', () => {
    const status = configurationStatus(id, bleSettings, [srcp(), epc('EPC000101')], { region: 'NA' });
    expect(status).toEqual({
      configurationId: id,
      complete: true,
      errors: [],
      warnings: [],
      readyDevices: ['SRCP000101', 'EPC000101'],
    });
    expect(configurationStatusSchema.parse(status)).toEqual(status);
  });
  it('lists none while incomplete, with the errors', () => {
    const status = configurationStatus(id, bleSettings, [srcp()], { region: 'NA' });
    expect(status.complete).toBe(false);
    expect(status.readyDevices).toEqual([]);
    expect(pairs(status.errors)).toEqual([{ code: 'NO_RECEIVER', field: 'devices' }]);
  });
  it('holds back no file for a rule of ours: it is a warning beside a complete status', () => {
    const sender = epc('EPC000102', {
      deviceConfigurationType: 'Sender',
      ...ethernet('192.168.1.20'),
      ethGateway: '10.0.0.1',
    });
    const receiver = epc('EPC000101', ethernet('192.168.1.20'));
    const status = configurationStatus(id, bleSettings, [sender, receiver], { region: 'NA' });
    expect(status.complete).toBe(true);
    expect(status.errors).toEqual([]);
    expect(status.readyDevices).toEqual(['EPC000102', 'EPC000101']);
    expect(status.warnings.map(({ code, field, severity }) => ({ code, field, severity }))).toEqual([
      { code: 'GATEWAY_OUTSIDE_SUBNET', field: 'devices.EPC000102.ethGateway', severity: 'warning' },
      { code: 'DUPLICATE_IP_ADDRESS', field: 'devices.EPC000101.ipAddress', severity: 'warning' },
    ]);
    expect(configurationStatusSchema.parse(status)).toEqual(status);
  });
  it("keeps the interface's rules errors when ours warn beside them", () => {
    const status = configurationStatus(
      id,
      { ...bleSettings, ismTxChannel: 30, ismNetworkId: -1 },
      [srcp(), epc('EPC000101')],
      { region: 'NA' },
    );
    expect(status.complete).toBe(false);
    expect(pairs(status.errors)).toEqual([{ code: 'ISM_CHANNEL_OUT_OF_RANGE', field: 'ismTxChannel' }]);
    expect(pairs(status.warnings)).toEqual([{ code: 'ISM_NETWORK_ID_OUT_OF_RANGE', field: 'ismNetworkId' }]);
    expect(status.errors.every((v) => v.severity === undefined)).toBe(true);
  });
  it('reads a status without warnings (a service without our extension) as having none', () => {
    expect(
      configurationStatusSchema.parse({ configurationId: id, complete: true, errors: [], readyDevices: [] }).warnings,
    ).toEqual([]);
  });
});
