import { phaseText, rateText } from '../../../domain/job-text';
import { transferPercent } from '../../engine/jobs/progress-text';
import type { Lane } from './lane';

/** What a Station tile shows: a headline readable from two metres, why, and what to do. */
export interface TileText {
  headline: string;
  detail: string | null;
  action: string | null;
}

/**
 * A lane in the tile's words, the one place they are made, so the screen and the CLI say the same.
 * A failed lane's detail is its job's per-step outcomes ("firmware 1.1.0 installed ✓ ·
 * configuration not applied: reason", made by the station from the job's steps), so a firmware
 * that did install is never called failed with the rest.
 */
export function tileText(lane: Lane): TileText {
  const job = lane.job;
  switch (lane.state) {
    case 'waiting':
      return { headline: 'Waiting for a lane', detail: null, action: null };
    case 'in-sync':
      return { headline: 'Already in sync', detail: lane.reason, action: 'Left alone: unplug it' };
    case 'done':
      return { headline: 'Done, unplug me', detail: job?.resultMessage ?? null, action: 'Unplug it' };
    case 'failed':
      return {
        headline: lane.keptApart ? 'Failed: parameters differ, keep it apart' : 'Failed',
        detail: lane.reason,
        action: lane.action,
      };
    case 'working': {
      if (!job) return { headline: 'Starting', detail: null, action: null };
      const percent = job.phase === 'uploading' || job.phase === 'downloading' ? transferPercent(job) : null;
      const words = phaseText(job.phase, job.step, { version: job.firmwareVersion });
      return {
        headline: percent === null ? words : `${words} ${Math.floor(percent)}%`,
        detail: lane.present ? uploadText(lane) : 'Unplugged: plug it in again to continue',
        action: null,
      };
    }
  }
}

/** How an upload goes, as the workbench row and the CLI's line say it: "compressed, 1.6× faster · 17.2 kB/s". */
function uploadText(lane: Lane): string | null {
  const job = lane.job;
  if (job?.phase !== 'uploading') return null;
  const parts = [job.transferCoding ?? '', rateText(job.rateBytesPerSecond)].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : null;
}
