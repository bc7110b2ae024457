import type { Violation } from '../../domain/violations';

/**
 * Our own rules a configuration breaks (severity 'warning'): the interface accepts what they find,
 * so they stop no save and hold back no file, but the technician reads them before applying.
 */
export function WarningList({ title, warnings }: { title: string; warnings: readonly Violation[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="callout callout--warn" data-testid="designer-warnings">
      <p className="callout__title">{title}</p>
      <ul className="callout__list">
        {warnings.map((w, i) => (
          <li key={`${w.code}-${w.field}-${i}`}>
            {w.message} <span className="muted mono">({w.code})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
