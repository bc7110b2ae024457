import type { ConfigurationStatusView, ConfigurationView } from '../../contract/index';
import type { Violation } from '../../domain/violations';
import { Badge, Callout } from '../components/misc';
import { WarningList } from './WarningList';

interface Props {
  configuration: ConfigurationView;
  status: ConfigurationStatusView | null;
  /** The settings form's edits not saved yet, as the domain judges them; null when there are none. */
  unsaved?: { violations: readonly Violation[] } | null;
  onRefresh(): void;
}

/**
 * The service's verdict (the status operation) and which devices' files can be downloaded; our
 * own rules' warnings beside it, which hold back no file but are to be read before applying.
 */
export function StatusPanel({ configuration, status, unsaved = null, onRefresh }: Props) {
  return (
    <section className="panel status-panel" aria-labelledby="status-title" aria-live="polite">
      <div className="panel__header">
        <h2 id="status-title">Status</h2>
        <button type="button" className="button button--quiet" onClick={onRefresh}>
          Refresh
        </button>
      </div>
      {unsaved ? (
        <Callout tone={unsaved.violations.length > 0 ? 'warn' : 'info'} title="Unsaved changes">
          {unsaved.violations.length > 0
            ? `The settings as edited have ${unsaved.violations.length} field${unsaved.violations.length === 1 ? '' : 's'} to fix before they can be saved:`
            : 'The settings as edited break no rule. What follows is the service’s verdict on the saved configuration: save to have it judge the edits.'}
          {unsaved.violations.length > 0 ? (
            <ul className="status-panel__list">
              {unsaved.violations.map((v, i) => (
                <li key={`${v.field}-${v.code}-${i}`}>{v.message}</li>
              ))}
            </ul>
          ) : null}
        </Callout>
      ) : null}
      {!status ? (
        <p className="muted">Asking the service…</p>
      ) : status.complete ? (
        <p className="status-panel__verdict">
          <Badge tone="ok">Complete</Badge> Every device&apos;s configuration file can be downloaded and applied.
        </p>
      ) : (
        <>
          <p className="status-panel__verdict">
            <Badge tone="warn">Not complete</Badge> Files are produced once these are fixed:
          </p>
          <ul className="status-panel__list">
            {status.violations.map((v, i) => (
              <li key={`${v.field}-${v.code}-${i}`}>
                {v.message}
                <span className="muted mono"> {v.code}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {status ? <WarningList title="Warnings: read these before applying (they hold back no file)" warnings={status.warnings} /> : null}
      <h3 className="form-section">Configuration files</h3>
      <ul className="file-list">
        {configuration.devices.map((d) => {
          const ready = status?.devices.find((r) => r.serialNumber === d.serialNumber);
          return (
            <li key={d.serialNumber} className="file-list__item">
              <span className="mono">{d.serialNumber}</span>
              {ready?.ready ? <Badge tone="ok">Ready</Badge> : <Badge tone="neutral">Not ready</Badge>}
            </li>
          );
        })}
        {configuration.devices.length === 0 ? <li className="muted">No devices yet.</li> : null}
      </ul>
    </section>
  );
}
