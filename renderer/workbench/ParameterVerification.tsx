import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView, ParameterConfirmationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { GroupedRows } from '../components/GroupedRows';
import { useTechnician } from '../stores/technician';
import { useTranslator } from '../i18n/I18nProvider';
import { useWorkbench } from '../stores/workbench';
import { rowsInWords } from './parameter-words';
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
  const { t } = useTranslation();
  const words = useTranslator();
  const title = t('workbench:parameters.title', { name: label, match: table.match ? 'yes' : 'no' });
  return (
    <section
      className={`param-check param-check--${table.match ? 'ok' : 'bad'}`}
      aria-label={title}
      data-testid="parameter-verification"
      data-match={table.match}
    >
      <h3 className="job-timeline__title">{title}</h3>
      <table className="table table--compact param-table">
        <thead>
          <tr>
            <th scope="col">{t('workbench:parameters.parameter')}</th>
            <th scope="col">{t('workbench:parameters.intended')}</th>
            <th scope="col">{t('workbench:parameters.running')}</th>
          </tr>
        </thead>
        <tbody>
          <GroupedRows
            rows={rowsInWords(table.rows, words)}
            columns={3}
            row={(row) => (
              <tr data-key={row.key} data-match={row.match} className={row.match ? undefined : 'param-table__row--bad'}>
                <th scope="row">{row.label}</th>
                <td className="mono" translate="no">
                  {row.intended}
                </td>
                <td className="mono">
                  <span translate="no">{row.running}</span>
                  {row.match ? null : (
                    <strong className="param-table__differs"> {t('workbench:parameters.differs')}</strong>
                  )}
                </td>
              </tr>
            )}
          />
        </tbody>
      </table>
      <dl className="param-checksums">
        <dt>{t('workbench:parameters.checksumIntended')}</dt>
        <dd className="mono strong" data-testid="checksum-intended" translate="no">
          {table.intendedChecksumShort}
        </dd>
        <dt>{t('workbench:parameters.checksumRunning', { by: table.checksumBy === 'device' ? 'device' : 'tool' })}</dt>
        <dd className="mono strong" data-testid="checksum-running">
          <span translate="no">{table.runningChecksumShort}</span>
          {table.checksumsMatch ? null : (
            <strong className="param-table__differs"> {t('workbench:parameters.checksumsDiffer')}</strong>
          )}
        </dd>
      </dl>
      {table.runningChecksumConsistent ? null : (
        <p className="param-table__differs">{t('workbench:parameters.inconsistent')}</p>
      )}
      {table.advice ? (
        <p className="callout callout--bad" role="alert">
          {t('workbench:parameters.advice', { advice: table.advice })}
        </p>
      ) : confirmation ? (
        <p className="callout callout--ok" role="status" data-testid="parameters-confirmed">
          {t('workbench:parameters.confirmed', {
            name: confirmation.confirmedBy,
            checksum: confirmation.checksumShort,
          })}
        </p>
      ) : (
        <ConfirmForm jobId={job.jobId} label={label} onConfirmed={(view) => parametersConfirmed(job.jobId, view)} />
      )}
    </section>
  );
}

function ConfirmForm({
  jobId,
  label,
  onConfirmed,
}: {
  jobId: string;
  label: string;
  onConfirmed: (view: ParameterConfirmationView) => void;
}) {
  const kept = useTechnician((s) => s.name);
  const setKept = useTechnician((s) => s.setName);
  const [name, setName] = useState('');
  const [checksum, setChecksum] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const { t } = useTranslation();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const technician = kept || name.trim();
    if (technician === '') {
      setError(t('workbench:parameters.nameMissing'));
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
    <form
      className="param-confirm"
      onSubmit={(e) => void submit(e)}
      aria-label={t('workbench:parameters.confirmLabel', { name: label })}
    >
      <p className="small">{t('workbench:parameters.instructions')}</p>
      {kept ? (
        <p className="small">
          {t('workbench:parameters.confirmingAs', { name: kept })}{' '}
          <button type="button" className="button button--link" onClick={() => setKept('')}>
            {t('workbench:parameters.notMe', { name: kept })}
          </button>
        </p>
      ) : (
        <label htmlFor={`${id}-name`}>
          {t('workbench:parameters.yourName')}
          <input
            id={`${id}-name`}
            name="technician"
            autoComplete="name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            maxLength={200}
          />
        </label>
      )}
      <label htmlFor={`${id}-checksum`}>
        {t('workbench:parameters.checksumField')}
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
        {t('workbench:parameters.confirm')}
      </button>
      {error ? (
        <p id={`${id}-error`} className="callout callout--bad" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
