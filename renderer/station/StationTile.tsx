import type { StationLaneView } from '../../contract/index';

const TONE: Record<StationLaneView['state'], string> = { working: 'working', waiting: 'waiting', done: 'done', failed: 'failed', 'in-sync': 'done' };

/**
 * One device's lane, readable from two metres: the serial number, the step and its progress, then
 * green "Done, unplug me" or red with why and what to do. Colour is never the only signal: the
 * headline says it in words. Focusable, so a keyboard user can walk the tiles and hear each.
 */
export function StationTile({ lane }: { lane: StationLaneView }) {
  const titleId = `tile-${lane.serialNumber}`;
  return (
    <li className={`station-tile station-tile--${TONE[lane.state]}`} aria-labelledby={titleId} tabIndex={0} data-testid="station-tile" data-state={lane.state}>
      <p className="station-tile__serial mono" id={titleId}>
        {lane.serialNumber}
        {lane.deviceType ? <span className="station-tile__type"> {lane.deviceType}</span> : null}
        {lane.protocol === 'vendor' ? <span className="station-tile__type"> · FORT protocol</span> : null}
      </p>
      <p className="station-tile__headline">{lane.headline}</p>
      {lane.percent !== null ? (
        <progress className="station-tile__progress" max={100} value={Math.floor(lane.percent)} aria-label={`${lane.serialNumber} ${lane.step ?? ''} progress`}>
          {Math.floor(lane.percent)}%
        </progress>
      ) : null}
      {lane.detail ? <p className="station-tile__detail">{lane.detail}</p> : null}
      {lane.action ? <p className="station-tile__action">{lane.action}</p> : null}
      <p className="station-tile__link mono">{lane.present ? lane.link : `${lane.link} (unplugged)`}</p>
    </li>
  );
}
