import type { StationLaneState } from '../../../contract/station';
import type { JobSnapshot } from '../jobs/job-state';

/** One device's lane in a shift, as the station keeps it (the views are made from it). */
export interface Lane {
  serialNumber: string;
  deviceType: string | null;
  link: string;
  state: StationLaneState;
  /** Still plugged in. */
  present: boolean;
  /** The job of this lane's latest attempt, as last reported. */
  job: JobSnapshot | null;
  /** Failed: why, and what to do. In sync: what the check said. */
  reason: string | null;
  action: string | null;
  firmwareBefore: string | null;
  /** Attempts (a resume or a retry after re-plugging counts). */
  attempts: number;
  startedAt: string;
  finishedAt: string | null;
}
