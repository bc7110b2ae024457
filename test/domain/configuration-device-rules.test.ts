import { describe, expect, it } from 'vitest';
import {
  deviceAddSchema,
  parsePayload,
  validateConfigurationDevice,
  type ConfigurationDeviceContext,
  type ConfigurationDeviceSettings,
  type ConfigurationSettings,
  type DeviceType,
  type IpNetworkTemplateSettings,
} from '../../domain';
import { expectAccepted, expectRejected, pairs } from './expectations';

function check(
  deviceType: DeviceType,
  device: ConfigurationDeviceSettings,
  extra: { configuration?: ConfigurationSettings; networkTemplate?: IpNetworkTemplateSettings | null } = {},
) {
  const ctx: ConfigurationDeviceContext = { deviceType, configuration: extra.configuration ?? {}, region: 'NA' };
  if ('networkTemplate' in extra) ctx.networkTemplate = extra.networkTemplate;
  return pairs(validateConfigurationDevice(device, ctx));
}

const ethernetEpc: ConfigurationDeviceSettings = {
  deviceConfigurationType: 'Receiver',
  commInterface: 'Ethernet',
  ipAddress: '192.168.1.20',
  ethNetmask: '255.255.255.0',
  ethGateway: '192.168.1.1',
  ethNameservers: ['192.168.1.1', '8.8.8.8'],
};

describe('validateConfigurationDevice', () => {
  it('accepts a device with nothing set yet', () => {
    for (const type of ['SRCP', 'WESP', 'EPC', 'NSCP'] as const) expect(check(type, {})).toEqual([]);
  });

  describe('SRCP and WESP inputs must be NOT_USED', () => {
    it.each(['SRCP', 'WESP'] as const)('%s passes with NOT_USED everywhere', (type) => {
      expect(
        check(type, {
          inputConfiguration1: 'NOT_USED',
          inputConfiguration2: 'NOT_USED',
          inputConfiguration3: 'NOT_USED',
        }),
      ).toEqual([]);
    });
    it.each([
      ['SRCP', 'inputConfiguration1'],
      ['SRCP', 'inputConfiguration2'],
      ['WESP', 'inputConfiguration3'],
      ['WESP', 'inputConfiguration1'],
    ] as const)('%s breaks with %s used', (type, field) => {
      expect(check(type, { [field]: 'ESTOP_TYPE_SWITCH' })).toEqual([{ code: 'INPUT_MUST_BE_NOT_USED', field }]);
    });
    it('EPC inputs are free', () => {
      expect(
        check('EPC', {
          inputConfiguration1: 'ESTOP_TYPE_SWITCH',
          inputConfiguration2: 'REMOTE_SAFETY_REQUEST',
          inputConfiguration3: 'ESTOP_TYPE_SWITCH',
        }),
      ).toEqual([]);
    });
  });

  describe('inputConfiguration2 is not applicable to an NSCP with CAT1', () => {
    it('passes with CAT1 and input 2 NOT_USED, and with CAT0 and input 2 used', () => {
      expect(check('NSCP', { stopCategory: 'CAT1', cat1StopDelay: 1, inputConfiguration2: 'NOT_USED' })).toEqual([]);
      expect(check('NSCP', { stopCategory: 'CAT0', inputConfiguration2: 'ESTOP_TYPE_SWITCH' })).toEqual([]);
    });
    it('breaks with CAT1 and input 2 used', () => {
      expect(
        check('NSCP', { stopCategory: 'CAT1', cat1StopDelay: 1, inputConfiguration2: 'ESTOP_TYPE_SWITCH' }),
      ).toEqual([{ code: 'INPUT2_NOT_APPLICABLE_WITH_CAT1', field: 'inputConfiguration2' }]);
    });
  });

  describe('comms and control each on one NSCP serial', () => {
    it('passes with one of each, or one set', () => {
      expect(check('NSCP', { serial0Usage: 'comms', serial1Usage: 'control' })).toEqual([]);
      expect(check('NSCP', { serial0Usage: 'control', serial1Usage: 'comms' })).toEqual([]);
      expect(check('NSCP', { serial0Usage: 'comms' })).toEqual([]);
    });
    it.each(['comms', 'control'] as const)('breaks with %s on both', (usage) => {
      expect(check('NSCP', { serial0Usage: usage, serial1Usage: usage })).toEqual([
        { code: 'SERIAL_USAGE_CONFLICT', field: 'serial1Usage' },
      ]);
    });
  });

  describe('serial usage, stop category, CAT1 delay and OSSD only on NSCP', () => {
    it('passes on an NSCP', () => {
      expect(
        check('NSCP', {
          serial0Usage: 'comms',
          serial1Usage: 'control',
          stopCategory: 'CAT1',
          cat1StopDelay: 0.5,
          ossdEnabled: false,
        }),
      ).toEqual([]);
    });
    it.each([
      ['EPC', 'serial0Usage', 'comms'],
      ['EPC', 'serial1Usage', 'control'],
      ['SRCP', 'stopCategory', 'CAT0'],
      ['WESP', 'cat1StopDelay', 1],
      ['EPC', 'ossdEnabled', true],
    ] as const)('breaks on an %s with %s', (type, field, value) => {
      expect(check(type, { [field]: value })).toEqual([{ code: 'NSCP_ONLY_FIELD', field }]);
    });
  });

  describe('cat1StopDelay', () => {
    it('breaks without stop category CAT1', () => {
      expect(check('NSCP', { stopCategory: 'CAT0', cat1StopDelay: 1 })).toEqual([
        { code: 'CAT1_STOP_DELAY_WITHOUT_CAT1', field: 'cat1StopDelay' },
      ]);
      expect(check('NSCP', { cat1StopDelay: 1 })).toEqual([
        { code: 'CAT1_STOP_DELAY_WITHOUT_CAT1', field: 'cat1StopDelay' },
      ]);
    });
    it('passes at 0 and warns when negative: a range of ours, so the payload is accepted', () => {
      expect(check('NSCP', { stopCategory: 'CAT1', cat1StopDelay: 0 })).toEqual([]);
      expect(check('NSCP', { stopCategory: 'CAT1', cat1StopDelay: -0.5 })).toEqual([
        { code: 'CAT1_STOP_DELAY_NEGATIVE', field: 'cat1StopDelay' },
      ]);
      expect(
        expectAccepted(parsePayload(deviceAddSchema, { serialNumber: 'NSCP000101', cat1StopDelay: -1 })).cat1StopDelay,
      ).toBe(-1);
    });
  });

  describe('interfaces of each device type', () => {
    it.each([
      ['SRCP', 'BLE,ISM'],
      ['WESP', 'BLE'],
      ['EPC', 'BLE,ISM,Ethernet,Wifi'],
      ['NSCP', 'Ethernet'],
      ['SRCP', 'None'],
    ] as const)('%s passes with %s', (type, commInterface) => {
      expect(check(type, { commInterface })).toEqual([]);
    });
    it.each([
      ['SRCP', 'Ethernet'],
      ['WESP', 'BLE,Wifi'],
    ] as const)('%s breaks with %s', (type, commInterface) => {
      expect(check(type, { commInterface })).toEqual([
        { code: 'INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE', field: 'commInterface' },
      ]);
    });
    it('says which interfaces the type has', () => {
      const [v] = validateConfigurationDevice(
        { commInterface: 'Wifi' },
        { deviceType: 'SRCP', configuration: {}, region: 'NA' },
      );
      expect(v?.message).toBe('SRCP devices have no Wifi interface: choose BLE or ISM.');
    });
  });

  describe('IP settings only with IP interfaces', () => {
    it('passes on an Ethernet device', () => expect(check('EPC', ethernetEpc)).toEqual([]));
    it('an IP address breaks without Ethernet or Wifi', () => {
      expect(check('EPC', { commInterface: 'BLE', ipAddress: '192.168.1.20' })).toEqual([
        { code: 'IP_ADDRESS_WITHOUT_IP_INTERFACE', field: 'ipAddress' },
      ]);
    });
    it.each(['ethNetmask', 'ethGateway', 'ethNameservers'] as const)('%s breaks without Ethernet', (field) => {
      const value = field === 'ethNameservers' ? ['10.0.0.1'] : field === 'ethNetmask' ? '255.255.255.0' : '10.0.0.1';
      expect(check('EPC', { commInterface: 'Wifi', [field]: value })).toEqual([
        { code: 'ETHERNET_FIELD_WITHOUT_ETHERNET', field },
      ]);
    });
    it.each(['wifiNetmask', 'wifiGateway', 'wifiNameservers', 'wifiSsid', 'wifiPassword'] as const)(
      '%s breaks without Wifi',
      (field) => {
        const value =
          field === 'wifiNameservers'
            ? ['10.0.0.1']
            : field === 'wifiNetmask'
              ? '255.255.255.0'
              : field.startsWith('wifiGateway')
                ? '10.0.0.1'
                : 'x';
        expect(check('EPC', { commInterface: 'Ethernet', [field]: value })).toEqual([
          { code: 'WIFI_FIELD_WITHOUT_WIFI', field },
        ]);
      },
    );
    it('Wifi fields pass with Wifi', () => {
      expect(
        check('EPC', {
          commInterface: 'Wifi',
          ipAddress: '10.1.0.5',
          wifiNetmask: '255.255.0.0',
          wifiGateway: '10.1.0.1',
          wifiNameservers: ['10.1.0.1'],
          wifiSsid: 'Plant-Safety',
          wifiPassword: 'secret',
        }),
      ).toEqual([]);
    });
    it('an empty nameserver list counts as unset', () => {
      expect(check('EPC', { commInterface: 'BLE', ethNameservers: [] })).toEqual([]);
    });
  });

  describe('IPv4 formats', () => {
    it.each([
      ['ipAddress', '192.168.1.256', 'INVALID_IPV4_ADDRESS'],
      ['ethGateway', '192.168.1', 'INVALID_IPV4_ADDRESS'],
      ['ethNetmask', '255.255.0.255', 'INVALID_NETMASK'],
      ['ethNetmask', '0.0.0.0', 'INVALID_NETMASK'],
    ] as const)('%s %j breaks', (field, value, code) => {
      expect(check('EPC', { ...ethernetEpc, [field]: value })).toContainEqual({ code, field });
      expectRejected(parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', [field]: value }), code, field);
    });
    it('a bad nameserver is reported at its index', () => {
      expect(check('EPC', { ...ethernetEpc, ethNameservers: ['8.8.8.8', '8.8.8'] })).toEqual([
        { code: 'INVALID_IPV4_ADDRESS', field: 'ethNameservers.1' },
      ]);
      expectRejected(
        parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', wifiNameservers: ['x'] }),
        'INVALID_IPV4_ADDRESS',
        'wifiNameservers.0',
      );
    });
    it.each([
      ['wifiNetmask', '255.255.255.0'],
      ['wifiNetmask', '255.255.255.252'],
      ['ethNetmask', '255.0.0.0'],
      ['ethNetmask', '255.255.255.255'],
    ] as const)('%s %s passes', (field, netmask) => {
      expect(parsePayload(deviceAddSchema, { serialNumber: 'EPC000101', [field]: netmask }).ok).toBe(true);
    });
  });

  describe('addresses on the subnet', () => {
    it('the network and broadcast addresses break', () => {
      expect(check('EPC', { ...ethernetEpc, ipAddress: '192.168.1.0', ethGateway: null })).toEqual([
        { code: 'IP_ADDRESS_NOT_A_HOST', field: 'ipAddress' },
      ]);
      expect(check('EPC', { ...ethernetEpc, ipAddress: '192.168.1.255', ethGateway: null })).toEqual([
        { code: 'IP_ADDRESS_NOT_A_HOST', field: 'ipAddress' },
      ]);
    });
    it('a gateway off the subnet breaks', () => {
      expect(check('EPC', { ...ethernetEpc, ethGateway: '192.168.2.1' })).toEqual([
        { code: 'GATEWAY_OUTSIDE_SUBNET', field: 'ethGateway' },
      ]);
      expect(
        check('EPC', {
          commInterface: 'Wifi',
          ipAddress: '10.1.0.5',
          wifiNetmask: '255.255.255.0',
          wifiGateway: '10.1.1.1',
        }),
      ).toEqual([{ code: 'GATEWAY_OUTSIDE_SUBNET', field: 'wifiGateway' }]);
    });
    it('a wider netmask makes the same gateway reachable', () => {
      expect(check('EPC', { ...ethernetEpc, ethNetmask: '255.255.0.0', ethGateway: '192.168.2.1' })).toEqual([]);
    });
  });

  describe('network template', () => {
    const id = '0d6c1f7e-4a61-4a1e-9a55-3d3c2f5e8b10';
    const ethernetTemplate: IpNetworkTemplateSettings = {
      ipNetworkTemplateName: 'Shop LAN',
      commInterface: 'Ethernet',
      netmask: '255.255.255.0',
    };
    it('passes when the template matches an interface of the device', () => {
      expect(check('EPC', { ...ethernetEpc, networkTemplateId: id }, { networkTemplate: ethernetTemplate })).toEqual(
        [],
      );
    });
    it('is not checked when the caller did not look it up', () => {
      expect(check('EPC', { ...ethernetEpc, networkTemplateId: id })).toEqual([]);
    });
    it('breaks when it does not exist', () => {
      expect(check('EPC', { ...ethernetEpc, networkTemplateId: id }, { networkTemplate: null })).toEqual([
        { code: 'NETWORK_TEMPLATE_NOT_FOUND', field: 'networkTemplateId' },
      ]);
    });
    it('breaks when it is for an interface the device does not use, or for none', () => {
      const wifiTemplate: IpNetworkTemplateSettings = { ...ethernetTemplate, commInterface: 'Wifi' };
      expect(check('EPC', { ...ethernetEpc, networkTemplateId: id }, { networkTemplate: wifiTemplate })).toEqual([
        { code: 'NETWORK_TEMPLATE_INTERFACE_MISMATCH', field: 'networkTemplateId' },
      ]);
      expect(
        check(
          'EPC',
          { ...ethernetEpc, networkTemplateId: id },
          { networkTemplate: { ...ethernetTemplate, commInterface: 'None' } },
        ),
      ).toEqual([{ code: 'NETWORK_TEMPLATE_INTERFACE_MISMATCH', field: 'networkTemplateId' }]);
    });
  });

  describe('CAN bitrate of the configuration the device joins', () => {
    it.each(['EPC', 'NSCP'] as const)('an %s breaks in a 125 kbit/s configuration', (type) => {
      expect(check(type, {}, { configuration: { canKBitrate: 'BITRATE_125000' } })).toEqual([
        { code: 'CAN_BITRATE_NOT_SUPPORTED', field: '' },
      ]);
    });
    it('an SRCP passes, and so does an EPC at 250 kbit/s', () => {
      expect(check('SRCP', {}, { configuration: { canKBitrate: 'BITRATE_125000' } })).toEqual([]);
      expect(check('EPC', {}, { configuration: { canKBitrate: 'BITRATE_250000' } })).toEqual([]);
    });
  });
});
