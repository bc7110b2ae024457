import type { ConfigurationSettings } from './configuration';
import type { ConfigurationDeviceSettings } from './configuration-device';
import type { DeviceType } from './device-types';
import { DEFAULT_DISPLAY_TEXT_PGN, DEFAULT_SETTINGS_PGN } from './rules/field-rules';

/** The settings with the interface's defaults applied: PGNs 65281 and 65282 under canMode j1939. */
export function withConfigurationDefaults<T extends ConfigurationSettings>(settings: T): T {
  if (settings.canMode !== 'j1939') return settings;
  return {
    ...settings,
    displayTextPgn: settings.displayTextPgn ?? DEFAULT_DISPLAY_TEXT_PGN,
    settingsPgn: settings.settingsPgn ?? DEFAULT_SETTINGS_PGN,
  };
}

/** The device with the interface's defaults applied: OSSD pulses are on for an NSCP unless turned off. */
export function withDeviceDefaults<T extends ConfigurationDeviceSettings>(device: T, deviceType: DeviceType): T {
  if (deviceType !== 'NSCP') return device;
  return { ...device, ossdEnabled: device.ossdEnabled ?? true };
}
