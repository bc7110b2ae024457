import { z } from 'zod';
import {
  configurationConfirmationSchema,
  firmwareConfirmationSchema,
  type ConfigurationConfirmationInput,
  type FirmwareConfirmationInput,
} from '../confirmations';
import { FileFormatError } from './file-error';
import {
  buildSignedZip,
  openSignedZip,
  type ContainerSigner,
  type ContainerSignerRecord,
  type SignedZipLimits,
} from './work-package-container';

/**
 * Confirmations carried back from a plant without network: the signed confirmations that waited
 * in a laptop's outbox, each with the id the outbox sends as its Idempotency-Key (so the service
 * records each once, whether this file or that laptop's outbox gets there first), and the
 * laptop's ledger entries. The same signed container as work packages (work-package-container.ts);
 * the body is `confirmations.json` inside the manifest.
 */

export const WORK_CONFIRMATIONS_FORMAT = 'provisioner-work-confirmations/1';
export const WORK_CONFIRMATIONS_LIMITS: SignedZipLimits = { maxZipBytes: 256 * 1024 * 1024, maxEntries: 4 };

/** A stored payload must be one the service accepts; it is kept as written, so a replay is byte-for-byte the same. */
function acceptedPayload<T>(schema: z.ZodType) {
  return z.custom<T>(
    (payload) => typeof payload === 'object' && payload !== null && schema.safeParse(payload).success,
    {
      message: 'not a confirmation the service accepts',
    },
  );
}

const common = {
  /** The outbox entry's id: the Idempotency-Key it is delivered with. */
  id: z.string().regex(/^[\x21-\x7e]{1,255}$/),
  serviceUrl: z.string().min(1),
  orgId: z.string().min(1),
  serialNumber: z.string().min(1),
  createdAt: z.string(),
};

export const carriedConfirmationSchema = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    kind: z.literal('firmware'),
    payload: acceptedPayload<FirmwareConfirmationInput>(firmwareConfirmationSchema),
  }),
  z.object({
    ...common,
    kind: z.literal('configuration'),
    payload: acceptedPayload<ConfigurationConfirmationInput>(configurationConfirmationSchema),
  }),
]);
export type CarriedConfirmation = z.infer<typeof carriedConfirmationSchema>;

export const carriedEnrolmentSchema = z.object({
  serviceUrl: z.string().min(1),
  orgId: z.string().min(1),
  workstation: z.string().min(1).max(128),
  publicKey: z.string().min(1).max(200),
  proof: z.string().min(1).max(200),
  grant: z.object({ grantId: z.uuid(), token: z.string().min(16).max(200) }),
});
export type CarriedEnrolment = z.infer<typeof carriedEnrolmentSchema>;

export const workConfirmationsBodySchema = z.object({
  exportId: z.uuid(),
  createdAt: z.iso.datetime({ offset: true }),
  workstation: z.string().min(1),
  confirmations: z.array(carriedConfirmationSchema),
  /** The exporting workstation's ledger lines as its ledger reads them; empty where it keeps none. */
  ledger: z.array(z.unknown()).default([]),
  /**
   * The laptop's enrolments made offline: its ledger key (which signs this file), the key's proof,
   * and the one-time grant of the work package it imported, one per organization.
   */
  enrolments: z.array(carriedEnrolmentSchema).default([]),
  /**
   * The exporting laptop's ledger head when it exported (the last entry's number and hash, as its
   * sealed head says): the carried ledger must reach it, or entries were cut from its end.
   */
  ledgerHead: z
    .object({ seq: z.number().int().min(1), hash: z.string().regex(/^[0-9a-f]{64}$/) })
    .nullable()
    .default(null),
});
export type WorkConfirmationsBody = z.infer<typeof workConfirmationsBodySchema>;

export interface WorkConfirmations {
  body: WorkConfirmationsBody;
  signer: ContainerSignerRecord;
}

export function buildWorkConfirmations(
  body: z.input<typeof workConfirmationsBodySchema>,
  signer: ContainerSigner,
): Uint8Array {
  return buildSignedZip({
    format: WORK_CONFIRMATIONS_FORMAT,
    body: workConfirmationsBodySchema.parse(body),
    files: new Map(),
    signer,
  });
}

/** Opens and checks a confirmations file: signature, every byte (WP_TAMPERED), and its contents. */
export function readWorkConfirmations(zip: Uint8Array): WorkConfirmations {
  const opened = openSignedZip(zip, {
    format: WORK_CONFIRMATIONS_FORMAT,
    what: 'confirmations file',
    limits: WORK_CONFIRMATIONS_LIMITS,
  });
  const parsed = workConfirmationsBodySchema.safeParse(opened.manifest.body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new FileFormatError(
      'WP_NOT_A_PACKAGE',
      `The confirmations file is signed but its contents are not readable by this version (${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}). Update Provisioner.`,
    );
  }
  const ids = new Set<string>();
  for (const confirmation of parsed.data.confirmations) {
    if (ids.has(confirmation.id))
      throw new FileFormatError(
        'WP_TAMPERED',
        `The confirmations file holds confirmation ${confirmation.id} twice. Do not use it: export it again.`,
      );
    ids.add(confirmation.id);
  }
  return { body: parsed.data, signer: opened.manifest.signer };
}
