import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database';
import { badRequest, ServiceError } from '../http/errors';
import { noteConfirmation } from '../http/metrics';
import { confirmationHash } from '../store/confirmations';
import { findKeyedConfirmation, rememberConfirmationKey, type KeyedConfirmation } from '../store/confirmation-keys';

/**
 * Confirmations are recorded exactly once: a client sends an Idempotency-Key with each one (the
 * app's outbox sends its entry id, the same on every retry), and a request repeated with a key the
 * service has seen is answered as the first one was, without recording anything again. Without a
 * key, the payload still tells a replay (server/store/confirmations.ts).
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Printable ASCII without spaces, at most 255: a UUID, an outbox entry id, a ULID all fit. */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export interface ConfirmationRequest {
  orgId: string;
  serialNumber: string;
  kind: KeyedConfirmation['kind'];
  /** The apply as it will be recorded (its hash identifies the confirmation). */
  payload: object;
}

function keyOf(request: FastifyRequest): string | undefined {
  const sent = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (sent === undefined) return undefined;
  if (typeof sent !== 'string' || !KEY_PATTERN.test(sent)) {
    throw badRequest(
      'IDEMPOTENCY_KEY_INVALID',
      'The Idempotency-Key header must be 1 to 255 printable characters without spaces (e.g. a UUID), sent once.',
    );
  }
  return sent;
}

function keyed(confirmation: ConfirmationRequest): KeyedConfirmation {
  return {
    serialNumber: confirmation.serialNumber,
    kind: confirmation.kind,
    payloadHash: confirmationHash(confirmation.payload),
  };
}

/**
 * True when this request's key was recorded before for this same confirmation: answer as then.
 * A key recorded for another confirmation is a client's mistake, refused with 422.
 */
export async function answeredBefore(
  db: Queryable,
  request: FastifyRequest,
  confirmation: ConfirmationRequest,
): Promise<boolean> {
  const key = keyOf(request);
  if (key === undefined) return false;
  const earlier = await findKeyedConfirmation(db, confirmation.orgId, key);
  if (!earlier) return false;
  const now = keyed(confirmation);
  if (
    earlier.serialNumber !== now.serialNumber ||
    earlier.kind !== now.kind ||
    earlier.payloadHash !== now.payloadHash
  ) {
    throw new ServiceError(422, [
      {
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: `This Idempotency-Key was sent before with another confirmation (${earlier.kind} of ${earlier.serialNumber}): use a new key for each confirmation.`,
      },
    ]);
  }
  noteConfirmation(request, confirmation.kind, 'replay');
  return true;
}

/** After the confirmation is stored (now or before): links the request's key to it. */
export async function rememberAnswer(
  db: Queryable,
  request: FastifyRequest,
  confirmation: ConfirmationRequest,
  recordedNow: boolean,
): Promise<void> {
  noteConfirmation(request, confirmation.kind, recordedNow ? 'recorded' : 'replay');
  const key = keyOf(request);
  if (key !== undefined) await rememberConfirmationKey(db, confirmation.orgId, key, keyed(confirmation));
}
