import { useState } from 'react';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { Callout, ScreenHeader } from '../components/misc';
import { StationCounts } from '../station/StationCounts';
import { StationNotes } from '../station/StationNotes';
import { StationReports } from '../station/StationReports';
import { StationSetup } from '../station/StationSetup';
import { StationTile } from '../station/StationTile';
import { useStationView } from '../station/use-station';
import '../station/station.css';

/**
 * Station mode: every device of one configuration that is plugged in is provisioned on its own
 * lane. Large tiles for each device, the shift's counts and yield, and the devices refused or
 * flagged; stopping writes the shift report and the commissioning report.
 */
export function StationScreen() {
  const { view, error, set } = useStationView();
  const [stopping, setStopping] = useState(false);
  const [stopError, setStopError] = useState<string | null>(null);

  const stop = async () => {
    setStopping(true);
    setStopError(null);
    try {
      set(await client().call('station.stop', {}));
    } catch (err) {
      setStopError(errorText(err));
    } finally {
      setStopping(false);
    }
  };

  const running = view?.running ?? false;
  return (
    <section className="screen station" aria-labelledby="screen-title">
      <ScreenHeader
        title="Station"
        note={
          running && view
            ? `Provisioning “${view.configurationName}” (${view.configurationSize} devices) on ${view.lanes} lane${view.lanes === 1 ? '' : 's'}: plug devices in.`
            : 'Provision every device of one configuration as it is plugged in.'
        }
      >
        {running ? (
          <ActionButton variant="danger" busy={stopping} onClick={() => void stop()}>
            {stopping ? 'Stopping…' : 'Stop station'}
          </ActionButton>
        ) : null}
      </ScreenHeader>
      {error ? <Callout tone="bad">{error}</Callout> : null}
      {stopError ? <Callout tone="bad">{stopError}</Callout> : null}
      {!running ? <StationSetup onStarted={set} /> : null}
      {view?.shift && (running || view.report) ? (
        <p className="station-shift" data-testid="station-shift">
          {running ? 'Parameters confirmed for this shift by ' : "The last shift's parameters were confirmed by "}
          <strong>{view.shift.operator}</strong> at {view.shift.confirmedAt.slice(11, 16)} UTC: configuration checksum <strong className="mono">{view.shift.checksumShort}</strong>.
          {running ? ' Every device is verified against them.' : ''}
        </p>
      ) : null}
      {view?.report ? <StationReports report={view.report} /> : null}
      {view && (running || view.report) ? (
        <>
          <h2 className="section-title">Shift</h2>
          <StationCounts view={view} />
          <h2 className="section-title">Devices</h2>
          {view.tiles.length === 0 ? (
            <p className="muted">{running ? 'Waiting for devices: plug one in.' : 'No device is plugged in.'}</p>
          ) : (
            <ul className="station-tiles" aria-label="Devices on the station">
              {view.tiles.map((lane) => (
                <StationTile key={lane.serialNumber} lane={lane} />
              ))}
            </ul>
          )}
          <h2 className="section-title">Refused and duplicate</h2>
          <StationNotes notes={view.notes} />
        </>
      ) : null}
    </section>
  );
}
