import { z } from 'zod';
import { confirmationReasonSchema } from './confirmations';
import { deviceTypeSchema } from './device-types';
import { deployStatusSchema } from './enums';
import { dateTimeField, uuidField } from './fields';

/** Our extension: who saw it, when and why (the confirmation's observedAt, workstation and reason); absent when it did not say. */
const observedFields = {
  observedAt: dateTimeField.optional(),
  workstation: z.string().optional(),
  reason: confirmationReasonSchema.optional(),
};

export const firmwareApplySchema = z.object({
  success: z.boolean(),
  firmwareVersion: z.string().nullable(),
  error: z.string().nullable(),
  appliedAt: dateTimeField,
  ...observedFields,
});

export const configurationApplySchema = z.object({
  success: z.boolean(),
  syncId: uuidField,
  error: z.string().nullable(),
  appliedAt: dateTimeField,
  ...observedFields,
});

/**
 * A registered device. deviceType and model come from the manufacturing records; firmwareVersion
 * is the version of the last successful firmware confirmation; deployStatus is derived (see
 * deriveDeployStatus); deployedSyncId is the syncId of the last successful configuration apply.
 */
export const deviceRecordSchema = z.object({
  serialNumber: z.string(),
  name: z.string(),
  deviceType: deviceTypeSchema,
  model: z.string().nullable(),
  hasImage: z.boolean(),
  deviceImage: z.string().nullable(),
  configurationId: uuidField.nullable(),
  configurationName: z.string().nullable(),
  firmwareVersion: z.string().nullable(),
  lastFirmwareApply: firmwareApplySchema.nullable(),
  deployStatus: deployStatusSchema,
  deployedSyncId: uuidField.nullable(),
  /**
   * Our extension: the syncId of the file the service serves the device now, null while it is in
   * no configuration or its file changed and was not issued since (a download issues it). What a
   * device must hold to be in sync. Absent from services without it.
   */
  currentSyncId: uuidField.nullable().optional(),
  lastConfigurationApply: configurationApplySchema.nullable(),
  registeredAt: dateTimeField,
});
export type DeviceRecord = z.output<typeof deviceRecordSchema>;

/** GET devices/{serialNumber}/firmware/version and devices/types/{deviceType}/firmware/version. */
export const firmwareVersionRecordSchema = z.object({
  deviceType: deviceTypeSchema,
  version: z.string(),
});
