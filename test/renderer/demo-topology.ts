import type { DemoFlow } from '../../server/seed/typical-flows';
import { SENDER_ROLES } from '../../domain/enums';
import type { TopologyConfiguration } from '../../renderer/designer/topology';

/** A demo flow as the designer holds it: every field present, null when unset. */
export function asTopologyConfiguration(flow: DemoFlow): TopologyConfiguration {
  return {
    startingIpAddress: flow.configuration.startingIpAddress ?? null,
    ismTxChannel: flow.configuration.ismTxChannel ?? null,
    devices: flow.devices.map(({ deviceType, payload }) => ({
      serialNumber: payload.serialNumber,
      deviceType,
      deviceConfigurationType: payload.deviceConfigurationType ?? null,
      commInterface: payload.commInterface ?? null,
      ipAddress: payload.ipAddress ?? null,
      ethNetmask: payload.ethNetmask ?? null,
      wifiNetmask: payload.wifiNetmask ?? null,
    })),
  };
}

/** Each sender and receiver pair of a demo flow, as `sender->receiver`. */
export function senderReceiverPairs(flow: DemoFlow): string[] {
  const serials = (roles: readonly string[]) => flow.devices.filter((d) => roles.includes(d.payload.deviceConfigurationType ?? '')).map((d) => d.payload.serialNumber);
  return serials(SENDER_ROLES).flatMap((s) => serials(['Receiver']).map((r) => `${s}->${r}`));
}
