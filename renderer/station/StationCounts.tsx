import { useTranslation } from 'react-i18next';
import type { StationView } from '../../contract/index';
import { useLocaleFormat } from '../i18n/I18nProvider';

/** The shift's counts and yield, in large figures. */
export function StationCounts({ view }: { view: StationView }) {
  const { t } = useTranslation();
  const format = useLocaleFormat();
  const { counts } = view;
  // [test id, label, figure, tone]: the test ids stay English whatever the language.
  const items: Array<[string, string, string, string]> = [
    ['done', t('station:count.done'), format.number(counts.done), 'done'],
    ['failed', t('station:count.failed'), format.number(counts.failed), 'failed'],
    ['working', t('station:count.working'), format.number(counts.working), 'waiting'],
    ['waiting', t('station:count.waiting'), format.number(counts.waiting), 'waiting'],
    ['already-in-sync', t('station:count.inSync'), format.number(counts.inSync), 'neutral'],
    ['refused', t('station:count.refused'), format.number(counts.refused), 'neutral'],
    ['duplicate', t('station:count.duplicate'), format.number(counts.duplicate), 'neutral'],
    [
      'yield',
      t('station:count.yield'),
      view.yieldPercent === null ? '—' : format.percent(view.yieldPercent / 100),
      'neutral',
    ],
  ];
  return (
    <>
      {/* Said once when a device finishes, not at every progress step. */}
      <p className="visually-hidden" aria-live="polite">
        {t('station:count.spoken', { done: counts.done, failed: counts.failed })}
      </p>
      <dl className="station-counts" aria-label={t('station:count.label')}>
        {items.map(([id, label, value, tone]) => (
          <div key={id} className={`station-counts__item station-counts__item--${tone}`}>
            <dt>{label}</dt>
            <dd data-testid={`station-count-${id}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
