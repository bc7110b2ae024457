import { useEffect, useRef, useState } from 'react';
import type { FunctionTestObservationView, FunctionTestRecordView, JobView } from '../../contract/index';
import { configurationApplied } from '../../domain/job-steps';
import { commissioningText } from '../../domain/ledger-commissioning';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { useWorkbench } from '../stores/workbench';
import './accountability.css';

type Step =
  | { kind: 'intro' }
  | { kind: 'watching' }
  | { kind: 'observed'; observation: FunctionTestObservationView }
  | { kind: 'recorded'; record: FunctionTestRecordView; observation: FunctionTestObservationView };

/** How long the panel watches for a press before the test ends as "not done: timed out". */
export const PRESS_TIMEOUT_SECONDS = 60;

function appliedJob(job: JobView): boolean {
  return (job.action === 'configuration' || job.action === 'both') && job.phase === 'done' && configurationApplied(job.steps) && job.serialNumber !== null;
}

/**
 * An apply ready for its function test: the steps go apply, read-back, parameter verification,
 * then the test (issue 26), so a job whose parameters were read back waits for a person to confirm
 * them. A job read back without a table (a core or device that gives none) is ready at once.
 */
function readyForTest(job: JobView, confirmations: Record<string, unknown>): boolean {
  return appliedJob(job) && (job.parameters == null || confirmations[job.jobId] !== undefined);
}

function reactionsText(observation: FunctionTestObservationView): string {
  const parts = observation.receivers.map((r) => (r.tripped ? `${r.serialNumber} tripped after ${r.reactionMs} ms` : `${r.serialNumber} did not trip`));
  for (const missing of observation.unreachable) parts.push(`${missing.serialNumber} not watched (${missing.reason})`);
  return parts.length > 0 ? parts.join('; ') : 'no receivers in the configuration';
}

/**
 * The function test after an apply, on the Workbench: opens by itself when a configuration was
 * applied to a device and a person confirmed its parameters (or from "Function test…"), watches the device and its receivers while the
 * technician presses the E-stop, shows what it observed (the reaction time of each receiver), and
 * records the verdict and a note in the ledger. A failed test is shown as such and kept.
 */
export function FunctionTestPanel() {
  const jobs = useWorkbench((s) => s.jobs);
  const devices = useWorkbench((s) => s.devices);
  const confirmations = useWorkbench((s) => s.parameterConfirmations);
  const [serial, setSerial] = useState<string | null>(null);
  const [step, setStep] = useState<Step>({ kind: 'intro' });
  const [verdict, setVerdict] = useState<'pass' | 'fail' | null>(null);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [chooser, setChooser] = useState(false);
  // Jobs already finished when the screen opened are history: only a new apply opens the test.
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    const done = Object.values(jobs).filter((job) => readyForTest(job, confirmations));
    if (seen.current === null) {
      seen.current = new Set(done.map((j) => j.jobId));
      return;
    }
    const fresh = done.find((j) => !seen.current!.has(j.jobId));
    for (const job of done) seen.current.add(job.jobId);
    if (fresh && serial === null) open(fresh.serialNumber!);
  }, [jobs, confirmations, serial]);

  const open = (serialNumber: string) => {
    setSerial(serialNumber);
    setStep({ kind: 'intro' });
    setVerdict(null);
    setNote('');
    setError(null);
    setChooser(false);
  };
  const close = () => setSerial(null);

  const watch = async () => {
    if (!serial) return;
    setError(null);
    setStep({ kind: 'watching' });
    try {
      const observation = await client().call('functionTest.observe', { serialNumber: serial, pressTimeoutSeconds: PRESS_TIMEOUT_SECONDS });
      // Not done (timed out, stopped): the core recorded it already, as a failure.
      if (observation.recorded) setStep({ kind: 'recorded', record: observation.recorded, observation });
      // A test that fails already can only be recorded as failed: "Yes" is off, the technician says "No".
      else setStep({ kind: 'observed', observation });
    } catch (err) {
      setError(errorText(err));
      setStep({ kind: 'intro' });
    }
  };

  const stop = async () => {
    if (!serial) return;
    try {
      await client().call('functionTest.stop', { serialNumber: serial });
    } catch (err) {
      setError(errorText(err));
    }
  };

  const record = async (observation: FunctionTestObservationView) => {
    if (!verdict) return;
    setError(null);
    try {
      const recorded = await client().call('functionTest.record', { observationId: observation.observationId, technician: verdict, note });
      setStep({ kind: 'recorded', record: recorded, observation });
    } catch (err) {
      setError(errorText(err));
    }
  };

  const serials = devices.flatMap((d) => (d.serialNumber ? [d.serialNumber] : []));
  if (serial === null) {
    return (
      <div className="function-test-launch">
        {chooser ? (
          <span className="function-test-launch__choose" role="group" aria-label="Choose the device to test">
            Test the safety function of{' '}
            {serials.map((s) => (
              <button key={s} type="button" className="button button--quiet" onClick={() => open(s)}>
                {s}
              </button>
            ))}
            <button type="button" className="button button--link" onClick={() => setChooser(false)}>
              Never mind
            </button>
          </span>
        ) : (
          <button type="button" className="button button--quiet" disabled={serials.length === 0} onClick={() => setChooser(true)}>
            Function test…
          </button>
        )}
      </div>
    );
  }

  return (
    <section className="function-test" role="dialog" aria-modal="false" aria-labelledby="function-test-title">
      <h2 id="function-test-title">Function test of {serial}</h2>
      {step.kind === 'intro' || step.kind === 'watching' ? (
        <>
          <p>
            Test the safety function now that the configuration is applied: when Provisioner watches, press the E-stop on <strong>{serial}</strong> and check that
            every receiver of its configuration stops the machine. Provisioner records the reaction time it sees.
          </p>
          {step.kind === 'watching' ? (
            <>
              <p className="function-test__live" role="status">
                Watching {serial} and its receivers: <strong>press the E-stop now.</strong>
              </p>
              <p className="muted small">With no press within {PRESS_TIMEOUT_SECONDS} s the test ends as not done (timed out); Stop ends it now. Either is recorded, and the device stays not commissioned.</p>
              <div className="function-test__actions">
                <button type="button" className="button button--secondary" onClick={() => void stop()}>
                  Stop
                </button>
              </div>
            </>
          ) : (
            <div className="function-test__actions">
              <ActionButton variant="primary" capability="files.download" onClick={() => void watch()}>
                Start watching
              </ActionButton>
              <button type="button" className="button button--quiet" onClick={close}>
                Not now
              </button>
            </div>
          )}
        </>
      ) : null}
      {step.kind === 'observed' ? (
        <>
          <p role="status" className={step.observation.failsBecause.length > 0 ? 'function-test__bad' : 'function-test__good'}>
            {step.observation.pressed ? `Press seen. ${reactionsText(step.observation)}.` : 'No press of the E-stop was seen.'}
          </p>
          {step.observation.failsBecause.length > 0 ? <p className="function-test__bad">This test fails: {step.observation.failsBecause.join('; ')}.</p> : null}
          <fieldset className="function-test__verdict">
            <legend>Did the machine stop safely (every receiver's output off)?</legend>
            <label>
              <input type="radio" name="function-test-verdict" checked={verdict === 'pass'} disabled={step.observation.failsBecause.length > 0} onChange={() => setVerdict('pass')} /> Yes, it stopped safely
            </label>
            <label>
              <input type="radio" name="function-test-verdict" checked={verdict === 'fail'} onChange={() => setVerdict('fail')} /> No
            </label>
          </fieldset>
          <label className="function-test__note">
            Note
            <textarea value={note} maxLength={2000} rows={2} onChange={(e) => setNote(e.target.value)} />
          </label>
          <div className="function-test__actions">
            <ActionButton variant="primary" capability="files.download" disabledReason={verdict ? null : 'Say whether the machine stopped safely first.'} onClick={() => void record(step.observation)}>
              Record result
            </ActionButton>
          </div>
        </>
      ) : null}
      {step.kind === 'recorded' ? (
        <>
          <p role="status" className={step.record.result === 'pass' ? 'function-test__good' : 'function-test__bad'} data-testid="function-test-result">
            <strong>{step.observation.notDone ? 'NOT DONE' : step.record.result === 'pass' ? 'PASSED' : 'FAILED'}</strong>:{' '}
            {step.observation.notDone ? `${step.observation.notDone.replace(/^not done: /, '')}, no press of the E-stop was seen` : step.observation.pressed ? reactionsText(step.observation) : 'no press seen'}.{' '}
            {serial} is {commissioningText(step.record.commissioning)}.
          </p>
          {step.record.reasons.length > 0 ? <p className="function-test__bad">Why: {step.record.reasons.join('; ')}.</p> : null}
          <p className="muted small">
            Recorded in the ledger as entry {step.record.ledgerSeq} (<span className="mono">{step.record.ledgerHash.slice(0, 16)}…</span>).
          </p>
          <div className="function-test__actions">
            <button type="button" className="button button--quiet" onClick={close}>
              Close
            </button>
          </div>
        </>
      ) : null}
      {error ? (
        <p className="function-test__bad" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
