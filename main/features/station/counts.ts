import type { StationCounts } from '../../../contract/station';
import type { Lane } from './lane';

/** The shift's counts: lanes by state (each device by its last outcome) and the notes. */
export function stationCounts(lanes: Iterable<Lane>, notes: { refused: number; duplicate: number }): StationCounts {
  const counts: StationCounts = {
    done: 0,
    failed: 0,
    waiting: 0,
    working: 0,
    inSync: 0,
    refused: notes.refused,
    duplicate: notes.duplicate,
  };
  for (const lane of lanes) {
    if (lane.state === 'in-sync') counts.inSync += 1;
    else counts[lane.state] += 1;
  }
  return counts;
}

/**
 * Done out of the devices the station finished (done or failed), in percent, one decimal. Devices
 * found already in sync were not provisioned here and do not count either way.
 */
export function yieldPercent(counts: Pick<StationCounts, 'done' | 'failed'>): number | null {
  const finished = counts.done + counts.failed;
  return finished === 0 ? null : Math.round((counts.done / finished) * 1000) / 10;
}
