import type { JobAction } from '../../contract/index';
import { ActionButton } from '../components/ActionButton';
import { Badge, Callout, EmptyRow, ScreenHeader } from '../components/misc';
import { ProgressCell } from '../components/ProgressCell';
import { linkText, needsDetail, needsSomething, needsText } from '../format/device-needs';
import { isFinished, workbenchSummary } from '../format/progress-status';
import { isBusy, isSelectable, jobForDevice, selectableLinkIds, useWorkbench } from '../stores/workbench';
import { useCapability } from '../stores/session';
import { PortGlobsForm } from './PortGlobsForm';

const ACTIONS: { action: JobAction; label: string }[] = [
  { action: 'firmware', label: 'Update firmware' },
  { action: 'configuration', label: 'Apply configuration' },
  { action: 'both', label: 'Both' },
];

/** Devices attached over USB, BLE or IP, live, and the jobs that provision them. */
export function WorkbenchScreen() {
  const devices = useWorkbench((s) => s.devices);
  const jobs = useWorkbench((s) => s.jobs);
  const selected = useWorkbench((s) => s.selected);
  const error = useWorkbench((s) => s.error);
  const loaded = useWorkbench((s) => s.loaded);
  const { toggle, selectAll, start, cancel, retry, rescan, clearFinished } = useWorkbench.getState();
  const download = useCapability('files.download');

  const selectable = selectableLinkIds(devices, jobs);
  const allSelected = selectable.length > 0 && selectable.every((id) => selected.includes(id));
  const shownJobs = devices.map((d) => jobForDevice(d, jobs)).filter((j) => j !== null);
  const chosen = selected.filter((id) => selectable.includes(id));
  const noSelection = chosen.length === 0 ? 'Select one or more devices first.' : null;
  const anyFinished = Object.values(jobs).some(isFinished);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader title="Workbench" note={<span className="muted" aria-live="polite">{devices.length} attached · {workbenchSummary(shownJobs)}</span>}>
        <button type="button" className="button button--quiet" onClick={() => void rescan()}>
          Rescan
        </button>
        <button type="button" className="button button--quiet" disabled={!anyFinished} onClick={() => void clearFinished()}>
          Clear results
        </button>
      </ScreenHeader>
      <div className="toolbar toolbar--workbench" role="toolbar" aria-label="Provision the selected devices">
        <span className="toolbar__count">{chosen.length} selected</span>
        {ACTIONS.map(({ action, label }) => (
          <ActionButton key={action} variant={action === 'both' ? 'primary' : 'secondary'} capability="files.download" disabledReason={noSelection} onClick={() => void start(action, chosen)} name={`workbench-${action}`}>
            {label}
          </ActionButton>
        ))}
        {!download.allowed ? <span className="muted">{download.reason}</span> : null}
      </div>
      {error ? <Callout tone="bad">{error}</Callout> : null}
      <table className="table workbench-table">
        <colgroup>
          <col className="workbench-table__check" />
          <col className="workbench-table__device" />
          <col className="workbench-table__link" />
          <col className="workbench-table__firmware" />
          <col className="workbench-table__needs" />
          <col className="workbench-table__progress" />
          <col className="workbench-table__actions" />
        </colgroup>
        <thead>
          <tr>
            <th scope="col">
              <input type="checkbox" aria-label="Select all devices" checked={allSelected} disabled={selectable.length === 0} onChange={(e) => selectAll(e.target.checked)} />
            </th>
            <th scope="col">Device</th>
            <th scope="col">Connection</th>
            <th scope="col">Firmware</th>
            <th scope="col">Needs</th>
            <th scope="col">Progress</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {devices.map((d) => {
            const job = jobForDevice(d, jobs);
            const busy = isBusy(d, jobs);
            const name = d.serialNumber ?? d.address;
            return (
              <tr key={d.linkId} data-link={d.linkId} data-serial={d.serialNumber ?? ''} className={selected.includes(d.linkId) ? 'row--selected' : undefined}>
                <td>
                  <input type="checkbox" aria-label={`Select ${name}`} checked={selected.includes(d.linkId)} disabled={!isSelectable(d, jobs)} onChange={() => toggle(d.linkId)} />
                </td>
                <td>
                  <div className="cell-stack">
                    <span className="mono strong">{d.serialNumber ?? 'Unidentified'}</span>
                    <span className="muted small">
                      {d.deviceType ? <Badge>{d.deviceType}</Badge> : null} {d.model ?? d.error ?? ''}
                    </span>
                  </div>
                </td>
                <td className="mono small cell-clip" title={`${d.linkKind}: ${d.address}`}>
                  {linkText(d)}
                </td>
                <td>
                  <span className="mono" data-testid="workbench-firmware">
                    {d.firmwareVersion ?? '—'}
                  </span>
                </td>
                <td title={needsDetail(d.needs)}>
                  {needsSomething(d.needs) ? <Badge tone="warn">{needsText(d.needs)}</Badge> : <span className="muted">{needsText(d.needs)}</span>}
                </td>
                <td>
                  <ProgressCell job={job} label={name} />
                </td>
                <td className="actions-col">
                  {job && busy ? (
                    <button type="button" className="button button--quiet" onClick={() => void cancel(job.jobId)} aria-label={`Cancel the job on ${name}`}>
                      Cancel
                    </button>
                  ) : job && (job.phase === 'failed' || job.phase === 'cancelled') ? (
                    <ActionButton variant="secondary" capability="files.download" onClick={() => void retry(job.jobId)}>
                      Retry
                    </ActionButton>
                  ) : null}
                </td>
              </tr>
            );
          })}
          {loaded && devices.length === 0 ? (
            <EmptyRow columns={7}>No device attached. Connect one over USB, or check that its BLE or IP link is up, then Rescan.</EmptyRow>
          ) : null}
        </tbody>
      </table>
      <PortGlobsForm />
    </section>
  );
}
