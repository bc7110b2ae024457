import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  configurationConfirmationSchema,
  firmwareConfirmationSchema,
  validateFirmwareConfirmation,
  type ConfirmationReason,
} from '../../domain';
import { checkApplyTime } from '../../domain/apply-time';
import type { Queryable } from '../db/database';
import { badRequest } from '../http/errors';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { serialParams } from '../http/schemas';
import { invalid } from '../http/validation';
import { recordConfirmationOnce, stateAlreadyRecorded } from '../store/confirmations';
import { answeredBefore, rememberAnswer, type ConfirmationRequest } from './confirmation-idempotency';
import { recordConfigurationApply, recordFirmwareApply } from '../store/devices';
import { registeredDevice } from './registered-device';
import { findIssuedSyncId } from '../store/sync-ids';

/** Times are compared as instants: '...+02:00' and the same instant in 'Z' are one confirmation. */
const instant = (text: string) => new Date(text).toISOString();

/** Our extension's fields, kept with the apply only when the client sent them. */
function observedOf(body: {
  observedAt?: string;
  workstation?: string;
  reason?: ConfirmationReason;
  ledgerHash?: string;
  ledgerSeq?: number;
}) {
  return {
    ...(body.ledgerHash !== undefined ? { ledgerHash: body.ledgerHash } : {}),
    ...(body.ledgerSeq !== undefined ? { ledgerSeq: body.ledgerSeq } : {}),
    ...(body.observedAt !== undefined ? { observedAt: instant(body.observedAt) } : {}),
    ...(body.workstation !== undefined ? { workstation: body.workstation } : {}),
    ...(body.reason !== undefined ? { reason: body.reason } : {}),
  };
}

/** An observation of a success: the state the device is then known to be in. */
type ObservedState = { kind: 'firmware'; firmwareVersion: string } | { kind: 'configuration'; syncId: string };

/**
 * Records a firmware or configuration confirmation, the same way for both: a request answered
 * before (its Idempotency-Key) and an observation of the state the service already records change
 * nothing; the device's record follows only when the confirmation is stored for the first time.
 */
async function recordOnce(
  db: Queryable,
  request: FastifyRequest,
  confirmation: ConfirmationRequest & { payload: { success: boolean } },
  observed: ObservedState | null,
  updateDevice: () => Promise<unknown>,
): Promise<true> {
  if (await answeredBefore(db, request, confirmation)) return true;
  if (
    observed &&
    (await stateAlreadyRecorded(db, {
      orgId: confirmation.orgId,
      serialNumber: confirmation.serialNumber,
      ...observed,
    }))
  )
    return true;
  const first = await recordConfirmationOnce(db, {
    ...confirmation,
    outcome: confirmation.payload.success ? 'deployed' : 'failed',
  });
  if (first) await updateDevice();
  await rememberAnswer(db, request, confirmation, first);
  return true;
}

export const confirmationOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'devices.confirmFirmware',
    method: 'POST',
    path: '/organizations/:orgId/devices/:serialNumber/confirm-apply-firmware',
    tag: 'Confirmations',
    summary: "Records that a firmware file was applied (or failed); a success sets the device's firmware version.",
    description:
      'Idempotent: the same confirmation sent again (an outbox replay) answers true and changes nothing; a request repeated with the same Idempotency-Key header (e.g. a UUID per confirmation) is answered as the first one and recorded once (the same key with another confirmation: 422 IDEMPOTENCY_KEY_REUSED), and so does an observation (reason observation) of the version the service already records. A confirmation older (by applyTimeStamp) than the one recorded is kept in the history but does not replace it.',
    params: serialParams,
    body: firmwareConfirmationSchema,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when recorded (or already recorded).' },
    handler: async ({ db, caller, params, body, request }) => {
      const violations = [...validateFirmwareConfirmation(body), ...checkApplyTime(body.applyTimeStamp, new Date())];
      if (violations.length > 0) throw invalid(violations);
      await registeredDevice(db, caller.orgId, params.serialNumber);
      const apply = {
        success: body.firmwareFileSuccessfullyDeployed,
        firmwareVersion: body.firmwareVersion ?? null,
        error: body.error ?? null,
        appliedAt: instant(body.applyTimeStamp),
        ...observedOf(body),
      };
      const observed =
        body.reason === 'observation' && apply.success && apply.firmwareVersion !== null
          ? { kind: 'firmware' as const, firmwareVersion: apply.firmwareVersion }
          : null;
      return recordOnce(
        db,
        request,
        { orgId: caller.orgId, serialNumber: params.serialNumber, kind: 'firmware', payload: apply },
        observed,
        () => recordFirmwareApply(db, params.serialNumber, apply),
      );
    },
  }),
  orgOperation({
    id: 'devices.confirmConfiguration',
    method: 'POST',
    path: '/organizations/:orgId/devices/:serialNumber/confirm-apply-configuration',
    tag: 'Confirmations',
    summary:
      "Records that a configuration file was applied (or failed). The syncId must be one this service issued for this device; the device's deploy status follows (Deployed, Failed, Outdated).",
    description:
      'Idempotent like confirm-apply-firmware; an observation of the syncId the service already records adds nothing.',
    params: serialParams,
    body: configurationConfirmationSchema,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when recorded (or already recorded).' },
    handler: async ({ db, caller, params, body, request }) => {
      const outOfWindow = checkApplyTime(body.applyTimeStamp, new Date());
      if (outOfWindow.length > 0) throw invalid(outOfWindow);
      await registeredDevice(db, caller.orgId, params.serialNumber);
      if (!(await findIssuedSyncId(db, caller.orgId, params.serialNumber, body.syncId))) {
        throw badRequest(
          'SYNC_ID_NOT_ISSUED',
          `syncId ${body.syncId} was not issued for device ${params.serialNumber}: confirm with the syncId of the file downloaded for this device (X-Config-File-Sync-Id).`,
          'syncId',
        );
      }
      const apply = {
        success: body.configurationFileSuccessfullyDeployed,
        syncId: body.syncId.toLowerCase(),
        error: body.error ?? null,
        appliedAt: instant(body.applyTimeStamp),
        ...observedOf(body),
      };
      const observed =
        body.reason === 'observation' && apply.success
          ? { kind: 'configuration' as const, syncId: apply.syncId }
          : null;
      return recordOnce(
        db,
        request,
        { orgId: caller.orgId, serialNumber: params.serialNumber, kind: 'configuration', payload: apply },
        observed,
        () => recordConfigurationApply(db, params.serialNumber, apply),
      );
    },
  }),
];
