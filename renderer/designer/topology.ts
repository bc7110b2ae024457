import { commInterfaceFlags, type CommInterface } from '../../domain/comm-interface';
import type { CommInterfaceFlag, DeviceRole } from '../../domain/enums';
import { SENDER_ROLES } from '../../domain/enums';
import { assignIpAddresses } from '../../domain/ip-assignment';
import type { Violation } from '../../domain/violations';
import { englishWords, type Words } from '../../domain/domain-words';

/**
 * The picture of a configuration as a graph, kept apart from its drawing so that it can be tested
 * without a DOM: one node per device, one edge per sender and receiver that share a medium, and
 * the status's errors and warnings on the node or edge they concern.
 */

/** The parts of a configuration the picture needs (a ConfigurationView has them all). */
export interface TopologyConfiguration {
  startingIpAddress: string | null;
  ismTxChannel: number | null;
  devices: readonly TopologyDevice[];
}

export interface TopologyDevice {
  serialNumber: string;
  deviceType: string | null;
  deviceConfigurationType: DeviceRole | null;
  commInterface: CommInterface | null;
  ipAddress: string | null;
  ethNetmask: string | null;
  wifiNetmask: string | null;
}

/** Where a device is drawn: senders (and E-stop senders) on the left, receivers on the right. */
export type RoleGroup = 'senders' | 'receivers' | 'no-role';

export interface TopologyNode {
  id: string;
  serialNumber: string;
  deviceType: string | null;
  role: DeviceRole | null;
  group: RoleGroup;
  /** Its media in words ('BLE and Ethernet'); null when it has none. */
  media: string | null;
  /** The address it has or will be given; null when it uses no IP or none can be given yet. */
  ipAddress: string | null;
  /** True when the address comes from the configuration's starting IP address, not the device's own. */
  ipAddressAssigned: boolean;
  problems: Violation[];
}

export interface TopologyEdge {
  id: string;
  source: string;
  target: string;
  /** What the pair shares: 'ISM channel 5', 'BLE', 'Ethernet', 'Wifi', in that order. */
  media: string[];
  /** Whether the pair talks over ISM (the ISM settings' problems go on its edge). */
  overIsm: boolean;
  label: string;
  problems: Violation[];
}

export interface Topology {
  nodes: TopologyNode[];
  edges: TopologyEdge[];
  /** Problems of the configuration as a whole, that no node or edge stands for. */
  unplaced: Violation[];
}

export interface TopologyStatus {
  violations: readonly Violation[];
  warnings: readonly Violation[];
}

const DEVICE_FIELD = /^devices\.([^.]+)(?:\.|$)/;
/** Settings of the configuration that belong to its ISM links. */
const ISM_FIELDS = new Set(['ismTxChannel', 'ismTxPower', 'ismNetworkId']);
/** Settings every link carries: the safety timeout supervises each sender-receiver link. */
const LINK_FIELDS = new Set(['timeoutConfiguration']);

/** The picture's words (media, 'ISM channel 5') are in the language of `words`, English by default. */
export function configurationTopology(
  configuration: TopologyConfiguration,
  status: TopologyStatus | null,
  words: Words = englishWords(),
): Topology {
  const and = new Intl.ListFormat(words.locale, { type: 'conjunction' });
  const assigned = assignIpAddresses(configuration.startingIpAddress, configuration.devices);
  const problems = status
    ? [...status.violations, ...status.warnings.map((w) => ({ ...w, severity: 'warning' as const }))]
    : [];
  const nodes: TopologyNode[] = configuration.devices.map((device) => {
    const assignedAddress = device.ipAddress ? null : (assigned.get(device.serialNumber) ?? null);
    const flags = realFlags(device.commInterface);
    return {
      id: device.serialNumber,
      serialNumber: device.serialNumber,
      deviceType: device.deviceType,
      role: device.deviceConfigurationType,
      group: roleGroup(device.deviceConfigurationType),
      media: flags.length > 0 ? and.format(flags) : null,
      ipAddress: device.ipAddress ?? assignedAddress,
      ipAddressAssigned: assignedAddress !== null,
      problems: [],
    };
  });
  const edges: TopologyEdge[] = [];
  const senders = configuration.devices.filter(
    (d) => d.deviceConfigurationType !== null && SENDER_ROLES.includes(d.deviceConfigurationType),
  );
  const receivers = configuration.devices.filter((d) => d.deviceConfigurationType === 'Receiver');
  for (const sender of senders) {
    for (const receiver of receivers) {
      const media = sharedMedia(sender.commInterface, receiver.commInterface, configuration.ismTxChannel, words);
      if (media.length === 0) continue;
      const overIsm =
        realFlags(sender.commInterface).includes('ISM') && realFlags(receiver.commInterface).includes('ISM');
      edges.push({
        id: `${sender.serialNumber}->${receiver.serialNumber}`,
        source: sender.serialNumber,
        target: receiver.serialNumber,
        media,
        overIsm,
        label: media.join(' + '),
        problems: [],
      });
    }
  }

  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const unplaced: Violation[] = [];
  for (const problem of problems) {
    const serial = DEVICE_FIELD.exec(problem.field)?.[1];
    const node = serial ? nodeById.get(serial) : undefined;
    if (node) {
      node.problems.push(problem);
      continue;
    }
    const concerned = edges.filter(
      (e) => (ISM_FIELDS.has(problem.field) && e.overIsm) || LINK_FIELDS.has(problem.field),
    );
    if (concerned.length > 0) concerned.forEach((e) => e.problems.push(problem));
    else unplaced.push(problem);
  }
  return { nodes, edges, unplaced };
}

function roleGroup(role: DeviceRole | null): RoleGroup {
  if (role === null) return 'no-role';
  return SENDER_ROLES.includes(role) ? 'senders' : 'receivers';
}

function realFlags(commInterface: CommInterface | null): Exclude<CommInterfaceFlag, 'None'>[] {
  return commInterfaceFlags(commInterface).filter((f): f is Exclude<CommInterfaceFlag, 'None'> => f !== 'None');
}

/**
 * What two devices can talk over. Ethernet and Wifi are one IP network (the site bridges wired and
 * wireless, as the completeness rules assume), so an Ethernet device reaches a Wifi one: the edge
 * then names both.
 */
function sharedMedia(
  a: CommInterface | null,
  b: CommInterface | null,
  ismChannel: number | null,
  words: Words,
): string[] {
  const mine = new Set(realFlags(a));
  const theirs = new Set(realFlags(b));
  const media: string[] = [];
  if (mine.has('ISM') && theirs.has('ISM'))
    media.push(
      ismChannel === null
        ? words.t('designer:topology.ismNoChannel')
        : words.t('designer:topology.ismChannel', { channel: ismChannel }),
    );
  if (mine.has('BLE') && theirs.has('BLE')) media.push('BLE');
  const ip = (flags: Set<string>) => ['Ethernet', 'Wifi'].filter((f) => flags.has(f));
  const myIp = ip(mine);
  const theirIp = ip(theirs);
  if (myIp.length > 0 && theirIp.length > 0) {
    const common = myIp.filter((f) => theirIp.includes(f));
    media.push(...(common.length > 0 ? common : [[...new Set([...myIp, ...theirIp])].join('/')]));
  }
  return media;
}
