import { commInterfaceFlags, usesIp } from './comm-interface';
import type { ConfigurationPatch, ConfigurationSettings } from './configuration';
import {
  ETHERNET_FIELDS,
  WIFI_FIELDS,
  type ConfigurationDeviceSettings,
  type DeviceUpdate,
} from './configuration-device';

/**
 * PATCH semantics shared by the service and the UI's dry runs. A field absent from the patch (or
 * null, which the schemas turn into absent) keeps its stored value. Settings that only mean
 * something together with another one are dropped when that other one changes and the patch does
 * not set them, so that switching a choice never leaves stale values that then fail a rule:
 * - PGNs when canMode is no longer j1939;
 * - Ethernet fields when the device no longer uses Ethernet, Wifi fields when it no longer uses
 *   Wifi, ipAddress and networkTemplateId when it uses neither;
 * - cat1StopDelay when stopCategory is no longer CAT1.
 */
export function mergeConfigurationPatch<T extends ConfigurationSettings>(current: T, patch: ConfigurationPatch): T {
  const merged: T = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (merged as Record<string, unknown>)[key] = value;
  }
  if (patch.canMode !== undefined && patch.canMode !== 'j1939') {
    if (patch.displayTextPgn === undefined) merged.displayTextPgn = null;
    if (patch.settingsPgn === undefined) merged.settingsPgn = null;
  }
  return merged;
}

export function mergeDevicePatch<T extends ConfigurationDeviceSettings>(current: T, patch: DeviceUpdate): T {
  const merged: T = { ...current };
  const given = new Set<string>();
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    (merged as Record<string, unknown>)[key] = value;
    given.add(key);
  }
  const clear = (key: keyof ConfigurationDeviceSettings) => {
    if (!given.has(key)) (merged as Record<string, unknown>)[key] = null;
  };
  if (patch.commInterface !== undefined) {
    const flags = commInterfaceFlags(patch.commInterface);
    if (!flags.includes('Ethernet')) ETHERNET_FIELDS.forEach(clear);
    if (!flags.includes('Wifi')) {
      WIFI_FIELDS.forEach(clear);
      if (!given.has('wifiPassword') && 'wifiPasswordSet' in merged)
        (merged as Record<string, unknown>).wifiPasswordSet = false;
    }
    if (!usesIp(patch.commInterface)) {
      clear('ipAddress');
      clear('networkTemplateId');
    }
  }
  if (given.has('wifiPassword') && 'wifiPasswordSet' in merged)
    (merged as Record<string, unknown>).wifiPasswordSet = true;
  if (patch.stopCategory !== undefined && patch.stopCategory !== 'CAT1') clear('cat1StopDelay');
  return merged;
}
