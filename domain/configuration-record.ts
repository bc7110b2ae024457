import { z } from 'zod';
import { DEVICE_SETTING_VALUES, type ConfigurationDeviceSettings } from './configuration-device';
import { deviceTypeSchema } from './device-types';
import { canKBitrateSchema, canModeSchema, ismTxPowerSchema, timeoutConfigurationSchema } from './enums';
import { dateTimeField, nullableFields, uuidField } from './fields';
import { violationsSchema } from './records';

/**
 * A device of a configuration as the service returns it: every field present, null when unset.
 * wifiPassword is a secret and never returned; wifiPasswordSet says whether one is stored. A
 * response that carries wifiPassword is refused by this schema, so a leak shows up in tests.
 */
const { wifiPassword: _writtenOnly, ...recordedSettings } = DEVICE_SETTING_VALUES;

export const configurationDeviceRecordSchema = z.object({
  serialNumber: z.string(),
  deviceType: deviceTypeSchema,
  ...nullableFields(recordedSettings),
  wifiPasswordSet: z.boolean(),
  wifiPassword: z.never().optional(),
});
export type ConfigurationDeviceRecord = z.output<typeof configurationDeviceRecordSchema>;
export type RecordedDeviceSettings = Omit<ConfigurationDeviceRecord, 'serialNumber' | 'deviceType'>;

/** A device's settings as its record carries them: every setting, null when unset; of the Wifi password only whether one is set. */
export function recordedDeviceSettings(settings: ConfigurationDeviceSettings): RecordedDeviceSettings {
  const recorded: Record<string, unknown> = {};
  for (const key of Object.keys(recordedSettings) as (keyof typeof recordedSettings)[]) {
    const value = settings[key];
    recorded[key] = Array.isArray(value) ? [...value] : (value ?? null);
  }
  return { ...recorded, wifiPasswordSet: settings.wifiPasswordSet === true } as RecordedDeviceSettings;
}

/**
 * A configuration as the service returns it. Defaults are applied: with canMode j1939, an unset
 * displayTextPgn reads 65281 and settingsPgn 65282 (null with other CAN modes).
 */
export const configurationRecordSchema = z.object({
  id: uuidField,
  name: z.string(),
  startingIpAddress: z.string().nullable(),
  ismTxPower: ismTxPowerSchema.nullable(),
  ismTxChannel: z.int().nullable(),
  ismNetworkId: z.int().nullable(),
  canMode: canModeSchema.nullable(),
  canKBitrate: canKBitrateSchema.nullable(),
  displayTextPgn: z.int().nullable(),
  settingsPgn: z.int().nullable(),
  approvedSourceAddresses: z.array(z.int()).nullable(),
  receiverOutputControl: z.int().nullable(),
  timeoutConfiguration: timeoutConfigurationSchema.nullable(),
  devices: z.array(configurationDeviceRecordSchema),
  createdAt: dateTimeField,
  lastEditedAt: dateTimeField,
});
export type ConfigurationRecord = z.output<typeof configurationRecordSchema>;

/** Data of GET configurations/validate/{id}; computed by configurationStatus(). */
export const configurationStatusSchema = z.object({
  configurationId: uuidField,
  complete: z.boolean(),
  errors: violationsSchema,
  /**
   * Our extension: the rules of ours the configuration breaks (severity 'warning'). They hold back
   * no file; the technician reads them before applying. Absent from services without it.
   */
  warnings: violationsSchema.default([]),
  /** Devices whose configuration file can be downloaded now: all of them once complete, none before. */
  readyDevices: z.array(z.string()),
});
export type ConfigurationStatus = z.output<typeof configurationStatusSchema>;
