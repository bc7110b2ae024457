import { z } from 'zod';
import { serviceKey } from '../../../domain/service-url';
import {
  configurationConfirmationSchema,
  firmwareConfirmationSchema,
  type ConfigurationConfirmationInput,
  type FirmwareConfirmationInput,
} from '../../../domain/confirmations';

/**
 * The outbox's record of one confirm-apply call. Stored one file per entry; the `payload` is
 * written once at creation and sent byte-for-byte the same on every replay, which is what lets
 * the service recognise a replay (it deduplicates on serial number, kind and payload).
 */

/** A stored payload must be one the service accepts (its own schema says so), and is kept as written, not normalized. */
function storedPayload<T>(serviceSchema: z.ZodType) {
  return z.custom<T>((payload) => serviceSchema.safeParse(payload).success, {
    message: 'not a confirmation the service accepts',
  });
}

export const outboxErrorSchema = z.object({
  /** network: no answer; service: a 5xx; auth: 401/403 or no credentials; rejected: a 4xx that will not change; refused: 2xx with data false; format: an answer that is not the envelope. */
  kind: z.enum(['network', 'service', 'auth', 'rejected', 'refused', 'format', 'other']),
  message: z.string(),
  httpStatus: z.number().int().optional(),
  /** The service's own error entries, kept as sent. */
  errors: z.array(z.looseObject({ code: z.string(), message: z.string(), field: z.string().nullish() })).optional(),
  at: z.string(),
});
export type OutboxError = z.infer<typeof outboxErrorSchema>;

const common = {
  format: z.literal('provisioner-outbox/1'),
  id: z.string().min(1),
  /** Where and for whom the confirmation goes: an entry never follows a later login elsewhere. */
  serviceUrl: z.string().min(1),
  orgId: z.string().min(1),
  serialNumber: z.string().min(1),
  createdAt: z.string(),
  attempts: z.number().int().nonnegative(),
  lastAttemptAt: z.string().nullable(),
  lastError: outboxErrorSchema.nullable(),
  nextAttemptAt: z.string(),
  state: z.enum(['pending', 'rejected']),
  rejectedAt: z.string().nullable(),
};

export const outboxEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    ...common,
    kind: z.literal('firmware'),
    payload: storedPayload<FirmwareConfirmationInput>(firmwareConfirmationSchema),
  }),
  z.object({
    ...common,
    kind: z.literal('configuration'),
    payload: storedPayload<ConfigurationConfirmationInput>(configurationConfirmationSchema),
  }),
]);
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export type NewConfirmation =
  | { kind: 'firmware'; serviceUrl: string; orgId: string; serialNumber: string; payload: FirmwareConfirmationInput }
  | {
      kind: 'configuration';
      serviceUrl: string;
      orgId: string;
      serialNumber: string;
      payload: ConfigurationConfirmationInput;
    };

/** Entries of one chain are delivered in order: a later firmware confirmation never overtakes an earlier one. */
export function chainKey(entry: Pick<OutboxEntry, 'serviceUrl' | 'orgId' | 'serialNumber' | 'kind'>): string {
  return `${serviceKey(entry.serviceUrl)}\u0000${entry.orgId}\u0000${entry.serialNumber}\u0000${entry.kind}`;
}

/** Backoff between attempts: doubling from `baseMs`, capped, with ±20% jitter so a fleet of laptops does not retry in step. */
export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 5_000, capMs: 5 * 60_000, jitter: 0.2 };

/** Delay before attempt number `attempts + 1`, after `attempts` failed ones. `random` in [0, 1). */
export function retryDelay(attempts: number, policy: BackoffPolicy, random: () => number): number {
  const exponent = Math.max(0, attempts - 1);
  const nominal = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(exponent, 30));
  const factor = 1 - policy.jitter + 2 * policy.jitter * random();
  return Math.round(Math.min(policy.capMs, nominal * factor));
}

/**
 * The sender has no key for the entry's service and organization now (signed out, or signed in
 * elsewhere). Every other entry for them would fail the same way: the outbox lets them wait with
 * this one instead of trying (and rewriting) each of them.
 */
export class NoCredentialsError extends Error {
  override readonly name = 'NoCredentialsError';
  constructor(
    readonly serviceUrl: string,
    readonly orgId: string,
  ) {
    super(`No credentials for organization ${orgId} at ${serviceUrl}: log in to it to send this confirmation.`);
  }
}

/** The service and organization an entry goes to, as one key. */
export function accountKey(entry: Pick<OutboxEntry, 'serviceUrl' | 'orgId'>): string {
  return `${serviceKey(entry.serviceUrl)}\u0000${entry.orgId}`;
}
