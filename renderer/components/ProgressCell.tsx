import type { JobView } from '../../contract/index';
import { progressStatus } from '../format/progress-status';
import { useTranslator } from '../i18n/I18nProvider';

/**
 * One device's progress: a bar and two lines of text of fixed height below it (what it does and the
 * percent; how the image travels, the rate and the time left). Percent, rate and time left sit in
 * fixed-width columns of tabular figures, so 16 moving bars never shift a pixel.
 */
export function ProgressCell({ job, label }: { job: JobView | null; label: string }) {
  const status = progressStatus(job, useTranslator());
  const finished = status.tone === 'done' || status.tone === 'failed' || status.tone === 'cancelled';
  const spoken = status.codingText ? `${status.label} (${status.codingText})` : status.label;
  return (
    <div className={`progress progress--${status.tone}`} data-phase={job?.phase ?? 'idle'}>
      <progress
        className="progress__bar"
        max={100}
        value={status.percent ?? undefined}
        aria-label={`${label}: ${spoken}`}
        aria-valuetext={status.percentText ? `${status.percentText}, ${spoken}` : spoken}
      />
      {/* Same height either way: a finished job's result takes the room of rate and time left. */}
      {finished ? (
        <div className="progress__text progress__text--finished">
          <span className="progress__label" title={status.label}>
            {status.label}
          </span>
          <span className="progress__num progress__percent">{status.percentText}</span>
        </div>
      ) : (
        <div className="progress__text">
          <span className="progress__label" title={status.label}>
            {status.label}
          </span>
          <span className="progress__num progress__percent">{status.percentText}</span>
          <span className="progress__coding" title={status.codingDetail}>
            {status.codingText}
          </span>
          <span className="progress__num progress__rate">{status.rateText}</span>
          <span className="progress__num progress__eta">{status.timeLeftText}</span>
        </div>
      )}
    </div>
  );
}
