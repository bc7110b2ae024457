import { z } from 'zod';
import type { ConfigurationDeviceRecord, ConfigurationRecord } from '../domain/configuration-record';
import type { DeviceType } from '../domain/device-types';
import {
  canKBitrateSchema,
  canModeSchema,
  configurationSortOptionSchema,
  deviceRoleSchema,
  inputConfigurationSchema,
  ismTxPowerSchema,
  serialBaudrateSchema,
  serialUsageSchema,
  stopCategorySchema,
  timeoutConfigurationSchema,
  voltageSchema,
} from '../domain/enums';
import type { Page } from '../domain/records';
import type { Violation } from '../domain/violations';
import { command, query } from './channel-spec';
import { nonEmpty, pageQuery, recordId, serialNumber } from './inputs';

/** The configuration settings a technician edits. Shapes only: the rules live in domain/ and the service. */
export const configurationSettingsSchema = z.object({
  name: z.string().nullable().optional(),
  startingIpAddress: z.string().nullable().optional(),
  ismTxPower: ismTxPowerSchema.nullable().optional(),
  ismTxChannel: z.number().int().nullable().optional(),
  ismNetworkId: z.number().int().nullable().optional(),
  canMode: canModeSchema.nullable().optional(),
  canKBitrate: canKBitrateSchema.nullable().optional(),
  displayTextPgn: z.number().int().nullable().optional(),
  settingsPgn: z.number().int().nullable().optional(),
  approvedSourceAddresses: z.array(z.number().int()).max(256).nullable().optional(),
  receiverOutputControl: z.number().int().nullable().optional(),
  timeoutConfiguration: timeoutConfigurationSchema.nullable().optional(),
});
export type ConfigurationSettings = z.infer<typeof configurationSettingsSchema>;

/** A device's settings inside a configuration (add and update payloads share it; serialNumber is separate). */
export const configurationDeviceSettingsSchema = z.object({
  ipAddress: z.string().nullable().optional(),
  deviceConfigurationType: deviceRoleSchema.nullable().optional(),
  commInterface: z.string().max(64).nullable().optional(),
  inputConfiguration1: inputConfigurationSchema.nullable().optional(),
  inputConfiguration2: inputConfigurationSchema.nullable().optional(),
  inputConfiguration3: inputConfigurationSchema.nullable().optional(),
  can0Id: z.number().int().nullable().optional(),
  can1Id: z.number().int().nullable().optional(),
  voltage: voltageSchema.nullable().optional(),
  serial0Usage: serialUsageSchema.nullable().optional(),
  serial1Usage: serialUsageSchema.nullable().optional(),
  serial0Baudrate: serialBaudrateSchema.nullable().optional(),
  serial1Baudrate: serialBaudrateSchema.nullable().optional(),
  stopCategory: stopCategorySchema.nullable().optional(),
  cat1StopDelay: z.number().nullable().optional(),
  ossdEnabled: z.boolean().nullable().optional(),
  ethNetmask: z.string().nullable().optional(),
  ethGateway: z.string().nullable().optional(),
  ethNameservers: z.array(z.string()).max(8).nullable().optional(),
  wifiNetmask: z.string().nullable().optional(),
  wifiGateway: z.string().nullable().optional(),
  wifiNameservers: z.array(z.string()).max(8).nullable().optional(),
  wifiSsid: z.string().nullable().optional(),
  wifiPassword: z.string().nullable().optional(),
  networkTemplateId: z.string().nullable().optional(),
});
export type ConfigurationDeviceSettings = z.infer<typeof configurationDeviceSettingsSchema>;

/** Records as the service returns them (domain/ owns their schemas). */
export type ConfigurationView = ConfigurationRecord;
export type ConfigurationDeviceView = ConfigurationDeviceRecord;

export interface DeviceFileReadiness {
  serialNumber: string;
  deviceType: DeviceType | null;
  ready: boolean;
  /** Why the file cannot be downloaded yet, phrased for the technician. */
  reason: string | null;
}

export interface ConfigurationStatusView {
  complete: boolean;
  violations: Violation[];
  devices: DeviceFileReadiness[];
}

/** A write the service judged: `violations` empty means it was accepted (or would be, for a dry run). */
export interface WriteOutcome<T> {
  dryRun: boolean;
  violations: Violation[];
  value: T | null;
}

const deviceChange = z
  .object({ id: recordId, serialNumber, settings: configurationDeviceSettingsSchema, dryRun: z.boolean().default(false) })
  .strict();

export const CONFIGURATION_CHANNELS = {
  'configurations.list': query(
    z.object({ search: z.string().max(200).optional(), sortOptions: configurationSortOptionSchema.optional(), ...pageQuery }).strict(),
  ).returns<Page<ConfigurationView>>(),
  'configurations.get': query(z.object({ id: recordId }).strict()).returns<ConfigurationView>(),
  'configurations.create': command(
    z.object({ settings: configurationSettingsSchema.extend({ name: nonEmpty.max(200) }) }).strict(),
  ).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.update': command(
    z.object({ id: recordId, settings: configurationSettingsSchema, dryRun: z.boolean().default(false) }).strict(),
  ).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.delete': command(z.object({ id: recordId }).strict()).returns<boolean>(),
  'configurations.status': query(z.object({ id: recordId }).strict()).returns<ConfigurationStatusView>(),
  'configurations.addDevice': command(deviceChange).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.updateDevice': command(deviceChange).returns<WriteOutcome<ConfigurationView>>(),
  'configurations.removeDevice': command(z.object({ id: recordId, serialNumber }).strict()).returns<ConfigurationView>(),
} as const;
export type ConfigurationChannel = keyof typeof CONFIGURATION_CHANNELS;
