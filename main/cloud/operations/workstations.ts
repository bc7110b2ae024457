import { signedWorkstationKeyListSchema } from '../../../domain/workstation-key-list';
import {
  enrolledWorkstationKeySchema,
  enrolmentGrantSchema,
  workstationEnrolmentResultSchema,
  type WorkstationEnrolment,
} from '../../../domain/workstation-keys';
import type { CallOptions, Transport } from '../http';

/** Workstation keys (ours): enrol this workstation's ledger key, revoke one (Admin), read the signed list. */
export function workstationOperations(t: Transport) {
  return {
    /** POST workstations/keys: enrolling the key the workstation has already is a no-op. */
    enrol: (enrolment: WorkstationEnrolment, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/workstations/keys', body: enrolment, safeToRepeat: true },
        workstationEnrolmentResultSchema,
        call,
      ),
    /** POST workstations/grants: a one-time enrolment grant for a work package, expiring with it. */
    grant: (packageId: string, expiresAt: string, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/workstations/grants', body: { packageId, expiresAt }, safeToRepeat: false },
        enrolmentGrantSchema,
        call,
      ),
    /** POST workstations/{workstation}/revoke. */
    revoke: (workstation: string, reason: string, call?: CallOptions) =>
      t.json(
        {
          method: 'POST',
          path: `/workstations/${encodeURIComponent(workstation)}/revoke`,
          body: { reason },
          safeToRepeat: false,
        },
        enrolledWorkstationKeySchema,
        call,
      ),
    /** GET workstations/keys: every enrolled key, signed by the organization's key. */
    keyList: (call?: CallOptions) =>
      t.json({ method: 'GET', path: '/workstations/keys', safeToRepeat: true }, signedWorkstationKeyListSchema, call),
  };
}
