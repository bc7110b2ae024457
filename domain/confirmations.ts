import { z } from 'zod';
import { dateTimeField, optionalField, uuidField } from './fields';
import { boundedText, TEXT_LIMITS } from './text-limits';
import { violation, type Violation } from './violations';

/**
 * Confirmations come from the field, often replayed from an outbox long after the fact. Unknown
 * fields are ignored rather than refused, so a newer or older client's extra field cannot make a
 * confirmation bounce forever.
 */

/**
 * Why a confirmation was sent: the result of a job (also one judged later from the device, after
 * the job was interrupted), or an observation of a device the service had recorded otherwise.
 */
export const CONFIRMATION_REASONS = ['job-result', 'observation'] as const;
export const confirmationReasonSchema = z.enum(CONFIRMATION_REASONS);
export type ConfirmationReason = z.infer<typeof confirmationReasonSchema>;

/**
 * Our extension to both confirmations, each field optional: what a workstation saw, when, and why
 * it says so. A workstation is a stable id its client keeps (docs/service-api.md).
 */
const observationFields = {
  observedAt: optionalField(dateTimeField),
  workstation: optionalField(z.string().min(1).max(128)),
  reason: optionalField(confirmationReasonSchema),
  /** The hash of the workstation's ledger entry for this action (domain/ledger.ts), so the record and the ledger can be matched. */
  ledgerHash: optionalField(
    z.string().regex(/^[0-9a-f]{64}$/, 'ledgerHash must be a SHA-256 hash in 64 lowercase hex digits'),
  ),
  /**
   * That entry's number in the workstation's ledger: with ledgerHash, the ledger's head when the
   * workstation confirmed, so that entries cut from its end later show against the service's record.
   */
  ledgerSeq: optionalField(z.number().int().min(1).max(Number.MAX_SAFE_INTEGER)),
};

/** POST devices/{serialNumber}/confirm-apply-firmware. null for the outcome counts as "not deployed". */
export const firmwareConfirmationSchema = z.object({
  firmwareFileSuccessfullyDeployed: z
    .boolean()
    .nullish()
    .transform((deployed) => deployed === true),
  error: optionalField(boundedText(TEXT_LIMITS.applyError)),
  firmwareVersion: optionalField(boundedText(TEXT_LIMITS.firmwareVersion).transform((s) => s.trim())),
  applyTimeStamp: dateTimeField,
  ...observationFields,
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
  ...observationFields,
});
export type ConfigurationConfirmationInput = z.input<typeof configurationConfirmationSchema>;
