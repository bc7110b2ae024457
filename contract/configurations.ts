import { z } from 'zod';
import { CONFIGURATION_SETTING_KEYS } from '../domain/configuration';
import { DEVICE_SETTING_VALUES } from '../domain/configuration-device';
import {
  configurationRecordSchema,
  type ConfigurationDeviceRecord,
  type ConfigurationRecord,
} from '../domain/configuration-record';
import type { DeviceType } from '../domain/device-types';
import { configurationSortOptionSchema } from '../domain/enums';
import type { Page } from '../domain/records';
import type { Violation } from '../domain/violations';
import { command, query } from './channel-spec';
import { nonEmpty, pageQuery, pickFields, recordId, serialNumber, settableFields } from './inputs';

/**
 * The settings a technician edits, as the renderer may send them: any value of each field's type,
 * null, or absent. The fields come from the domain's lists; the rules live in domain/ and the service.
 */
export const configurationSettingsSchema = z.object(
  settableFields(pickFields(configurationRecordSchema.shape, CONFIGURATION_SETTING_KEYS)),
);

/** A device's settings inside a configuration (add and update share it; serialNumber travels beside it). */
export const configurationDeviceSettingsSchema = z.object(settableFields(DEVICE_SETTING_VALUES));

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
  /** The interface's rules the configuration breaks: they hold back its files. */
  violations: Violation[];
  /** Our own rules it breaks (severity 'warning'): shown before applying, holding nothing back. */
  warnings: Violation[];
  devices: DeviceFileReadiness[];
}

/** A write the service judged: `violations` empty means it was accepted (or would be, for a dry run). */
export interface WriteOutcome<T> {
  dryRun: boolean;
  violations: Violation[];
  value: T | null;
}

const deviceChange = z
  .object({
    id: recordId,
    serialNumber,
    settings: configurationDeviceSettingsSchema,
    dryRun: z.boolean().default(false),
  })
  .strict();

export const CONFIGURATION_CHANNELS = {
  'configurations.list': query(
    z
      .object({
        search: z.string().max(200).optional(),
        sortOptions: configurationSortOptionSchema.optional(),
        ...pageQuery,
      })
      .strict(),
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
  'configurations.removeDevice': command(
    z.object({ id: recordId, serialNumber }).strict(),
  ).returns<ConfigurationView>(),
} as const;
export type ConfigurationChannel = keyof typeof CONFIGURATION_CHANNELS;
