import { useId, useState, type FormEvent } from 'react';
import type { JobView, ParameterConfirmationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { GroupedRows } from '../components/GroupedRows';
import { useTechnician } from '../stores/technician';
import { useWorkbench } from '../stores/workbench';
import './workbench.css';

type ParameterTable = NonNullable<JobView['parameters']>;

/**
 * After a configuration apply (issue 26): what the device runs beside what the configuration
 * intends, parameter by parameter in plain words and units, both checksums short. A person
 * confirms by typing the device's checksum with their name; nothing here confirms on its own, and
 * a table that differs offers no confirmation (the core refuses one too). A form, so Enter
 * confirms: no mouse needed.
 */
export function ParameterVerification({ job, table, label }: { job: JobView; table: ParameterTable; label: string }) {
  const confirmation = useWorkbench((s) => s.parameterConfirmations[job.jobId] ?? null);
  const parametersConfirmed = useWorkbench((s) => s.parametersConfirmed);
  const title = `Parameters on ${label}: ${table.match ? 'match the configuration' : 'differ from the configuration'}`;
  return (
    <section className={`param-check param-check--${table.match ? 'ok' : 'bad'}`} aria-label={title} data-testid="parameter-verification" data-match={table.match}>
      <h3 className="job-timeline__title">{title}</h3>
      <table className="table table--compact param-table">
        <thead>
          <tr>
            <th scope="col">Parameter</th>
            <th scope="col">Intended</th>
            <th scope="col">Running on the device</th>
          </tr>
        </thead>
        <tbody>
          <GroupedRows
            rows={table.rows}
            columns={3}
            row={(row) => (
              <tr data-key={row.key} data-match={row.match} className={row.match ? undefined : 'param-table__row--bad'}>
                <th scope="row">{row.label}</th>
                <td className="mono">{row.intended}</td>
                <td className="mono">
                  {row.running}
                  {row.match ? null : <strong className="param-table__differs"> ✗ differs</strong>}
                </td>
              </tr>
            )}
          />
        </tbody>
      </table>
      <dl className="param-checksums">
        <dt>Checksum intended (this tool, from the configuration file)</dt>
        <dd className="mono strong" data-testid="checksum-intended">
          {table.intendedChecksumShort}
        </dd>
        <dt>Checksum running ({table.checksumBy === 'device' ? 'computed by the device' : 'computed by this tool from the values read; the device reports none'})</dt>
        <dd className="mono strong" data-testid="checksum-running">
          {table.runningChecksumShort}
          {table.checksumsMatch ? null : <strong className="param-table__differs"> ✗ the checksums differ</strong>}
        </dd>
      </dl>
      {table.runningChecksumConsistent ? null : <p className="param-table__differs">✗ The device's checksum is not that of the values it reported.</p>}
      {table.advice ? (
        <p className="callout callout--bad" role="alert">
          What to do: {table.advice} Nothing can be confirmed while the parameters differ.
        </p>
      ) : confirmation ? (
        <p className="callout callout--ok" role="status" data-testid="parameters-confirmed">
          Confirmed by {confirmation.confirmedBy} (checksum {confirmation.checksumShort}), recorded in this workstation's ledger.
        </p>
      ) : (
        <ConfirmForm jobId={job.jobId} label={label} onConfirmed={(view) => parametersConfirmed(job.jobId, view)} />
      )}
    </section>
  );
}

function ConfirmForm({ jobId, label, onConfirmed }: { jobId: string; label: string; onConfirmed: (view: ParameterConfirmationView) => void }) {
  const kept = useTechnician((s) => s.name);
  const setKept = useTechnician((s) => s.setName);
  const [name, setName] = useState('');
  const [checksum, setChecksum] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const technician = kept || name.trim();
    if (technician === '') {
      setError('Type your name: a confirmation names the person who gives it.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const view = await client().call('workbench.confirmParameters', { jobId, checksum, technician });
      setKept(technician);
      onConfirmed(view);
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="param-confirm" onSubmit={(e) => void submit(e)} aria-label={`Confirm the parameters of ${label}`}>
      <p className="small">Compare each running value with what you intended, then type the running checksum to confirm them.</p>
      {kept ? (
        <p className="small">
          Confirming as <strong>{kept}</strong>.{' '}
          <button type="button" className="button button--link" onClick={() => setKept('')}>
            Not {kept}?
          </button>
        </p>
      ) : (
        <label htmlFor={`${id}-name`}>
          Your name
          <input id={`${id}-name`} name="technician" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={200} />
        </label>
      )}
      <label htmlFor={`${id}-checksum`}>
        Running checksum (8 hex digits)
        <input
          id={`${id}-checksum`}
          name="checksum"
          className="mono"
          autoComplete="off"
          spellCheck={false}
          inputMode="text"
          maxLength={16}
          value={checksum}
          onChange={(e) => setChecksum(e.target.value)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </label>
      <button type="submit" className="button button--primary" disabled={busy}>
        Confirm parameters
      </button>
      {error ? (
        <p id={`${id}-error`} className="callout callout--bad" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
