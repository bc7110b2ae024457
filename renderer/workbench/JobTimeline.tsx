import type { JobView } from '../../contract/index';
import { bytesText, durationText } from '../../domain/job-text';
import { jobTone, stepMark, type JobStepResult } from '../../domain/job-steps';
import { errorAdvice } from '../../domain/job-errors';
import { useQuery } from '../api/use-query';
import { toneClass } from './StepOutcome';
import './workbench.css';

const STEP_NAMES: Record<JobStepResult['step'], string> = {
  firmware: 'Firmware',
  configuration: 'Configuration',
  'read-back': 'Read-back',
  'parameter-verification': 'Parameter verification',
  confirmation: 'Confirmation',
  'function-test': 'Function test',
};

const ACTION_NAMES: Record<JobView['action'], string> = { firmware: 'Firmware', configuration: 'Configuration', both: 'Firmware and configuration' };

/**
 * A device's last jobs, newest first: each step with its start, duration, bytes, retries and
 * resume offset, the confirmation and whether the service has it, and the exact error. `version`
 * changes when a job of the device finishes, so the list is read again.
 */
export function JobTimeline({ device, version }: { device: string; version: string }) {
  const timeline = useQuery('workbench.timeline', { device }, true, version);
  const jobs = timeline.data;

  if (timeline.error) return <p className="callout callout--bad">The timeline of {device} could not be read: {timeline.error}</p>;
  if (!jobs) return <p className="muted">Reading the timeline of {device}…</p>;
  if (jobs.length === 0) return <p className="muted">No finished job on {device} yet.</p>;
  return (
    <section className="job-timeline" aria-label={`Timeline of ${device}`}>
      <h3 className="job-timeline__title">Last jobs on {device}</h3>
      <ol className="job-timeline__jobs">
        {jobs.map((job) => (
          <li key={job.jobId} className={`job-timeline__job job-timeline__job--${toneClass(jobTone(job.steps, true))}`}>
            <div className="job-timeline__head">
              <span className="strong">{ACTION_NAMES[job.action]}</span> <span className="muted small">{timeText(job.startedAt)}</span>{' '}
              <span className="muted small">{confirmationText(job)}</span>
            </div>
            <table className="table table--compact job-timeline__steps">
              <thead>
                <tr>
                  <th scope="col">Step</th>
                  <th scope="col">Result</th>
                  <th scope="col">Started</th>
                  <th scope="col">Took</th>
                  <th scope="col">Bytes</th>
                  <th scope="col">Retries</th>
                  <th scope="col">Resumed at</th>
                </tr>
              </thead>
              <tbody>
                {job.steps.map((step, i) => (
                  <tr key={i} data-step={step.step} data-status={step.status}>
                    <td>
                      {STEP_NAMES[step.step]}
                      {step.of && step.step !== step.of ? <span className="muted small"> ({step.of})</span> : null}
                    </td>
                    <td className="job-timeline__result">
                      <span aria-hidden="true">{stepMark(step.status)}</span> {step.summary}
                      {step.reason ? `: ${step.reason}` : ''}
                      {step.errorCode ? (
                        <div className="muted small">
                          {errorAdvice(step.errorCode) ?? ''} <span className="mono">({step.errorCode})</span>
                        </div>
                      ) : null}
                    </td>
                    <td className="mono small">{step.startedAt ? timeText(step.startedAt) : '—'}</td>
                    <td className="mono small">{step.startedAt && step.finishedAt ? durationText((Date.parse(step.finishedAt) - Date.parse(step.startedAt)) / 1000) : '—'}</td>
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
function confirmationText(job: JobView): string {
  const said = job.steps
    .filter((s) => s.step === 'confirmation' && (s.status === 'waiting' || (s.status === 'done' && s.summary !== 'nothing new to confirm')))
    .map((s) => `${s.of === 'firmware' ? 'Firmware' : 'Configuration'}: ${s.status === 'done' ? 'the service has its confirmation' : 'its confirmation was waiting in the outbox when the job ended'}.`);
  return said.length > 0 ? said.join(' ') : 'Nothing was confirmed to the service.';
}

function timeText(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : at.toLocaleString();
}
