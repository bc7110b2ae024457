import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../components/ActionButton';
import { Badge, Callout, EmptyRow, ScreenHeader } from '../components/misc';
import { ProgressCell } from '../components/ProgressCell';
import {
  blockedText,
  linkText,
  needsDetail,
  needsSomething,
  needsText,
  protocolText,
  sharedSerialText,
} from '../format/device-needs';
import { useTranslator } from '../i18n/I18nProvider';
import { isFinished, workbenchSummary } from '../format/progress-status';
import { isBusy, isSelectable, jobForDevice, selectableLinkIds, useWorkbench } from '../stores/workbench';
import { useCapabilityInReaderLanguage } from '../components/use-capability';
import { useNavigation } from '../stores/navigation';
import { actionOffers, blockedDevices } from '../workbench/actions';
import { ConfigurationChanges } from '../workbench/ConfigurationChanges';
import { JobTimeline } from '../workbench/JobTimeline';
import { StepOutcome } from '../workbench/StepOutcome';
import { ParameterVerification } from '../workbench/ParameterVerification';
import { PortGlobsForm } from './PortGlobsForm';
import { FunctionTestPanel } from '../accountability/FunctionTestPanel';
import { AddSimulatedDevice, PressEstopButton, useSimulatedBench } from '../workbench/SimulatedBench';

/** Devices attached over USB, BLE or IP, live, and the jobs that provision them. */
export function WorkbenchScreen() {
  const { t } = useTranslation();
  const words = useTranslator();
  const devices = useWorkbench((s) => s.devices);
  const jobs = useWorkbench((s) => s.jobs);
  const selected = useWorkbench((s) => s.selected);
  const error = useWorkbench((s) => s.error);
  const loaded = useWorkbench((s) => s.loaded);
  const { toggle, selectAll, start, cancel, retry, rescan, clearFinished } = useWorkbench.getState();
  const download = useCapabilityInReaderLanguage('files.download');
  const addToConfiguration = useNavigation((s) => s.addDeviceToConfiguration);
  const bench = useSimulatedBench();
  const [timelineOpen, setTimelineOpen] = useState<string[]>([]);
  const toggleTimeline = (linkId: string) =>
    setTimelineOpen((open) => (open.includes(linkId) ? open.filter((id) => id !== linkId) : [...open, linkId]));
  const [changesOpen, setChangesOpen] = useState<string[]>([]);
  const toggleChanges = (linkId: string) =>
    setChangesOpen((open) => (open.includes(linkId) ? open.filter((id) => id !== linkId) : [...open, linkId]));

  const selectable = selectableLinkIds(devices, jobs);
  const allSelected = selectable.length > 0 && selectable.every((id) => selected.includes(id));
  const shownJobs = devices.map((d) => jobForDevice(d, jobs)).filter((j) => j !== null);
  const chosen = selected.filter((id) => selectable.includes(id));
  const chosenDevices = devices.filter((d) => chosen.includes(d.linkId));
  const offers = actionOffers(chosenDevices, words);
  const blocked = blockedDevices(chosenDevices);
  // Two attached devices claiming one serial number: said once per serial, not once per row.
  const sharedChosen = [
    ...new Set(
      chosenDevices.flatMap((d) =>
        d.sharedSerial && d.serialNumber ? [sharedSerialText(d.serialNumber, d.sharedSerial.links, words)] : [],
      ),
    ),
  ];
  const anyFinished = Object.values(jobs).some(isFinished);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader
        title={t('workbench:title')}
        note={
          <span aria-live="polite">
            {t('workbench:note', { attached: devices.length, summary: workbenchSummary(shownJobs, words) })}
          </span>
        }
      >
        <button type="button" className="button button--quiet" onClick={() => void rescan()}>
          {t('workbench:rescan')}
        </button>
        <button
          type="button"
          className="button button--quiet"
          disabled={!anyFinished}
          onClick={() => void clearFinished()}
        >
          {t('workbench:clearResults')}
        </button>
      </ScreenHeader>
      <div className="toolbar toolbar--workbench" role="toolbar" aria-label={t('workbench:toolbar')}>
        <span className="toolbar__count">{t('workbench:selected', { count: chosen.length })}</span>
        {offers.map(({ action, label, disabledReason }) => (
          <ActionButton
            key={action}
            variant={action === 'both' ? 'primary' : 'secondary'}
            capability="files.download"
            disabledReason={disabledReason}
            onClick={() => void start(action, chosen)}
            name={`workbench-${action}`}
          >
            {label}
          </ActionButton>
        ))}
        {!download.allowed ? <span className="muted">{download.reason}</span> : null}
      </div>
      {download.allowed && blocked.length > 0 ? (
        <div className="callout callout--warn workbench-blocked" role="status" data-testid="workbench-blocked">
          {t('workbench:blocked.title')}{' '}
          {blocked.map((d, i) => (
            <span key={d.linkId}>
              {i > 0 ? '; ' : ''}
              {blockedText(d.needs!.configuration.blocked!, d.serialNumber ?? d.address, words)}{' '}
              <button type="button" className="button button--link" onClick={() => addToConfiguration(d.serialNumber!)}>
                {t('workbench:blocked.add', { serial: d.serialNumber ?? '' })}
              </button>
            </span>
          ))}
        </div>
      ) : null}
      {sharedChosen.length > 0 ? (
        <div
          className="callout callout--bad workbench-shared-serial"
          role="status"
          data-testid="workbench-shared-serial-chosen"
        >
          {t('workbench:sharedSerial.selection', { reasons: sharedChosen.join(' ') })}
        </div>
      ) : null}
      {error ? <Callout tone="bad">{error}</Callout> : null}
      <FunctionTestPanel />
      <table className={`table workbench-table${bench.active ? ' workbench-table--simulated' : ''}`}>
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
              <input
                type="checkbox"
                aria-label={t('workbench:selectAll')}
                checked={allSelected}
                disabled={selectable.length === 0}
                onChange={(e) => selectAll(e.target.checked)}
              />
            </th>
            <th scope="col">{t('workbench:column.device')}</th>
            <th scope="col">{t('workbench:column.connection')}</th>
            <th scope="col">{t('workbench:column.firmware')}</th>
            <th scope="col">{t('workbench:column.needs')}</th>
            <th scope="col">{t('workbench:column.progress')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('workbench:column.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {devices.map((d) => {
            const job = jobForDevice(d, jobs);
            const busy = isBusy(d, jobs);
            const name = d.serialNumber ?? d.address;
            const open = timelineOpen.includes(d.linkId);
            const timelineId = `timeline-${d.linkId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
            const changesId = `changes-${d.linkId.replace(/[^A-Za-z0-9_-]/g, '_')}`;
            // Only where an apply can happen (a device in a configuration, identified), and not while
            // a job runs or waits for a retry: the actions stay on one line and the row keeps its height.
            const retryable = job !== null && !busy && (job.phase === 'failed' || job.phase === 'cancelled');
            const canReview =
              d.serialNumber !== null &&
              d.needs !== null &&
              d.needs.configuration.blocked === null &&
              !busy &&
              !retryable;
            const reviewing = canReview && changesOpen.includes(d.linkId);
            return (
              <Fragment key={d.linkId}>
                <tr
                  data-link={d.linkId}
                  data-serial={d.serialNumber ?? ''}
                  data-protocol={d.protocol ?? 'provisioner'}
                  data-shared-serial={d.sharedSerial ? 'true' : undefined}
                  className={
                    [selected.includes(d.linkId) ? 'row--selected' : '', d.sharedSerial ? 'row--shared-serial' : '']
                      .filter(Boolean)
                      .join(' ') || undefined
                  }
                >
                  <td>
                    <input
                      type="checkbox"
                      aria-label={t('workbench:select', { name })}
                      checked={selected.includes(d.linkId)}
                      disabled={!isSelectable(d, jobs)}
                      onChange={() => toggle(d.linkId)}
                    />
                  </td>
                  <td>
                    <div className="cell-stack">
                      {d.serialNumber ? (
                        <span className="mono strong" translate="no">
                          {d.serialNumber}
                        </span>
                      ) : (
                        <span className="mono strong">{t('workbench:unidentified')}</span>
                      )}
                      <span className="muted small">
                        {d.deviceType ? (
                          <span translate="no">
                            <Badge>{d.deviceType}</Badge>
                          </span>
                        ) : null}{' '}
                        {d.model ? <span translate="no">{d.model}</span> : (d.error ?? '')}
                        {/* Ours is the rule; a device that speaks the vendor's protocol says so. */}
                        {d.protocol === 'vendor' ? (
                          <span data-testid="workbench-protocol" title={t('workbench:protocol.vendorTitle')}>
                            {' '}
                            <Badge>{protocolText(d, words)}</Badge>
                          </span>
                        ) : null}
                      </span>
                      {d.sharedSerial ? (
                        // The row says it short (its port is in the Connection column); the whole reason,
                        // with every link that claims the serial, is the tooltip and the selection's callout.
                        <span
                          className="workbench-shared-serial small"
                          data-testid="workbench-shared-serial"
                          title={
                            d.serialNumber
                              ? sharedSerialText(d.serialNumber, d.sharedSerial.links, words)
                              : d.sharedSerial.reason
                          }
                        >
                          <Badge tone="bad">{t('workbench:sharedSerial.badge')}</Badge>{' '}
                          {t('workbench:sharedSerial.row', { count: d.sharedSerial.links.length })}
                        </span>
                      ) : null}
                    </div>
                  </td>
                  <td className="mono small cell-clip" title={`${d.linkKind}: ${d.address}`} translate="no">
                    {linkText(d)}
                  </td>
                  <td>
                    <span className="mono" data-testid="workbench-firmware" translate="no">
                      {d.firmwareVersion ?? '—'}
                    </span>
                  </td>
                  <td title={needsDetail(d.needs, words)}>
                    {needsSomething(d.needs) ? (
                      <Badge tone="warn">{needsText(d.needs, words)}</Badge>
                    ) : (
                      <span className="muted">{needsText(d.needs, words)}</span>
                    )}

                    {d.needs?.configuration.blocked && d.serialNumber ? (
                      <span className="workbench-blocked small">
                        {t('workbench:blocked.sentence', {
                          reason: blockedText(d.needs.configuration.blocked, d.serialNumber, words),
                        })}{' '}
                        <button
                          type="button"
                          className="button button--link"
                          onClick={() => addToConfiguration(d.serialNumber!)}
                          aria-label={t('workbench:blocked.addItLabel', { serial: d.serialNumber })}
                        >
                          {t('workbench:blocked.addIt')}
                        </button>
                      </span>
                    ) : null}
                  </td>
                  <td>
                    {job && isFinished(job) && job.steps.length > 0 ? (
                      <StepOutcome job={job} label={name} />
                    ) : (
                      <ProgressCell job={job} label={name} />
                    )}
                  </td>
                  <td className="actions-col">
                    {job && busy ? (
                      <button
                        type="button"
                        className="button button--quiet"
                        onClick={() => void cancel(job.jobId)}
                        aria-label={t('workbench:cancelLabel', { name })}
                      >
                        {t('workbench:cancel')}
                      </button>
                    ) : job && (job.phase === 'failed' || job.phase === 'cancelled') ? (
                      <ActionButton
                        variant="secondary"
                        capability="files.download"
                        disabledReason={
                          d.sharedSerial
                            ? d.serialNumber
                              ? sharedSerialText(d.serialNumber, d.sharedSerial.links, words)
                              : d.sharedSerial.reason
                            : null
                        }
                        onClick={() => void retry(job.jobId)}
                      >
                        {t('workbench:retry')}
                      </ActionButton>
                    ) : null}
                    {canReview ? (
                      <button
                        type="button"
                        className="button button--quiet"
                        aria-expanded={reviewing}
                        aria-controls={changesId}
                        onClick={() => toggleChanges(d.linkId)}
                        aria-label={t('workbench:changesLabel', { name })}
                      >
                        {t('workbench:changes')}
                      </button>
                    ) : null}
                    {/* In simulation only: a hand on the simulated device's E-stop, for its function test. */}
                    {d.serialNumber && !busy && bench.pressable.has(d.serialNumber) ? (
                      <PressEstopButton serialNumber={d.serialNumber} />
                    ) : null}
                    {/* Not while a job runs: Cancel has the place then, so the row keeps its height. */}
                    {d.serialNumber && !busy ? (
                      <button
                        type="button"
                        className="button button--quiet"
                        aria-expanded={open}
                        aria-controls={timelineId}
                        onClick={() => toggleTimeline(d.linkId)}
                        aria-label={t('workbench:timelineLabel', { name })}
                      >
                        {t('workbench:timeline')}
                      </button>
                    ) : null}
                  </td>
                </tr>
                {reviewing && d.serialNumber ? (
                  <DetailRow id={changesId}>
                    <ConfigurationChanges serialNumber={d.serialNumber} version={job?.finishedAt ?? ''} />
                  </DetailRow>
                ) : null}
                {open && d.serialNumber ? (
                  <DetailRow id={timelineId}>
                    <JobTimeline device={d.serialNumber} version={job?.finishedAt ?? ''} />
                  </DetailRow>
                ) : null}
                {/* After an apply the device's running parameters stand open for a person to compare and confirm. */}
                {job && isFinished(job) && job.parameters ? (
                  <DetailRow id={`parameters-${d.linkId.replace(/[^A-Za-z0-9_-]/g, '_')}`}>
                    <ParameterVerification key={job.jobId} job={job} table={job.parameters} label={name} />
                  </DetailRow>
                ) : null}
              </Fragment>
            );
          })}
          {loaded && devices.length === 0 ? <EmptyRow columns={7}>{t('workbench:empty')}</EmptyRow> : null}
        </tbody>
      </table>
      {bench.active ? (
        <AddSimulatedDevice
          onAdded={() => {
            bench.reload();
            void rescan();
          }}
        />
      ) : null}
      <PortGlobsForm />
    </section>
  );
}

/** A row under a device's row, across the whole table, for what the device's buttons open. */
function DetailRow({ id, children }: { id: string; children: ReactNode }) {
  return (
    <tr id={id} className="workbench-timeline-row">
      <td colSpan={7}>{children}</td>
    </tr>
  );
}
