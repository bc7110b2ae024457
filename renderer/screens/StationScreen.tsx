import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { Callout, ScreenHeader } from '../components/misc';
import { StationCounts } from '../station/StationCounts';
import { StationNotes } from '../station/StationNotes';
import { StationReports } from '../station/StationReports';
import { StationSetup } from '../station/StationSetup';
import { StationTile } from '../station/StationTile';
import { useStationView } from '../station/use-station';
import { useLocaleFormat } from '../i18n/I18nProvider';
import '../station/station.css';

/**
 * Station mode: every device of one configuration that is plugged in is provisioned on its own
 * lane. Large tiles for each device, the shift's counts and yield, and the devices refused or
 * flagged; stopping writes the shift report and the commissioning report.
 */
export function StationScreen() {
  const { t } = useTranslation();
  const format = useLocaleFormat();
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
        title={t('station:title')}
        note={
          running && view
            ? t('station:note.running', {
                name: view.configurationName ?? '',
                devices: view.configurationSize,
                lanes: view.lanes,
              })
            : t('station:note.idle')
        }
      >
        {running ? (
          <ActionButton variant="danger" busy={stopping} onClick={() => void stop()}>
            {stopping ? t('station:stopping') : t('station:stop')}
          </ActionButton>
        ) : null}
      </ScreenHeader>
      {error ? <Callout tone="bad">{error}</Callout> : null}
      {stopError ? <Callout tone="bad">{stopError}</Callout> : null}
      {!running ? <StationSetup onStarted={set} /> : null}
      {view?.shift && (running || view.report) ? (
        <p className="station-shift" data-testid="station-shift">
          {t('station:shift.confirmed', {
            running: running ? 'yes' : 'no',
            operator: view.shift.operator,
            time: format.time(view.shift.confirmedAt),
            checksum: view.shift.checksumShort,
          })}
        </p>
      ) : null}
      {view?.report ? <StationReports report={view.report} /> : null}
      {view && (running || view.report) ? (
        <>
          <h2 className="section-title">{t('station:section.shift')}</h2>
          <StationCounts view={view} />
          <h2 className="section-title">{t('station:section.devices')}</h2>
          {view.tiles.length === 0 ? (
            <p className="muted">{running ? t('station:waitingForDevices') : t('station:noDevice')}</p>
          ) : (
            <ul className="station-tiles" aria-label={t('station:tilesLabel')}>
              {view.tiles.map((lane) => (
                <StationTile key={lane.serialNumber} lane={lane} />
              ))}
            </ul>
          )}
          <h2 className="section-title">{t('station:section.notes')}</h2>
          <StationNotes notes={view.notes} />
        </>
      ) : null}
    </section>
  );
}
