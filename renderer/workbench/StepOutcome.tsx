import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { JobView } from '../../contract/index';
import { headlineSteps, jobTone, stepMark, stepsLine, type JobStepResult, type JobTone } from '../../domain/job-steps';
import { errorAdvice } from '../../domain/job-errors';
import { ProgressCell } from '../components/ProgressCell';
import { cancelledSentence } from '../format/cancelled-text';
import { useTranslator } from '../i18n/I18nProvider';
import { stepSummaryText } from './step-words';
import './workbench.css';

/** The Badge/Callout tone a job's worst step gives its row. */
export function toneClass(tone: JobTone): 'ok' | 'warn' | 'bad' | 'info' {
  return tone === 'ok' ? 'ok' : tone === 'attention' ? 'warn' : tone === 'failed' ? 'bad' : 'info';
}

/** A job's tone in words (never colour alone). */
function toneWords(t: TFunction, tone: JobTone): string {
  return t('workbench:tone', { tone });
}

/**
 * A finished job on a device row. When every step did its work, the finished bar as it was; else
 * one line per step the technician asked for, each with its own
 * mark, so an installed firmware reads installed even when the configuration after it was not
 * applied. The row's colour follows the worst step. Nothing is cut: the lines wrap, the whole
 * text is the tooltip and the accessible name, and a step's reason is given in full with what
 * to do (docs/errors.md) and the code after it.
 */
export function StepOutcome({ job, label }: { job: JobView; label: string }) {
  const { t } = useTranslation();
  const words = useTranslator();
  const tone = jobTone(job.steps, true);
  const line = stepsLine(job.steps) || job.resultMessage || toneWords(t, tone);
  const name = t('workbench:outcomeLabel', { name: label, tone: toneWords(t, tone), line });
  const cancelled = cancelledSentence(job, words);
  if (cancelled) {
    // The technician cancelled: one sentence of where it stopped and what Retry does; the step
    // line (with its code) stays the tooltip.
    return (
      <div className="progress" data-phase={job.phase}>
        <div
          className="step-outcome step-outcome--info"
          data-tone="cancelled"
          title={line}
          aria-label={t('workbench:cancelledLabel', { name: label, sentence: cancelled })}
          role="group"
        >
          <span className="step-outcome__summary">{cancelled}</span>
        </div>
      </div>
    );
  }
  if (tone === 'ok') {
    // Every step did its work: the finished bar keeps the row's height (no jump at the end of a
    // batch); the whole line is the tooltip and the accessible name.
    return (
      <div className="step-outcome step-outcome--compact" data-tone={tone} title={line} aria-label={name} role="group">
        <ProgressCell job={job} label={label} />
      </div>
    );
  }
  // Something to read: each step on its own line, in full (the row grows rather than cut it).
  return (
    <div className="progress" data-phase={job.phase}>
      <div
        className={`step-outcome step-outcome--${toneClass(tone)}`}
        data-tone={tone}
        title={line}
        aria-label={name}
        role="group"
      >
        <ul className="step-outcome__steps">
          {headlineSteps(job.steps).map((step, i) => (
            <StepLine key={`${step.step}-${step.of ?? ''}-${i}`} step={step} />
          ))}
        </ul>
      </div>
    </div>
  );
}

function StepLine({ step }: { step: JobStepResult }) {
  const words = useTranslator();
  const advice = step.errorCode ? errorAdvice(step.errorCode, words) : null;
  return (
    <li
      className={`step-outcome__step step-outcome__step--${step.status}`}
      data-step={step.step}
      data-status={step.status}
    >
      <span className="step-outcome__mark" aria-hidden="true">
        {stepMark(step.status)}
      </span>{' '}
      <span className="step-outcome__summary">{stepSummaryText(step.summary, words)}</span>
      {step.reason ? <span className="step-outcome__reason">: {step.reason}</span> : null}
      {advice || step.errorCode ? (
        <span className="step-outcome__advice muted small">
          {advice ? `${advice} ` : ''}
          {step.errorCode ? <span className="mono">({step.errorCode})</span> : null}
        </span>
      ) : null}
    </li>
  );
}
