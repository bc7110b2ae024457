import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FunctionTestObservationView, FunctionTestRecordView, JobView } from '../../contract/index';
import { functionTestReasonsText, notDoneHowText, type FunctionTestFailReason } from '../../domain/function-test-words';
import { configurationApplied } from '../../domain/job-steps';
import type { CommissioningState, CommissioningStep } from '../../domain/ledger-commissioning';
import { client, errorText } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { listText, type Words } from '../format/words';
import { useTranslator } from '../i18n/I18nProvider';
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
  return (
    (job.action === 'configuration' || job.action === 'both') &&
    job.phase === 'done' &&
    configurationApplied(job.steps) &&
    job.serialNumber !== null
  );
}

/**
 * An apply ready for its function test: the steps go apply, read-back, parameter verification,
 * then the test (issue 26), so a job whose parameters were read back waits for a person to confirm
 * them. A job read back without a table (a core or device that gives none) is ready at once.
 */
function readyForTest(job: JobView, confirmations: Record<string, unknown>): boolean {
  return appliedJob(job) && (job.parameters == null || confirmations[job.jobId] !== undefined);
}

function reactionsText(words: Words, observation: FunctionTestObservationView): string {
  const parts = observation.receivers.map((r) =>
    r.tripped
      ? words.t('workbench:functionTest.tripped', { serial: r.serialNumber, ms: r.reactionMs ?? 0 })
      : words.t('workbench:functionTest.notTripped', { serial: r.serialNumber }),
  );
  for (const missing of observation.unreachable)
    parts.push(words.t('workbench:functionTest.notWatched', { serial: missing.serialNumber, reason: missing.reason }));
  return parts.length > 0 ? parts.join('; ') : words.t('workbench:functionTest.noReceivers');
}

/** Where a device stands after its test, in the reader's words: the state, and the steps still missing. */
function commissioningSentence(
  words: Words,
  serial: string,
  commissioning: { state: CommissioningState; missing: readonly CommissioningStep[] },
): string {
  // The words of a failed step already name it; the rest still missing follow.
  const named: CommissioningStep | null =
    commissioning.state === 'not-commissioned'
      ? 'function test'
      : commissioning.state === 'parameters-differ'
        ? 'parameter verification'
        : null;
  const rest = commissioning.state === 'commissioned' ? [] : commissioning.missing.filter((step) => step !== named);
  const missing = listText(
    words,
    rest.map((step) => words.t('workbench:functionTest.missingStep', { step: camel(step) })),
  );
  // ICU selectors take no hyphens or spaces: the states and steps go by their camel-case names.
  return words.t('workbench:functionTest.commissioning', {
    serial,
    state: camel(commissioning.state),
    missing: rest.length > 0 ? missing : 'none',
  });
}

function camel(name: string): string {
  return name.replace(/[- ](\w)/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The function test after an apply, on the Workbench: opens by itself when a configuration was
 * applied to a device and a person confirmed its parameters (or from "Function test…"), watches the device and its receivers while the
 * technician presses the E-stop, shows what it observed (the reaction time of each receiver), and
 * records the verdict and a note in the ledger. A failed test is shown as such and kept.
 */
export function FunctionTestPanel() {
  const { t } = useTranslation();
  const words = useTranslator();
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
      const observation = await client().call('functionTest.observe', {
        serialNumber: serial,
        pressTimeoutSeconds: PRESS_TIMEOUT_SECONDS,
      });
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
      const recorded = await client().call('functionTest.record', {
        observationId: observation.observationId,
        technician: verdict,
        note,
      });
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
          <span className="function-test-launch__choose" role="group" aria-label={t('workbench:functionTest.choose')}>
            {t('workbench:functionTest.testOf')}{' '}
            {serials.map((s) => (
              <button key={s} type="button" className="button button--quiet" onClick={() => open(s)} translate="no">
                {s}
              </button>
            ))}
            <button type="button" className="button button--link" onClick={() => setChooser(false)}>
              {t('workbench:functionTest.neverMind')}
            </button>
          </span>
        ) : (
          <button
            type="button"
            className="button button--quiet"
            disabled={serials.length === 0}
            onClick={() => setChooser(true)}
          >
            {t('workbench:functionTest.open')}
          </button>
        )}
      </div>
    );
  }

  return (
    <section className="function-test" role="dialog" aria-modal="false" aria-labelledby="function-test-title">
      <h2 id="function-test-title">{t('workbench:functionTest.title', { serial })}</h2>
      {step.kind === 'intro' || step.kind === 'watching' ? (
        <>
          <p>{t('workbench:functionTest.intro', { serial })}</p>
          {step.kind === 'watching' ? (
            <>
              <p className="function-test__live" role="status">
                {t('workbench:functionTest.watching', { serial })}{' '}
                <strong>{t('workbench:functionTest.pressNow')}</strong>
              </p>
              <p className="muted small">
                {t('workbench:functionTest.timeoutNote', { seconds: PRESS_TIMEOUT_SECONDS })}
              </p>
              <div className="function-test__actions">
                <button type="button" className="button button--secondary" onClick={() => void stop()}>
                  {t('workbench:functionTest.stop')}
                </button>
              </div>
            </>
          ) : (
            <div className="function-test__actions">
              <ActionButton variant="primary" capability="files.download" onClick={() => void watch()}>
                {t('workbench:functionTest.startWatching')}
              </ActionButton>
              <button type="button" className="button button--quiet" onClick={close}>
                {t('workbench:functionTest.notNow')}
              </button>
            </div>
          )}
        </>
      ) : null}
      {step.kind === 'observed' ? (
        <>
          <p
            role="status"
            className={step.observation.failsBecause.length > 0 ? 'function-test__bad' : 'function-test__good'}
          >
            {step.observation.pressed
              ? t('workbench:functionTest.pressSeen', { reactions: reactionsText(words, step.observation) })
              : t('workbench:functionTest.noPress')}
          </p>
          {step.observation.failsBecause.length > 0 ? (
            <p className="function-test__bad">
              {t('workbench:functionTest.fails', {
                reasons: reasonsText(words, step.observation.failsBecause, step.observation.failReasons),
              })}
            </p>
          ) : null}
          <fieldset className="function-test__verdict">
            <legend>{t('workbench:functionTest.question')}</legend>
            <label>
              <input
                type="radio"
                name="function-test-verdict"
                checked={verdict === 'pass'}
                disabled={step.observation.failsBecause.length > 0}
                onChange={() => setVerdict('pass')}
              />{' '}
              {t('workbench:functionTest.yes')}
            </label>
            <label>
              <input
                type="radio"
                name="function-test-verdict"
                checked={verdict === 'fail'}
                onChange={() => setVerdict('fail')}
              />{' '}
              {t('workbench:functionTest.no')}
            </label>
          </fieldset>
          <label className="function-test__note">
            {t('workbench:functionTest.note')}
            <textarea value={note} maxLength={2000} rows={2} onChange={(e) => setNote(e.target.value)} />
          </label>
          <div className="function-test__actions">
            <ActionButton
              variant="primary"
              capability="files.download"
              disabledReason={verdict ? null : t('workbench:functionTest.verdictFirst')}
              onClick={() => void record(step.observation)}
            >
              {t('workbench:functionTest.record')}
            </ActionButton>
          </div>
        </>
      ) : null}
      {step.kind === 'recorded' ? (
        <>
          <p
            role="status"
            className={step.record.result === 'pass' ? 'function-test__good' : 'function-test__bad'}
            data-testid="function-test-result"
          >
            <strong>
              {t('workbench:functionTest.verdict', {
                verdict: step.observation.notDone ? 'notDone' : step.record.result === 'pass' ? 'pass' : 'fail',
              })}
            </strong>{' '}
            {step.observation.notDone
              ? t('workbench:functionTest.notDoneWhy', { why: notDoneHow(words, step.observation) })
              : step.observation.pressed
                ? t('workbench:functionTest.seen', { reactions: reactionsText(words, step.observation) })
                : t('workbench:functionTest.noPressSeen')}{' '}
            {commissioningSentence(words, serial, step.record.commissioning)}
          </p>
          {step.record.reasons.length > 0 ? (
            <p className="function-test__bad">
              {t('workbench:functionTest.why', {
                reasons: reasonsText(words, step.record.reasons, step.record.failReasons),
              })}
            </p>
          ) : null}
          <p className="muted small">
            {t('workbench:functionTest.recorded', { seq: step.record.ledgerSeq })}{' '}
            <span className="mono" translate="no">
              {step.record.ledgerHash.slice(0, 16)}…
            </span>
          </p>
          <div className="function-test__actions">
            <button type="button" className="button button--quiet" onClick={close}>
              {t('workbench:functionTest.close')}
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

/** Why a test fails, from the core's codes in the reader's words; a core that sent none keeps its English. */
function reasonsText(
  words: Words,
  english: readonly string[],
  codes: readonly FunctionTestFailReason[] | undefined,
): string {
  return codes ? functionTestReasonsText(codes, words) : english.join('; ');
}

/** How a test not done ended ("stopped"), from the core's code; a core that sent none keeps its English. */
function notDoneHow(words: Words, observation: FunctionTestObservationView): string {
  const reason = observation.failReasons?.find((why) => why.kind === 'notDone');
  return reason?.kind === 'notDone'
    ? notDoneHowText(reason, words)
    : (observation.notDone ?? '').replace(/^not done: /, '');
}
