import type { StationView } from '../../contract/index';

/** The shift's counts and yield, in large figures. */
export function StationCounts({ view }: { view: StationView }) {
  const { counts } = view;
  const items: Array<[string, string, string]> = [
    ['Done', String(counts.done), 'done'],
    ['Failed', String(counts.failed), 'failed'],
    ['Working', String(counts.working), 'waiting'],
    ['Waiting', String(counts.waiting), 'waiting'],
    ['Already in sync', String(counts.inSync), 'neutral'],
    ['Refused', String(counts.refused), 'neutral'],
    ['Duplicate', String(counts.duplicate), 'neutral'],
    ['Yield', view.yieldPercent === null ? '—' : `${view.yieldPercent}%`, 'neutral'],
  ];
  return (
    <>
      {/* Said once when a device finishes, not at every progress step. */}
      <p className="visually-hidden" aria-live="polite">{`${counts.done} done, ${counts.failed} failed`}</p>
      <dl className="station-counts" aria-label="Shift counts">
        {items.map(([label, value, tone]) => (
          <div key={label} className={`station-counts__item station-counts__item--${tone}`}>
            <dt>{label}</dt>
            <dd data-testid={`station-count-${label.toLowerCase().replace(/ /g, '-')}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
