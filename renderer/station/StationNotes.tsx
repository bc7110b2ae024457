import type { StationNoteView } from '../../contract/index';

/** Devices the station did not work on: refused (not in the configuration) and duplicate serial numbers. */
export function StationNotes({ notes }: { notes: readonly StationNoteView[] }) {
  if (notes.length === 0) return <p className="muted">No device refused or flagged in this shift.</p>;
  return (
    <ul className="station-notes" data-testid="station-notes">
      {notes.map((note) => (
        <li key={`${note.at}-${note.link}-${note.kind}`} className={`station-note station-note--${note.kind}`}>
          <strong>{note.kind === 'refused' ? 'Refused' : 'Duplicate'}</strong> <span className="mono">{note.serialNumber}</span> on <span className="mono">{note.link}</span>: {note.message}
        </li>
      ))}
    </ul>
  );
}
