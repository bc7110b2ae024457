import { useTranslation } from 'react-i18next';
import type { StationNoteView } from '../../contract/index';
import { stationNoteText } from '../../domain/station-note';
import { useTranslator } from '../i18n/I18nProvider';

/** Devices the station did not work on: refused (not in the configuration) and duplicate serial numbers. */
export function StationNotes({ notes }: { notes: readonly StationNoteView[] }) {
  const { t } = useTranslation();
  const words = useTranslator();
  if (notes.length === 0) return <p className="muted">{t('station:notes.none')}</p>;
  return (
    <ul className="station-notes" data-testid="station-notes">
      {notes.map((note) => (
        <li key={`${note.at}-${note.link}-${note.kind}`} className={`station-note station-note--${note.kind}`}>
          <strong>{note.kind === 'refused' ? t('station:count.refused') : t('station:count.duplicate')}</strong>{' '}
          <span className="mono" translate="no">
            {note.serialNumber}
          </span>{' '}
          {t('station:notes.on', { link: note.link })} {note.why ? stationNoteText(note.why, words) : note.message}
        </li>
      ))}
    </ul>
  );
}
