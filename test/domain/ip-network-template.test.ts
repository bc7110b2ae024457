import { describe, expect, it } from 'vitest';
import {
  ipNetworkTemplateCreateSchema,
  parsePayload,
  validateIpNetworkTemplate,
  type IpNetworkTemplateSettings,
} from '../../domain';
import { expectAccepted, expectRejected, pairs } from './expectations';

const ethernet = { ipNetworkTemplateName: 'Shop LAN', commInterface: 'Ethernet', netmask: '255.255.255.0' };
const wifi = {
  ipNetworkTemplateName: 'Plant Wifi',
  commInterface: 'Wifi',
  netmask: '255.255.0.0',
  ssid: 'Plant',
  password: 'secret',
};
const create = (payload: Record<string, unknown>) => parsePayload(ipNetworkTemplateCreateSchema, payload);

describe('IP network template', () => {
  it('accepts an Ethernet and a Wifi template', () => {
    expect(
      expectAccepted(create({ ...ethernet, gatewayIpAddress: '10.0.0.1', nameservers: ['10.0.0.1'] })),
    ).toMatchObject(ethernet);
    expect(expectAccepted(create(wifi))).toMatchObject(wifi);
    expect(validateIpNetworkTemplate(wifi as IpNetworkTemplateSettings)).toEqual([]);
  });

  it('requires name, interface and netmask', () => {
    const result = create({});
    expectRejected(result, 'REQUIRED', 'ipNetworkTemplateName');
    expectRejected(result, 'REQUIRED', 'commInterface');
    expectRejected(result, 'REQUIRED', 'netmask');
  });

  describe('name minLength 1', () => {
    it('breaks when empty or blank', () => {
      expectRejected(
        create({ ...ethernet, ipNetworkTemplateName: ' ' }),
        'TEMPLATE_NAME_TOO_SHORT',
        'ipNetworkTemplateName',
      );
      expect(
        pairs(validateIpNetworkTemplate({ ...ethernet, commInterface: 'Ethernet', ipNetworkTemplateName: '' })),
      ).toEqual([{ code: 'TEMPLATE_NAME_TOO_SHORT', field: 'ipNetworkTemplateName' }]);
    });
    it('passes with one character', () => expect(create({ ...ethernet, ipNetworkTemplateName: 'L' }).ok).toBe(true));
  });

  describe('netmask minLength 1 and format', () => {
    it('breaks when empty', () => {
      expectRejected(create({ ...ethernet, netmask: '' }), 'TEMPLATE_NETMASK_TOO_SHORT', 'netmask');
      expect(pairs(validateIpNetworkTemplate({ commInterface: 'Ethernet', netmask: null }))).toEqual([
        { code: 'TEMPLATE_NETMASK_TOO_SHORT', field: 'netmask' },
      ]);
    });
    it('breaks when not a contiguous mask', () => {
      expectRejected(create({ ...ethernet, netmask: '255.255.0.255' }), 'INVALID_NETMASK', 'netmask');
      expect(pairs(validateIpNetworkTemplate({ commInterface: 'Ethernet', netmask: '24' }))).toEqual([
        { code: 'INVALID_NETMASK', field: 'netmask' },
      ]);
    });
  });

  it('checks the gateway and nameservers as IPv4 addresses', () => {
    expectRejected(create({ ...ethernet, gatewayIpAddress: '10.0.0' }), 'INVALID_IPV4_ADDRESS', 'gatewayIpAddress');
    expectRejected(create({ ...ethernet, nameservers: ['10.0.0.1', 'dns'] }), 'INVALID_IPV4_ADDRESS', 'nameservers.1');
    expect(
      pairs(
        validateIpNetworkTemplate({
          commInterface: 'Ethernet',
          netmask: '255.0.0.0',
          gatewayIpAddress: 'x',
          nameservers: ['y'],
        }),
      ),
    ).toEqual([
      { code: 'INVALID_IPV4_ADDRESS', field: 'gatewayIpAddress' },
      { code: 'INVALID_IPV4_ADDRESS', field: 'nameservers.0' },
    ]);
  });

  describe('ssid and password only for Wifi', () => {
    it.each(['ssid', 'password'])('%s breaks in an Ethernet template', (field) => {
      expectRejected(create({ ...ethernet, [field]: 'x' }), 'WIFI_FIELD_WITHOUT_WIFI', field);
    });
    it('breaks in a template without interface', () => {
      expect(pairs(validateIpNetworkTemplate({ commInterface: 'None', netmask: '255.0.0.0', ssid: 'Plant' }))).toEqual([
        { code: 'WIFI_FIELD_WITHOUT_WIFI', field: 'ssid' },
      ]);
    });
    it('a template without interface is otherwise accepted (the interface allows None)', () => {
      expect(create({ ...ethernet, commInterface: 'None' }).ok).toBe(true);
    });
  });

  it('refuses unknown fields', () => {
    expectRejected(create({ ...ethernet, gateway: '10.0.0.1' }), 'UNKNOWN_FIELD', 'gateway');
  });
});
