import { beforeAll, describe, expect, it } from 'vitest';
import { configurationRuleSource, VIOLATION_CODES, type ViolationCode } from '../../domain';
import { upsertManufacturingRecords } from '../../server';
import { backends, register, type Response, type TestEnv } from './harness';
import { serviceForTests } from './helpers/service-env';

/**
 * Every violation code of the domain, reached through an operation of the service that accepts
 * the input (create or patch, a device add or update as a dry run, the status operation, the
 * list queries...). A rule of ours is reached through the status, as a warning: the write it is
 * found in is accepted. The last test checks that no code of the domain is left out.
 */
type Found = { code: string; field?: string; severity?: string };

/** Codes no HTTP request can produce, and what the service answers instead. */
const UNREACHABLE = {
  // The database holds a device once per configuration: adding it again is refused as a conflict
  // before the rule could see it twice (tested below).
  DUPLICATE_SERIAL_NUMBER: 'DEVICE_ALREADY_IN_CONFIGURATION',
  // A query string cannot carry a negative whole number past the integer check: '-1' is refused
  // as INVALID_INTEGER first (tested below). Only code that builds queries can reach the range check.
  OFFSET_OUT_OF_RANGE: 'INVALID_INTEGER',
} as const satisfies Partial<Record<ViolationCode, string>>;

interface Context {
  env: TestEnv;
  /** An empty configuration with CAN settings, to dry-run device adds against. */
  base: string;
  euKey: string;
  euOrg: string;
  templates: { ethernet: string; none: string };
}

const reported = (response: Response): Found[] => {
  if (response.json?.data && 'complete' in (response.json.data as object))
    return [...response.json.data.errors, ...response.json.data.warnings];
  return response.json?.errors ?? [];
};

const addDry = (c: Context, body: Record<string, unknown>) =>
  c.env.call('POST', `/configurations/${c.base}/devices?dryRun=true`, { body });

async function statusOf(
  c: Context,
  configuration: Record<string, unknown>,
  devices: Record<string, unknown>[],
): Promise<Response> {
  const id = (await c.env.call('POST', '/configurations', { body: { name: 'completeness', ...configuration } })).json
    .data.id;
  for (const device of devices) {
    const added = await c.env.call('POST', `/configurations/${id}/devices`, { body: device });
    expect(added.status, JSON.stringify(added.json.errors)).toBe(201);
  }
  const status = await c.env.call('GET', `/configurations/validate/${id}`);
  await c.env.call('DELETE', `/configurations/${id}`);
  return status;
}

const BLE_SENDER_ISM_RECEIVER = [
  { serialNumber: 'SRCP000102', deviceConfigurationType: 'Sender', commInterface: 'BLE' },
  { serialNumber: 'SRCP000103', deviceConfigurationType: 'Receiver', commInterface: 'ISM' },
];

const CASES: Record<
  Exclude<ViolationCode, keyof typeof UNREACHABLE>,
  { expectField?: string; run: (c: Context) => Promise<Response> }
> = {
  // Payload shape
  REQUIRED: { expectField: 'name', run: (c) => c.env.call('POST', '/configurations', { body: { ismTxChannel: 3 } }) },
  INVALID_TYPE: { expectField: 'name', run: (c) => c.env.call('POST', '/configurations', { body: { name: 42 } }) },
  INVALID_INTEGER: {
    expectField: 'ismTxChannel',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'x', ismTxChannel: 2.5 } }),
  },
  INTEGER_OUT_OF_RANGE: {
    expectField: 'can0Id',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', can0Id: 2 ** 31 }),
  },
  INVALID_BOOLEAN: { expectField: 'configurableOnly', run: (c) => c.env.call('GET', '/devices?configurableOnly=yes') },
  INVALID_ENUM_VALUE: {
    expectField: 'canMode',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'x', canMode: 'j1587' } }),
  },
  INVALID_UUID: {
    expectField: 'networkTemplateId',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', commInterface: 'Ethernet', networkTemplateId: 'lan' }),
  },
  INVALID_DATE_TIME: {
    expectField: 'applyTimeStamp',
    run: (c) =>
      c.env.call('POST', '/devices/EPC000101/confirm-apply-firmware', {
        body: { firmwareFileSuccessfullyDeployed: false, applyTimeStamp: '01/02/2025' },
      }),
  },
  INVALID_EMAIL: {
    expectField: 'email',
    run: (c) => c.env.call('POST', '/users', { body: { email: 'not-an-address', userRole: 'Operator' } }),
  },
  INVALID_VALUE: { expectField: 'Name', run: (c) => c.env.call('GET', `/apiKeys?Name=${'k'.repeat(65)}`) },
  UNKNOWN_FIELD: {
    expectField: 'colour',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'x', colour: 'red' } }),
  },
  UPDATE_ONLY_FIELD: {
    expectField: 'voltage',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', voltage: 'VOLTAGE_24V' }),
  },
  SERIAL_NUMBER_IN_UPDATE: {
    expectField: 'serialNumber',
    run: async (c) => {
      await c.env.call('POST', `/configurations/${c.base}/devices`, { body: { serialNumber: 'EPC000104' } });
      return c.env.call('PATCH', `/configurations/${c.base}/devices/EPC000104?dryRun=true`, {
        body: { serialNumber: 'EPC000103' },
      });
    },
  },
  INVALID_COMM_INTERFACE: {
    expectField: 'commInterface',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', commInterface: 'BLE,Zigbee' }),
  },
  COMM_INTERFACE_NONE_COMBINED: {
    expectField: 'commInterface',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', commInterface: 'None,BLE' }),
  },
  INVALID_IPV4_ADDRESS: {
    expectField: 'startingIpAddress',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'x', startingIpAddress: '10.0.0.300' } }),
  },
  INVALID_NETMASK: {
    expectField: 'ethNetmask',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', commInterface: 'Ethernet', ethNetmask: '255.0.255.0' }),
  },
  SERIAL_NUMBER_TOO_SHORT: { expectField: 'serialNumber', run: (c) => addDry(c, { serialNumber: '   ' }) },
  TEXT_TOO_LONG: {
    expectField: 'name',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'n'.repeat(101) } }),
  },
  // Configuration settings
  NAME_TOO_SHORT: { expectField: 'name', run: (c) => c.env.call('POST', '/configurations', { body: { name: '  ' } }) },
  ISM_CHANNEL_OUT_OF_RANGE: {
    expectField: 'ismTxChannel',
    run: (c) => c.env.call('PATCH', `/configurations/${c.base}?dryRun=true`, { body: { ismTxChannel: 22 } }),
  },
  ISM_CHANNEL_NOT_ALLOWED_IN_REGION: {
    expectField: 'ismTxChannel',
    run: (c) =>
      c.env.call('POST', '/configurations', {
        key: c.euKey,
        orgId: c.euOrg,
        body: { name: 'EU line', ismTxChannel: 2 },
      }),
  },
  ISM_NETWORK_ID_OUT_OF_RANGE: { expectField: 'ismNetworkId', run: (c) => statusOf(c, { ismNetworkId: -1 }, []) },
  PGN_REQUIRES_J1939: {
    expectField: 'displayTextPgn',
    run: (c) => c.env.call('PATCH', `/configurations/${c.base}?dryRun=true`, { body: { displayTextPgn: 0xff10 } }),
  },
  PGN_OUT_OF_RANGE: {
    expectField: 'settingsPgn',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'x', canMode: 'j1939', settingsPgn: 0xfe00 } }),
  },
  SOURCE_ADDRESS_OUT_OF_RANGE: {
    expectField: 'approvedSourceAddresses.1',
    run: (c) =>
      c.env.call('PATCH', `/configurations/${c.base}?dryRun=true`, { body: { approvedSourceAddresses: [1, 256] } }),
  },
  RECEIVER_OUTPUT_CONTROL_INVALID: {
    expectField: 'receiverOutputControl',
    run: (c) => c.env.call('POST', '/configurations', { body: { name: 'x', receiverOutputControl: 3 } }),
  },
  CAN_BITRATE_NOT_SUPPORTED: {
    expectField: 'canKBitrate',
    run: (c) =>
      c.env.call('PATCH', `/configurations/${c.base}?dryRun=true`, { body: { canKBitrate: 'BITRATE_125000' } }),
  },
  // Device in a configuration
  INPUT_MUST_BE_NOT_USED: {
    expectField: 'devices.SRCP000101.inputConfiguration2',
    run: (c) => addDry(c, { serialNumber: 'SRCP000101', inputConfiguration2: 'ESTOP_TYPE_SWITCH' }),
  },
  INPUT2_NOT_APPLICABLE_WITH_CAT1: {
    expectField: 'devices.NSCP000101.inputConfiguration2',
    run: (c) =>
      addDry(c, {
        serialNumber: 'NSCP000101',
        stopCategory: 'CAT1',
        cat1StopDelay: 1,
        inputConfiguration2: 'ESTOP_TYPE_SWITCH',
      }),
  },
  SERIAL_USAGE_CONFLICT: {
    expectField: 'devices.NSCP000101.serial1Usage',
    run: (c) => addDry(c, { serialNumber: 'NSCP000101', serial0Usage: 'control', serial1Usage: 'control' }),
  },
  NSCP_ONLY_FIELD: {
    expectField: 'devices.EPC000101.stopCategory',
    run: (c) => addDry(c, { serialNumber: 'EPC000101', stopCategory: 'CAT0' }),
  },
  CAT1_STOP_DELAY_WITHOUT_CAT1: {
    expectField: 'devices.NSCP000101.cat1StopDelay',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'NSCP000101', stopCategory: 'CAT0', cat1StopDelay: 2 }]),
  },
  CAT1_STOP_DELAY_NEGATIVE: {
    expectField: 'devices.NSCP000101.cat1StopDelay',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'NSCP000101', stopCategory: 'CAT1', cat1StopDelay: -1 }]),
  },
  INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE: {
    expectField: 'devices.WESP000101.commInterface',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'WESP000101', commInterface: 'Wifi' }]),
  },
  IP_ADDRESS_WITHOUT_IP_INTERFACE: {
    expectField: 'devices.EPC000101.ipAddress',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC000101', commInterface: 'BLE', ipAddress: '10.0.0.5' }]),
  },
  ETHERNET_FIELD_WITHOUT_ETHERNET: {
    expectField: 'devices.EPC000101.ethGateway',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC000101', commInterface: 'Wifi', ethGateway: '10.0.0.1' }]),
  },
  WIFI_FIELD_WITHOUT_WIFI: {
    expectField: 'devices.EPC000101.wifiSsid',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC000101', commInterface: 'Ethernet', wifiSsid: 'Plant' }]),
  },
  IP_ADDRESS_NOT_A_HOST: {
    expectField: 'devices.EPC000101.ipAddress',
    run: (c) =>
      statusOf(c, {}, [
        { serialNumber: 'EPC000101', commInterface: 'Ethernet', ipAddress: '10.0.0.255', ethNetmask: '255.255.255.0' },
      ]),
  },
  GATEWAY_OUTSIDE_SUBNET: {
    expectField: 'devices.EPC000101.ethGateway',
    run: (c) =>
      statusOf(c, {}, [
        {
          serialNumber: 'EPC000101',
          commInterface: 'Ethernet',
          ipAddress: '10.0.0.5',
          ethNetmask: '255.255.255.0',
          ethGateway: '10.0.1.1',
        },
      ]),
  },
  NETWORK_TEMPLATE_NOT_FOUND: {
    expectField: 'devices.EPC000101.networkTemplateId',
    run: (c) =>
      addDry(c, {
        serialNumber: 'EPC000101',
        commInterface: 'Ethernet',
        networkTemplateId: '3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f',
      }),
  },
  NETWORK_TEMPLATE_INTERFACE_MISMATCH: {
    expectField: 'devices.EPC000101.networkTemplateId',
    run: (c) =>
      statusOf(c, {}, [{ serialNumber: 'EPC000101', commInterface: 'Wifi', networkTemplateId: c.templates.ethernet }]),
  },
  DUPLICATE_IP_ADDRESS: {
    expectField: 'devices.EPC900002.ipAddress',
    run: (c) =>
      statusOf(c, {}, [
        { serialNumber: 'EPC000101', commInterface: 'Ethernet', ipAddress: '10.0.0.7' },
        { serialNumber: 'EPC900002', commInterface: 'Ethernet', ipAddress: '10.0.0.7' },
      ]),
  },
  // Completeness (the status operation)
  NO_SENDER: { expectField: 'devices', run: (c) => statusOf(c, {}, []) },
  NO_RECEIVER: {
    expectField: 'devices',
    run: (c) =>
      statusOf(c, {}, [{ serialNumber: 'SRCP000102', deviceConfigurationType: 'Sender', commInterface: 'BLE' }]),
  },
  DEVICE_ROLE_MISSING: {
    expectField: 'devices.SRCP000102.deviceConfigurationType',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'SRCP000102', commInterface: 'BLE' }]),
  },
  COMM_INTERFACE_MISSING: {
    expectField: 'devices.SRCP000102.commInterface',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'SRCP000102', deviceConfigurationType: 'Sender' }]),
  },
  // One configuration breaks both link rules: the BLE sender reaches no receiver, the ISM receiver no sender.
  SENDER_WITHOUT_RECEIVER_LINK: {
    expectField: 'devices.SRCP000102.commInterface',
    run: (c) => statusOf(c, {}, BLE_SENDER_ISM_RECEIVER),
  },
  RECEIVER_WITHOUT_SENDER_LINK: {
    expectField: 'devices.SRCP000103.commInterface',
    run: (c) => statusOf(c, {}, BLE_SENDER_ISM_RECEIVER),
  },
  TIMEOUT_CONFIGURATION_MISSING: { expectField: 'timeoutConfiguration', run: (c) => statusOf(c, {}, []) },
  ISM_CHANNEL_MISSING: {
    expectField: 'ismTxChannel',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'SRCP000102', commInterface: 'ISM' }]),
  },
  ISM_TX_POWER_MISSING: {
    expectField: 'ismTxPower',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'SRCP000102', commInterface: 'ISM' }]),
  },
  CAN_MODE_MISSING: {
    expectField: 'canMode',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC900001', commInterface: 'BLE' }]),
  },
  CAN_BITRATE_MISSING: { expectField: 'canKBitrate', run: (c) => statusOf(c, { canMode: 'canopen' }, []) },
  IP_ADDRESS_MISSING: {
    expectField: 'devices.EPC900001.ipAddress',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC900001', commInterface: 'Ethernet' }]),
  },
  NETMASK_MISSING: {
    expectField: 'devices.EPC900001.ethNetmask',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC900001', commInterface: 'Ethernet' }]),
  },
  WIFI_SSID_MISSING: {
    expectField: 'devices.EPC900001.wifiSsid',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'EPC900001', commInterface: 'Wifi' }]),
  },
  STOP_CATEGORY_MISSING: {
    expectField: 'devices.NSCP000102.stopCategory',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'NSCP000102' }]),
  },
  CAT1_STOP_DELAY_MISSING: {
    expectField: 'devices.NSCP000102.cat1StopDelay',
    run: (c) => statusOf(c, {}, [{ serialNumber: 'NSCP000102', stopCategory: 'CAT1' }]),
  },
  // IP network templates
  TEMPLATE_NAME_TOO_SHORT: {
    expectField: 'ipNetworkTemplateName',
    run: (c) =>
      c.env.call('POST', '/ipNetworkTemplates', {
        body: { ipNetworkTemplateName: ' ', commInterface: 'Ethernet', netmask: '255.255.255.0' },
      }),
  },
  TEMPLATE_NETMASK_TOO_SHORT: {
    expectField: 'netmask',
    run: (c) =>
      c.env.call('POST', '/ipNetworkTemplates', {
        body: { ipNetworkTemplateName: 'LAN', commInterface: 'Ethernet', netmask: '' },
      }),
  },
  // Registered devices, confirmations
  DEVICE_NAME_TOO_SHORT: {
    expectField: 'name',
    run: (c) => c.env.call('POST', '/devices?serialNumber=WESP000104&name=%20'),
  },
  DEVICE_IMAGE_TOO_LARGE: {
    expectField: 'deviceImage',
    run: (c) => c.env.call('PATCH', '/devices/EPC000101', { body: 'A'.repeat(2_000_001) }),
  },
  DELETE_IMAGE_WITH_IMAGE: {
    expectField: 'deleteImage',
    run: (c) => c.env.call('PATCH', '/devices/EPC000101?deleteImage=true', { body: 'data:image/png;base64,AAAA' }),
  },
  APPLY_TIME_OUT_OF_RANGE: {
    expectField: 'applyTimeStamp',
    run: (c) =>
      c.env.call('POST', '/devices/EPC000101/confirm-apply-firmware', {
        body: { firmwareFileSuccessfullyDeployed: false, applyTimeStamp: '1970-01-01T00:00:00Z' },
      }),
  },
  FIRMWARE_VERSION_REQUIRED: {
    expectField: 'firmwareVersion',
    run: (c) =>
      c.env.call('POST', '/devices/EPC000101/confirm-apply-firmware', {
        body: { firmwareFileSuccessfullyDeployed: true, applyTimeStamp: '2025-01-01T00:00:00Z' },
      }),
  },
  // List queries
  LIMIT_TOO_LARGE: { expectField: 'Limit', run: (c) => c.env.call('GET', '/configurations?Limit=31') },
  LIMIT_TOO_SMALL: { expectField: 'limit', run: (c) => c.env.call('GET', '/devices?limit=0') },
  PAGE_OUT_OF_RANGE: { expectField: 'Page', run: (c) => c.env.call('GET', '/configurations?Page=0') },
  SEARCH_WITH_SERIAL: { expectField: 'serial', run: (c) => c.env.call('GET', '/devices?search=EPC&serial=EPC000101') },
};

describe.each(backends())('every rule of the domain through the operations, on %s', (backend) => {
  const context = { env: serviceForTests(backend) } as Context;

  beforeAll(async () => {
    const env = context.env;
    await register(env, [
      'SRCP000101',
      'SRCP000102',
      'SRCP000103',
      'WESP000101',
      'EPC000101',
      'EPC000102',
      'EPC000103',
      'EPC000104',
      'NSCP000101',
      'NSCP000102',
    ]);
    await upsertManufacturingRecords(
      env.db,
      ['EPC900001', 'EPC900002'].map((serialNumber) => ({
        serialNumber,
        deviceType: 'EPC' as const,
        model: 'EPC-300',
      })),
    );
    await register(env, ['EPC900001', 'EPC900002']);
    context.base = (
      await env.call('POST', '/configurations', {
        body: { name: 'base', canMode: 'canopen', canKBitrate: 'BITRATE_250000' },
      })
    ).json.data.id;
    await env.call('POST', `/configurations/${context.base}/devices`, { body: { serialNumber: 'EPC000102' } });
    context.euOrg = 'eu-plant';
    context.euKey = await env.createOrg(context.euOrg, 'EU');
    const ethernet = await env.call('POST', '/ipNetworkTemplates', {
      body: { ipNetworkTemplateName: 'LAN', commInterface: 'Ethernet', netmask: '255.255.255.0' },
    });
    const none = await env.call('POST', '/ipNetworkTemplates', {
      body: { ipNetworkTemplateName: 'Off', commInterface: 'None', netmask: '255.255.255.0' },
    });
    context.templates = { ethernet: ethernet.json.data.id, none: none.json.data.id };
  });

  for (const [code, { expectField, run }] of Object.entries(CASES)) {
    it(`${code}${expectField ? ` (${expectField})` : ''}`, async () => {
      const before = await context.env.call('GET', `/configurations/${context.base}`);
      const response = await run(context);
      const found = reported(response);
      expect(found, JSON.stringify(found)).toContainEqual(
        expect.objectContaining(expectField ? { code, field: expectField } : { code }),
      );
      // Ours warn and the interface's refuse: the severity says which.
      const entry = found.find((f) => f.code === code && (!expectField || f.field === expectField));
      expect(entry?.severity).toBe(configurationRuleSource(code) === 'ours' ? 'warning' : undefined);
      // A request that broke a rule changed nothing: dry runs and refused requests alike.
      if (!['SERIAL_NUMBER_IN_UPDATE', 'DUPLICATE_SERIAL_NUMBER'].includes(code)) {
        const after = await context.env.call('GET', `/configurations/${context.base}`);
        expect(after.json.data).toEqual(before.json.data);
      }
    });
  }

  it('answers the unreachable codes with their stand-ins', async () => {
    const { env } = context;
    await env.call('POST', `/configurations/${context.base}/devices`, { body: { serialNumber: 'EPC000103' } });
    const again = await env.call('POST', `/configurations/${context.base}/devices`, {
      body: { serialNumber: 'EPC000103' },
    });
    expect(again.status).toBe(409);
    expect(reported(again)).toEqual([
      expect.objectContaining({ code: UNREACHABLE.DUPLICATE_SERIAL_NUMBER, field: 'serialNumber' }),
    ]);
    const offset = await env.call('GET', '/apiKeys?Offset=-1');
    expect(reported(offset)).toEqual([
      expect.objectContaining({ code: UNREACHABLE.OFFSET_OUT_OF_RANGE, field: 'Offset' }),
    ]);
  });

  it('reaches every violation code the domain defines', () => {
    expect([...Object.keys(CASES), ...Object.keys(UNREACHABLE)].sort()).toEqual([...VIOLATION_CODES].sort());
  });
});
