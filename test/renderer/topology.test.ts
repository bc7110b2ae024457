import { describe, expect, it } from 'vitest';
import { DEMO_FLOWS } from '../../server/seed/typical-flows';
import { configurationTopology } from '../../renderer/designer/topology';
import { asTopologyConfiguration as asConfiguration, senderReceiverPairs } from '../fixtures/demo-topology';

describe('configurationTopology over the six typical flows', () => {
  it.each(DEMO_FLOWS.map((f) => [f.key, f] as const))(
    '%s: one node per device, one edge per sender-receiver pair',
    (_key, flow) => {
      const topology = configurationTopology(asConfiguration(flow), { violations: [], warnings: [] });
      expect(topology.nodes.map((n) => n.id)).toEqual(flow.devices.map((d) => d.payload.serialNumber));
      expect(topology.edges.map((e) => e.id).sort()).toEqual(senderReceiverPairs(flow).sort());
      expect(topology.unplaced).toEqual([]);
    },
  );

  it('names the medium of each link, the ISM channel included', () => {
    const byKey = new Map(DEMO_FLOWS.map((f) => [f.key, configurationTopology(asConfiguration(f), null)]));
    expect(byKey.get('srcp-to-epc-over-ism')?.edges.map((e) => e.label)).toEqual(['ISM channel 5']);
    expect(byKey.get('srcp-to-epc-over-ble')?.edges.map((e) => e.label)).toEqual(['BLE']);
    expect(byKey.get('epc-to-nscp-over-ethernet')?.edges.map((e) => e.label)).toEqual(['Ethernet']);
    const mixed = byKey.get('estop-and-srcp-to-epc-over-ethernet-and-ble');
    expect(Object.fromEntries(mixed?.edges.map((e) => [e.id, e.label]) ?? [])).toEqual({
      'EPC000102->EPC000101': 'Ethernet',
      'SRCP000101->EPC000101': 'BLE',
    });
  });

  it('groups devices by role', () => {
    const mixed = DEMO_FLOWS.find((f) => f.key === 'estop-and-srcp-to-epc-over-ethernet-and-ble');
    if (!mixed) throw new Error('flow missing');
    const groups = Object.fromEntries(
      configurationTopology(asConfiguration(mixed), null).nodes.map((n) => [n.id, n.group]),
    );
    expect(groups).toEqual({ EPC000102: 'senders', SRCP000101: 'senders', EPC000101: 'receivers' });
  });

  it('shows the addresses assigned from the starting IP address before any file is made', () => {
    const several = DEMO_FLOWS.find((f) => f.key === 'epc-to-several-epcs-over-ethernet');
    if (!several) throw new Error('flow missing');
    const nodes = configurationTopology(asConfiguration(several), null).nodes;
    expect(nodes.map((n) => [n.id, n.ipAddress, n.ipAddressAssigned])).toEqual([
      ['EPC000101', '10.20.0.10', true],
      ['EPC000102', '10.20.0.11', true],
      ['EPC000103', '10.20.0.12', true],
    ]);
  });

  it('links an Ethernet device to a Wifi one over the IP network', () => {
    const topology = configurationTopology(
      {
        startingIpAddress: null,
        ismTxChannel: null,
        devices: [
          {
            serialNumber: 'EPC000101',
            deviceType: 'EPC',
            deviceConfigurationType: 'Sender',
            commInterface: 'Ethernet',
            ipAddress: '10.0.0.1',
            ethNetmask: null,
            wifiNetmask: null,
          },
          {
            serialNumber: 'EPC000102',
            deviceType: 'EPC',
            deviceConfigurationType: 'Receiver',
            commInterface: 'Wifi',
            ipAddress: '10.0.0.2',
            ethNetmask: null,
            wifiNetmask: null,
          },
        ],
      },
      null,
    );
    expect(topology.edges.map((e) => e.label)).toEqual(['Ethernet/Wifi']);
  });

  it('places errors and warnings on the node or edge they concern', () => {
    const ism = DEMO_FLOWS.find((f) => f.key === 'srcp-to-epc-over-ism');
    if (!ism) throw new Error('flow missing');
    const topology = configurationTopology(asConfiguration(ism), {
      violations: [
        { code: 'ISM_CHANNEL_OUT_OF_RANGE', field: 'ismTxChannel', message: 'channel' },
        { code: 'INPUT_MUST_BE_NOT_USED', field: 'devices.SRCP000101.inputConfiguration1', message: 'input' },
        { code: 'NAME_TOO_SHORT', field: 'name', message: 'name' },
      ],
      warnings: [{ code: 'SOME_WARNING', field: 'devices.EPC000101.can0Id', message: 'can', severity: 'warning' }],
    });
    const node = (id: string) => topology.nodes.find((n) => n.id === id);
    expect(node('SRCP000101')?.problems.map((p) => p.code)).toEqual(['INPUT_MUST_BE_NOT_USED']);
    expect(node('EPC000101')?.problems.map((p) => [p.code, p.severity])).toEqual([['SOME_WARNING', 'warning']]);
    expect(topology.edges[0]?.problems.map((p) => p.code)).toEqual(['ISM_CHANNEL_OUT_OF_RANGE']);
    expect(topology.unplaced.map((p) => p.code)).toEqual(['NAME_TOO_SHORT']);
  });
});
