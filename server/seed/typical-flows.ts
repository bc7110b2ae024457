/**
 * The six typical configuration flows of the interface, as the payloads a client sends: one
 * configuration create payload and the device add payloads, in the order a technician adds them.
 * Each flow validates clean and is complete for a North American organization. The demo
 * organization is seeded with them (demo.ts), and the tests build on the same payloads
 * (test/fixtures/typical-flows.ts adds each flow's likely mistakes).
 *
 * Payloads use the canonical forms; the ISM flow also sends ismNetworkId, as the samples do.
 */
import type { ConfigurationCreateInput, DeviceAddInput, DeviceType, Region } from '../../domain';

export type FlowDevice = { deviceType: DeviceType; payload: DeviceAddInput & { serialNumber: string } };

export type DemoFlow = {
  key: string;
  title: string;
  region: Region;
  configuration: ConfigurationCreateInput;
  devices: FlowDevice[];
};

/** Serial numbers of the manufacturing records the flows use, with their types. */
export const FLOW_SERIAL_NUMBERS: Readonly<Record<string, DeviceType>> = {
  SRCP000101: 'SRCP',
  WESP000101: 'WESP',
  EPC000101: 'EPC',
  EPC000102: 'EPC',
  EPC000103: 'EPC',
  NSCP000101: 'NSCP',
};

/** A device of a flow, of the type its serial number was manufactured as. */
function flowDevice(payload: FlowDevice['payload']): FlowDevice {
  const deviceType = FLOW_SERIAL_NUMBERS[payload.serialNumber];
  if (!deviceType)
    throw new Error(`${payload.serialNumber} is not one of FLOW_SERIAL_NUMBERS: add it there with its type.`);
  return { deviceType, payload };
}

export const srcpToEpcOverIsm: DemoFlow = {
  key: 'srcp-to-epc-over-ism',
  title: 'SRCP sender to EPC receiver over ISM radio',
  region: 'NA',
  configuration: {
    name: 'Loader 7 remote (ISM)',
    ismTxPower: 'High',
    ismTxChannel: 5,
    ismNetworkId: 12,
    canMode: 'j1939',
    canKBitrate: 'BITRATE_250000',
    approvedSourceAddresses: [0, 3],
    receiverOutputControl: 1,
    timeoutConfiguration: '1000ms',
  },
  devices: [
    flowDevice({
      serialNumber: 'SRCP000101',
      deviceConfigurationType: 'Sender',
      commInterface: 'ISM',
      inputConfiguration1: 'NOT_USED',
      inputConfiguration2: 'NOT_USED',
    }),
    flowDevice({ serialNumber: 'EPC000101', deviceConfigurationType: 'Receiver', commInterface: 'ISM', can0Id: 1 }),
  ],
};

export const epcToEpcOverEthernet: DemoFlow = {
  key: 'epc-to-epc-over-ethernet',
  title: 'EPC to EPC over Ethernet',
  region: 'NA',
  configuration: {
    name: 'Conveyor 2 stations (Ethernet)',
    canMode: 'canopen',
    canKBitrate: 'BITRATE_500000',
    receiverOutputControl: 2,
    timeoutConfiguration: '500ms',
  },
  devices: [
    flowDevice({
      serialNumber: 'EPC000101',
      deviceConfigurationType: 'Sender',
      commInterface: 'Ethernet',
      ipAddress: '192.168.10.11',
      ethNetmask: '255.255.255.0',
      ethGateway: '192.168.10.1',
      ethNameservers: ['192.168.10.1'],
      inputConfiguration1: 'ESTOP_TYPE_SWITCH',
      inputConfiguration2: 'NOT_USED',
    }),
    flowDevice({
      serialNumber: 'EPC000102',
      deviceConfigurationType: 'Receiver',
      commInterface: 'Ethernet',
      ipAddress: '192.168.10.12',
      ethNetmask: '255.255.255.0',
      ethGateway: '192.168.10.1',
    }),
  ],
};

export const epcToSeveralEpcsOverEthernet: DemoFlow = {
  key: 'epc-to-several-epcs-over-ethernet',
  title: 'EPC sender to several EPC receivers over Ethernet (canMode none)',
  region: 'NA',
  configuration: {
    name: 'Line 3 zone stop (Ethernet, no CAN)',
    startingIpAddress: '10.20.0.10',
    canMode: 'none',
    timeoutConfiguration: '250ms',
  },
  devices: [
    flowDevice({
      serialNumber: 'EPC000101',
      deviceConfigurationType: 'Sender',
      commInterface: 'Ethernet',
      ethNetmask: '255.255.0.0',
      inputConfiguration1: 'ESTOP_TYPE_SWITCH',
      inputConfiguration2: 'SOLID_STATE_SAFETY_DEVICE',
    }),
    flowDevice({
      serialNumber: 'EPC000102',
      deviceConfigurationType: 'Receiver',
      commInterface: 'Ethernet',
      ethNetmask: '255.255.0.0',
    }),
    flowDevice({
      serialNumber: 'EPC000103',
      deviceConfigurationType: 'Receiver',
      commInterface: 'Ethernet',
      ethNetmask: '255.255.0.0',
    }),
  ],
};

export const epcToNscpOverEthernet: DemoFlow = {
  key: 'epc-to-nscp-over-ethernet',
  title: 'EPC sender to NSCP receiver over Ethernet',
  region: 'NA',
  configuration: {
    name: 'Press cell (EPC to NSCP)',
    canMode: 'j1939',
    canKBitrate: 'BITRATE_250000',
    displayTextPgn: 0xff10,
    approvedSourceAddresses: [17],
    timeoutConfiguration: '750ms',
  },
  devices: [
    flowDevice({
      serialNumber: 'EPC000101',
      deviceConfigurationType: 'Sender',
      commInterface: 'Ethernet',
      ipAddress: '172.16.5.20',
      ethNetmask: '255.255.255.0',
      inputConfiguration1: 'ESTOP_TYPE_SWITCH',
      inputConfiguration2: 'ESTOP_TYPE_SWITCH',
    }),
    flowDevice({
      serialNumber: 'NSCP000101',
      deviceConfigurationType: 'Receiver',
      commInterface: 'Ethernet',
      ipAddress: '172.16.5.21',
      ethNetmask: '255.255.255.0',
      serial0Usage: 'comms',
      serial1Usage: 'control',
      stopCategory: 'CAT1',
      cat1StopDelay: 1.5,
      inputConfiguration1: 'ESTOP_TYPE_SWITCH',
      inputConfiguration2: 'NOT_USED',
      ossdEnabled: true,
    }),
  ],
};

export const srcpToEpcOverBle: DemoFlow = {
  key: 'srcp-to-epc-over-ble',
  title: 'SRCP to EPC over BLE',
  region: 'NA',
  configuration: {
    name: 'Service cart remote (BLE)',
    canMode: 'canopen',
    canKBitrate: 'BITRATE_250000',
    receiverOutputControl: 1,
    timeoutConfiguration: '3000ms',
  },
  devices: [
    flowDevice({ serialNumber: 'SRCP000101', deviceConfigurationType: 'Sender', commInterface: 'BLE' }),
    flowDevice({ serialNumber: 'EPC000101', deviceConfigurationType: 'Receiver', commInterface: 'BLE' }),
  ],
};

export const estopAndSrcpToEpcOverEthernetAndBle: DemoFlow = {
  key: 'estop-and-srcp-to-epc-over-ethernet-and-ble',
  title: 'EStopSender plus SRCP sender to an EPC receiver using Ethernet and BLE',
  region: 'NA',
  configuration: {
    name: 'Mixer bay (E-stop station and remote)',
    canMode: 'j1939',
    canKBitrate: 'BITRATE_500000',
    receiverOutputControl: 2,
    timeoutConfiguration: '5000ms',
  },
  devices: [
    flowDevice({
      serialNumber: 'EPC000102',
      deviceConfigurationType: 'EStopSender',
      commInterface: 'Ethernet',
      ipAddress: '192.168.50.31',
      ethNetmask: '255.255.255.0',
      inputConfiguration1: 'ESTOP_TYPE_SWITCH',
      inputConfiguration2: 'NOT_USED',
      inputConfiguration3: 'ESTOP_TYPE_SWITCH',
    }),
    flowDevice({ serialNumber: 'SRCP000101', deviceConfigurationType: 'Sender', commInterface: 'BLE' }),
    flowDevice({
      serialNumber: 'EPC000101',
      deviceConfigurationType: 'Receiver',
      commInterface: 'BLE,Ethernet',
      ipAddress: '192.168.50.30',
      ethNetmask: '255.255.255.0',
    }),
  ],
};

export const DEMO_FLOWS: readonly DemoFlow[] = [
  srcpToEpcOverIsm,
  epcToEpcOverEthernet,
  epcToSeveralEpcsOverEthernet,
  epcToNscpOverEthernet,
  srcpToEpcOverBle,
  estopAndSrcpToEpcOverEthernetAndBle,
];
