import {
  CONFIGURATION_SAFETY_KEYS,
  effectiveDevices,
  recordedDeviceSettings,
  withConfigurationDefaults,
  withDeviceDefaults,
  type ConfigurationContext,
  type ConfigurationDeviceRecord,
  type ConfigurationMember,
  type ConfigurationRecord,
  type ConfigurationSettings,
} from '../../domain';
import { CONFIG_FILE_FORMAT, CONFIG_FILE_FORMAT_LAYOUT2, type ConfigFileContent } from '../../domain/files';
import type { ServiceContext } from '../context';
import type { StoredConfiguration, StoredMember } from '../store/configurations';
import { canonicalJson, compactObject } from '../store/json';

export function settingsOf(stored: StoredConfiguration): ConfigurationSettings {
  return { ...stored.settings, name: stored.name };
}

export function memberOf(stored: StoredMember): ConfigurationMember {
  return {
    ...stored.settings,
    serialNumber: stored.serialNumber,
    deviceType: stored.deviceType,
    wifiPasswordSet: stored.wifiPasswordSet,
  };
}

export function membersOf(stored: StoredConfiguration): ConfigurationMember[] {
  return stored.members.map(memberOf);
}

/** A device of a configuration as returned: every field, null when unset, defaults applied. */
export function deviceRecord(
  member: ConfigurationMember,
  assignedIpAddress: string | null,
): ConfigurationDeviceRecord & { assignedIpAddress: string | null } {
  const d = withDeviceDefaults(member, member.deviceType);
  return {
    serialNumber: d.serialNumber,
    deviceType: d.deviceType,
    ...recordedDeviceSettings(d),
    // Not in the domain record: the address the file will carry when ipAddress is unset and the
    // configuration assigns one from startingIpAddress.
    assignedIpAddress,
  };
}

/** A configuration as returned (the domain's ConfigurationRecord), defaults applied. */
export function configurationRecord(
  stored: StoredConfiguration,
  ctx: Pick<ConfigurationContext, 'findNetworkTemplate'>,
): ConfigurationRecord {
  const s = withConfigurationDefaults(settingsOf(stored));
  const members = membersOf(stored);
  const effective = effectiveDevices(s, members, ctx);
  return {
    id: stored.id,
    name: stored.name,
    startingIpAddress: s.startingIpAddress ?? null,
    ismTxPower: s.ismTxPower ?? null,
    ismTxChannel: s.ismTxChannel ?? null,
    ismNetworkId: s.ismNetworkId ?? null,
    canMode: s.canMode ?? null,
    canKBitrate: s.canKBitrate ?? null,
    displayTextPgn: s.displayTextPgn ?? null,
    settingsPgn: s.settingsPgn ?? null,
    approvedSourceAddresses: s.approvedSourceAddresses ? [...s.approvedSourceAddresses] : null,
    receiverOutputControl: s.receiverOutputControl ?? null,
    timeoutConfiguration: s.timeoutConfiguration ?? null,
    devices: members.map((member, index) => {
      const assigned = member.ipAddress ? null : (effective[index]?.ipAddress ?? null);
      return deviceRecord(member, assigned);
    }),
    createdAt: stored.createdAt.toISOString(),
    lastEditedAt: stored.lastEditedAt.toISOString(),
  };
}

/**
 * The file content of one device without what each issue of a file adds (syncId, organization,
 * sequence, issue time): what its settings hash covers.
 */
export type FileSettings = Omit<ConfigFileContent, 'syncId' | 'orgId' | 'sequence' | 'issuedAt'>;

/**
 * The keyed hash that names a file's content: its syncId stays while the hash does. The content is
 * hashed under the name of layout 2, the layout the service hashed before it served layout 3: the
 * same settings are the same content whatever layout carries them, so the move to layout 3 issued
 * no new syncIds and left deployed devices Deployed (docs/decisions.md).
 */
export function settingsHashOf(svc: Pick<ServiceContext, 'secrets'>, settings: FileSettings): string {
  return svc.secrets.contentHash(canonicalJson({ ...settings, format: CONFIG_FILE_FORMAT_LAYOUT2 }));
}

/**
 * What each device of a complete configuration gets in its file: its own effective settings
 * (template applied, address assigned, defaults, its Wifi password), the peers it talks to, and
 * the configuration's safety parameters. `effective` must hold the Wifi passwords.
 */
export function fileSettingsOf(
  stored: StoredConfiguration,
  effective: readonly ConfigurationMember[],
): Map<string, FileSettings> {
  const settings = withConfigurationDefaults(settingsOf(stored));
  const safety = compactObject(Object.fromEntries(CONFIGURATION_SAFETY_KEYS.map((key) => [key, settings[key]])));
  const out = new Map<string, FileSettings>();
  for (const member of effective) {
    const { serialNumber, deviceType, wifiPasswordSet: _set, ...own } = withDeviceDefaults(member, member.deviceType);
    const peers = effective
      .filter((peer) => peer.serialNumber !== serialNumber)
      .map((peer) =>
        compactObject({
          serialNumber: peer.serialNumber,
          deviceType: peer.deviceType,
          deviceConfigurationType: peer.deviceConfigurationType,
          commInterface: peer.commInterface,
          ipAddress: peer.ipAddress,
        }),
      );
    out.set(serialNumber, {
      format: CONFIG_FILE_FORMAT,
      serialNumber,
      deviceType,
      configurationId: stored.id,
      blank: false,
      device: compactObject(own),
      peers,
      safety,
    });
  }
  return out;
}

export function blankFileSettings(serialNumber: string, deviceType: string): FileSettings {
  return {
    format: CONFIG_FILE_FORMAT,
    serialNumber,
    deviceType,
    configurationId: null,
    blank: true,
    device: {},
    peers: [],
    safety: {},
  };
}
