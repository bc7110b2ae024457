import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { JobView } from '../../contract/index';
import { bytesText, durationText } from '../../domain/job-text';
import { jobTone, stepMark, stepName } from '../../domain/job-steps';
import { errorAdvice } from '../../domain/job-errors';
import { useQuery } from '../api/use-query';
import { actionText } from '../format/progress-status';
import { useLocaleFormat, useTranslator } from '../i18n/I18nProvider';
import { toneClass } from './StepOutcome';
import { stepSummaryText } from './step-words';
import './workbench.css';

/**
 * A device's last jobs, newest first: each step with its start, duration, bytes, retries and
 * resume offset, the confirmation and whether the service has it, and the exact error. `version`
 * changes when a job of the device finishes, so the list is read again.
 */
export function JobTimeline({ device, version }: { device: string; version: string }) {
  const timeline = useQuery('workbench.timeline', { device }, true, version);
  const jobs = timeline.data;
  const { t } = useTranslation();
  const words = useTranslator();
  const format = useLocaleFormat();
  const timeText = (iso: string) => (Number.isNaN(Date.parse(iso)) ? iso : format.dateTime(iso));

  if (timeline.error)
    return (
      <p className="callout callout--bad">
        {t('workbench:timeline.unreadable', { serial: device, error: timeline.error })}
      </p>
    );
  if (!jobs) return <p className="muted">{t('workbench:timeline.reading', { serial: device })}</p>;
  if (jobs.length === 0) return <p className="muted">{t('workbench:timeline.none', { serial: device })}</p>;
  return (
    <section className="job-timeline" aria-label={t('workbench:timelineLabel', { name: device })}>
      <h3 className="job-timeline__title">{t('workbench:timeline.title', { serial: device })}</h3>
      <ol className="job-timeline__jobs">
        {jobs.map((job) => (
          <li key={job.jobId} className={`job-timeline__job job-timeline__job--${toneClass(jobTone(job.steps, true))}`}>
            <div className="job-timeline__head">
              <span className="strong">{actionText(job.action, words)}</span>{' '}
              <span className="muted small" translate="no">
                {timeText(job.startedAt)}
              </span>{' '}
              <span className="muted small">{confirmationText(t, job)}</span>
            </div>
            <table className="table table--compact job-timeline__steps">
              <thead>
                <tr>
                  <th scope="col">{t('workbench:timeline.step')}</th>
                  <th scope="col">{t('workbench:timeline.result')}</th>
                  <th scope="col">{t('workbench:timeline.started')}</th>
                  <th scope="col">{t('workbench:timeline.took')}</th>
                  <th scope="col">{t('workbench:timeline.bytes')}</th>
                  <th scope="col">{t('workbench:timeline.retries')}</th>
                  <th scope="col">{t('workbench:timeline.resumedAt')}</th>
                </tr>
              </thead>
              <tbody>
                {job.steps.map((step, i) => (
                  <tr key={i} data-step={step.step} data-status={step.status}>
                    <td>{stepName(step, words)}</td>
                    <td className="job-timeline__result">
                      <span aria-hidden="true">{stepMark(step.status)}</span> {stepSummaryText(step.summary, words)}
                      {step.reason ? `: ${step.reason}` : ''}
                      {step.errorCode ? (
                        <div className="muted small">
                          {errorAdvice(step.errorCode, words) ?? ''} <span className="mono">({step.errorCode})</span>
                        </div>
                      ) : null}
                    </td>
                    <td className="mono small" translate="no">
                      {step.startedAt ? timeText(step.startedAt) : '—'}
                    </td>
                    <td className="mono small">
                      {step.startedAt && step.finishedAt
                        ? durationText((Date.parse(step.finishedAt) - Date.parse(step.startedAt)) / 1000)
                        : '—'}
                    </td>
                    <td className="mono small">{step.bytes === null ? '—' : bytesText(step.bytes)}</td>
                    <td className="mono small">{step.retries}</td>
                    <td className="mono small">{step.resumedFrom ? bytesText(step.resumedFrom) : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** Whether the service has each step's confirmation (as the job ended; the outbox sends a waiting one later). */
function confirmationText(t: TFunction, job: JobView): string {
  const said = job.steps
    .filter(
      (s) =>
        s.step === 'confirmation' &&
        (s.status === 'waiting' || (s.status === 'done' && s.summary !== 'nothing new to confirm')),
    )
    .map((s) =>
      t('workbench:timeline.confirmation', {
        of: s.of === 'firmware' ? 'firmware' : 'configuration',
        status: s.status === 'done' ? 'done' : 'waiting',
      }),
    );
  return said.length > 0 ? said.join(' ') : t('workbench:timeline.nothingConfirmed');
}
