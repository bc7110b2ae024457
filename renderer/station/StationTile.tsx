import { useTranslation } from 'react-i18next';
import type { StationLaneView } from '../../contract/index';
import { useTranslator } from '../i18n/I18nProvider';
import { tileWords } from './tile-words';

const TONE: Record<StationLaneView['state'], string> = {
  working: 'working',
  waiting: 'waiting',
  done: 'done',
  failed: 'failed',
  'in-sync': 'done',
};

/**
 * One device's lane, readable from two metres: the serial number, the step and its progress, then
 * green "Done, unplug me" or red with why and what to do. Colour is never the only signal: the
 * headline says it in words. Focusable, so a keyboard user can walk the tiles and hear each.
 */
export function StationTile({ lane }: { lane: StationLaneView }) {
  const { t } = useTranslation();
  const said = tileWords(lane, useTranslator());
  const titleId = `tile-${lane.serialNumber}`;
  return (
    <li
      className={`station-tile station-tile--${TONE[lane.state]}`}
      aria-labelledby={titleId}
      tabIndex={0}
      data-testid="station-tile"
      data-state={lane.state}
    >
      <p className="station-tile__serial mono" id={titleId}>
        <span translate="no">{lane.serialNumber}</span>
        {lane.deviceType ? (
          <span className="station-tile__type" translate="no">
            {' '}
            {lane.deviceType}
          </span>
        ) : null}
        {lane.protocol === 'vendor' ? (
          <span className="station-tile__type"> · {t('workbench:protocol.vendor')}</span>
        ) : null}
      </p>
      <p className="station-tile__headline">{said.headline}</p>
      {lane.percent !== null ? (
        <progress
          className="station-tile__progress"
          max={100}
          value={Math.floor(lane.percent)}
          aria-label={t('station:tile.progressLabel', { serial: lane.serialNumber })}
        >
          {Math.floor(lane.percent)}%
        </progress>
      ) : null}
      {said.detail ? <p className="station-tile__detail">{said.detail}</p> : null}
      {said.action ? <p className="station-tile__action">{said.action}</p> : null}
      {lane.present ? (
        <p className="station-tile__link mono" translate="no">
          {lane.link}
        </p>
      ) : (
        <p className="station-tile__link mono">{t('station:tile.linkUnplugged', { link: lane.link })}</p>
      )}
    </li>
  );
}
