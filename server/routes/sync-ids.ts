import { z } from 'zod';
import { issuedSyncIdSchema } from '../../domain/issued-sync-id';
import { notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { orgOperation, type AnyOperationSpec } from '../http/operation';
import { issuedSyncIdRecord } from '../store/sync-ids';

const syncIdParams = z.object({
  orgId: z.string(),
  serialNumber: z.string().min(1).max(64),
  syncId: z.uuid({ error: 'must be a uuid' }),
});

/** Ours, beyond the interface: what a syncId's file set, for the change view before an apply. */
export const syncIdOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'devices.syncId',
    method: 'GET',
    path: '/organizations/:orgId/devices/:serialNumber/sync-ids/:syncId',
    tag: 'Configuration files',
    summary:
      'What the configuration file of this syncId set on the device (ours, not in the interface): its settings, the Wifi password only as a keyed hash. settings is null for a syncId issued before the service kept them.',
    description:
      'A workstation compares it with the next file to show, parameter by parameter, what an apply changes. 404 SYNC_ID_NOT_FOUND when the service issued no such syncId for this device.',
    params: syncIdParams,
    mutates: false,
    response: {
      kind: 'json',
      data: issuedSyncIdSchema,
      description: 'The syncId, its device and configuration, when it was issued, and the settings.',
    },
    handler: async ({ db, caller, params }) =>
      foundOr(issuedSyncIdRecord(db, caller.orgId, params.serialNumber, params.syncId), () =>
        notFound(
          'SYNC_ID_NOT_FOUND',
          `No configuration file with syncId ${params.syncId} was issued for ${params.serialNumber} in this organization.`,
          'syncId',
        ),
      ),
  }),
];
