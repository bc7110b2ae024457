import type { StationLaneState } from '../../../contract/station';
import type { LaneJob } from './lane-job';
import type { StationAdvice } from '../../../domain/station-advice';
import type { KeptApartReason } from '../../../domain/station-kept-apart';

/** One device's lane in a shift, as the station keeps it (the views are made from it). */
export interface Lane {
  serialNumber: string;
  deviceType: string | null;
  /** Which protocol it speaks (docs/vendor-devices.md); null when not told. */
  protocol: 'provisioner' | 'vendor' | null;
  link: string;
  state: StationLaneState;
  /** Still plugged in. */
  present: boolean;
  /** The job of this lane's latest attempt, as last reported: the few fields the lane reads (lane-job.ts). */
  job: LaneJob | null;
  /** Failed: why, and what to do. In sync: what the check said. */
  reason: string | null;
  action: string | null;
  /** Failed: `action` as a code, for a reader of another language. */
  advice: StationAdvice | null;
  firmwareBefore: string | null;
  /** Found in sync by the service: its job only verifies the parameters it runs (issue 26), and it ends 'in-sync'. */
  verifyOnly: boolean;
  /** Failed because it does not run the parameters confirmed for the shift (why): it must be kept apart, not put in service. */
  keptApart: KeptApartReason | null;
  /** Attempts (a resume or a retry after re-plugging counts). */
  attempts: number;
  startedAt: string;
  finishedAt: string | null;
}
