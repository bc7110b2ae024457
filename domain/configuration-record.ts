import { z } from 'zod';
import { deviceTypeSchema } from './device-types';
import {
  canKBitrateSchema,
  canModeSchema,
  deviceRoleSchema,
  inputConfigurationSchema,
  ismTxPowerSchema,
  serialBaudrateSchema,
  serialUsageSchema,
  stopCategorySchema,
  timeoutConfigurationSchema,
  voltageSchema,
} from './enums';
import { dateTimeField, uuidField } from './fields';

/**
 * A device of a configuration as the service returns it: every field present, null when unset.
 * wifiPassword is a secret and never returned; wifiPasswordSet says whether one is stored. A
 * response that carries wifiPassword is refused by this schema, so a leak shows up in tests.
 */
export const configurationDeviceRecordSchema = z.object({
  serialNumber: z.string(),
  deviceType: deviceTypeSchema,
  deviceConfigurationType: deviceRoleSchema.nullable(),
  commInterface: z.string().nullable(),
  ipAddress: z.string().nullable(),
  inputConfiguration1: inputConfigurationSchema.nullable(),
  inputConfiguration2: inputConfigurationSchema.nullable(),
  inputConfiguration3: inputConfigurationSchema.nullable(),
  can0Id: z.int().nullable(),
  can1Id: z.int().nullable(),
  voltage: voltageSchema.nullable(),
  serial0Usage: serialUsageSchema.nullable(),
  serial1Usage: serialUsageSchema.nullable(),
  serial0Baudrate: serialBaudrateSchema.nullable(),
  serial1Baudrate: serialBaudrateSchema.nullable(),
  stopCategory: stopCategorySchema.nullable(),
  cat1StopDelay: z.number().nullable(),
  /** NSCP: true unless turned off (the interface: enabled by default). Other types: null. */
  ossdEnabled: z.boolean().nullable(),
  ethNetmask: z.string().nullable(),
  ethGateway: z.string().nullable(),
  ethNameservers: z.array(z.string()).nullable(),
  wifiNetmask: z.string().nullable(),
  wifiGateway: z.string().nullable(),
  wifiNameservers: z.array(z.string()).nullable(),
  wifiSsid: z.string().nullable(),
  wifiPasswordSet: z.boolean(),
  wifiPassword: z.never().optional(),
  networkTemplateId: uuidField.nullable(),
});
export type ConfigurationDeviceRecord = z.output<typeof configurationDeviceRecordSchema>;

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
  errors: z.array(z.object({ code: z.string(), message: z.string(), field: z.string() })),
  /** Devices whose configuration file can be downloaded now: all of them once complete, none before. */
  readyDevices: z.array(z.string()),
});
export type ConfigurationStatus = z.output<typeof configurationStatusSchema>;
