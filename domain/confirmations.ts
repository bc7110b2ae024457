import { z } from 'zod';
import { dateTimeField, optionalField, uuidField } from './fields';
import { boundedText, TEXT_LIMITS } from './text-limits';
import { violation, type Violation } from './violations';

/**
 * Confirmations come from the field, often replayed from an outbox long after the fact. Unknown
 * fields are ignored rather than refused, so a newer or older client's extra field cannot make a
 * confirmation bounce forever.
 */

/** POST devices/{serialNumber}/confirm-apply-firmware. null for the outcome counts as "not deployed". */
export const firmwareConfirmationSchema = z.object({
  firmwareFileSuccessfullyDeployed: z
    .boolean()
    .nullish()
    .transform((deployed) => deployed === true),
  error: optionalField(boundedText(TEXT_LIMITS.applyError)),
  firmwareVersion: optionalField(boundedText(TEXT_LIMITS.firmwareVersion).transform((s) => s.trim())),
  applyTimeStamp: dateTimeField,
});
export type FirmwareConfirmation = z.output<typeof firmwareConfirmationSchema>;
export type FirmwareConfirmationInput = z.input<typeof firmwareConfirmationSchema>;

/** The service records a firmware version only from a successful confirmation that names it. */
export function validateFirmwareConfirmation(confirmation: FirmwareConfirmation): Violation[] {
  return confirmation.firmwareFileSuccessfullyDeployed && !confirmation.firmwareVersion
    ? [
        violation(
          'FIRMWARE_VERSION_REQUIRED',
          'firmwareVersion',
          'A successful firmware confirmation must say which version was applied: send firmwareVersion.',
        ),
      ]
    : [];
}

/** POST devices/{serialNumber}/confirm-apply-configuration. */
export const configurationConfirmationSchema = z.object({
  configurationFileSuccessfullyDeployed: z.boolean(),
  error: optionalField(boundedText(TEXT_LIMITS.applyError)),
  syncId: uuidField,
  applyTimeStamp: dateTimeField,
});
export type ConfigurationConfirmationInput = z.input<typeof configurationConfirmationSchema>;
