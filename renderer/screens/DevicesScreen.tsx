import { useState, type FormEvent } from 'react';
import type { DeployStatus } from '../../domain/enums';
import { commissioningShortText, commissioningText } from '../../domain/ledger-commissioning';
import type { CommissioningView, DeviceSyncView, RegisteredDeviceView } from '../../contract/index';
import { client, errorText, violationsOf } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { TextField } from '../components/fields';
import { FormActions } from '../components/FormActions';
import { ImagePicker } from '../components/ImagePicker';
import { ACTIONS_COLUMN, ListTable, pagedListOf } from '../components/ListTable';
import { ListScreenHeader, type CreateFormHandlers } from '../components/ListScreenHeader';
import { Badge, Callout, type Tone } from '../components/misc';
import { useBusyAction } from '../components/use-busy-action';
import { useListFilters } from '../components/use-list-filters';
import { dateTimeText } from '../format/units';
import { notify } from '../stores/notices';

const PAGE_SIZE = 15;

export const DEPLOY_STATUS_TEXT: Record<DeployStatus, { text: string; tone: Tone }> = {
  NotDeployed: { text: 'Not deployed', tone: 'neutral' },
  Outdated: { text: 'Outdated', tone: 'warn' },
  Deployed: { text: 'Deployed', tone: 'ok' },
  Failed: { text: 'Failed', tone: 'bad' },
};

/** How a device stands against the service, in the words `provisioner device list` uses. */
export const SYNC_STATE_TEXT: Record<DeviceSyncView['state'], { text: string; tone: Tone }> = {
  'in-sync': { text: 'In sync', tone: 'ok' },
  behind: { text: 'Behind', tone: 'warn' },
  drift: { text: 'Drift', tone: 'warn' },
  unconfigured: { text: 'No configuration', tone: 'neutral' },
  unknown: { text: 'Unknown', tone: 'neutral' },
};

/** Whether a device in a configuration is commissioned and, when not, the step it needs next (issue 26). */
function CommissioningCell({ commissioning }: { commissioning: CommissioningView | null }) {
  if (commissioning === null) return <span className="muted">—</span>;
  const tone: Tone = commissioning.state === 'commissioned' ? 'ok' : commissioning.state === 'not-commissioned' || commissioning.state === 'parameters-differ' ? 'bad' : 'warn';
  const short = commissioningShortText(commissioning);
  return (
    <span title={commissioningText(commissioning)}>
      <Badge tone={tone}>{short.charAt(0).toUpperCase() + short.slice(1)}</Badge>
    </span>
  );
}

/** The organization's registry of devices. */
export function DevicesScreen() {
  const { filters, setFilter, page, setPage } = useListFilters({ search: '', configurableOnly: false });
  const { search, configurableOnly } = filters;
  const [editing, setEditing] = useState<string | null>(null);
  const list = useQuery('devices.list', { search: search.trim() || undefined, configurableOnly: configurableOnly || undefined, page, limit: PAGE_SIZE });

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader title="Devices" capability="devices.write" actionLabel="Register device" explainRefusal form={(handlers) => <RegisterDevice {...handlers} />} onDone={list.reload} />
      <div className="toolbar">
        <TextField className="toolbar__search" label="Search name, serial number, type" type="search" value={search} onChange={setFilter('search')} reserveMessage={false} />
        <label className="checkbox toolbar__check">
          <input type="checkbox" checked={configurableOnly} onChange={(e) => setFilter('configurableOnly')(e.target.checked)} />
          <span>Only devices in no configuration</span>
        </label>
      </div>
      <ListTable
        columns={[{ label: 'Image', className: 'thumb-col', hidden: true }, 'Serial number', 'Name', 'Type', 'Firmware', 'Configuration', 'Deploy status', 'State', 'Commissioning', 'Last observed', ACTIONS_COLUMN]}
        {...pagedListOf(list, setPage)}
        row={(d) =>
          editing === d.serialNumber ? (
            <EditDeviceRow
              key={d.serialNumber}
              device={d}
              onClose={() => setEditing(null)}
              onDone={() => {
                setEditing(null);
                list.reload();
              }}
            />
          ) : (
            <tr key={d.serialNumber} data-serial={d.serialNumber}>
              <td className="thumb-col">{d.deviceImage ? <img className="thumb" src={d.deviceImage} alt="" /> : <span className="thumb thumb--empty" aria-hidden="true" />}</td>
              <td className="mono">{d.serialNumber}</td>
              <td>{d.name}</td>
              <td>
                <Badge>{d.deviceType}</Badge>
              </td>
              <td className="mono" data-testid="registry-firmware">
                {d.firmwareVersion ?? <span className="muted">—</span>}
              </td>
              <td>{d.configurationName ?? <span className="muted">—</span>}</td>
              <td data-testid="registry-deploy">
                <Badge tone={DEPLOY_STATUS_TEXT[d.deployStatus].tone}>{DEPLOY_STATUS_TEXT[d.deployStatus].text}</Badge>
              </td>
              <td data-testid="registry-sync" title={d.sync.text}>
                {/* A short state keeps the row one line high; the why is there on a click (issue 32). */}
                {d.sync.state !== 'in-sync' ? (
                  <details className="registry-sync">
                    <summary aria-label={`${SYNC_STATE_TEXT[d.sync.state].text}: show why`}>
                      <Badge tone={SYNC_STATE_TEXT[d.sync.state].tone}>{SYNC_STATE_TEXT[d.sync.state].text}</Badge>
                    </summary>
                    <p className="muted registry-sync__why">{d.sync.text}</p>
                  </details>
                ) : (
                  <Badge tone={SYNC_STATE_TEXT[d.sync.state].tone}>{SYNC_STATE_TEXT[d.sync.state].text}</Badge>
                )}
              </td>
              <td data-testid="registry-commissioning">
                <CommissioningCell commissioning={d.commissioning} />
              </td>
              <td data-testid="registry-observed">{d.sync.lastObservedAt ? dateTimeText(d.sync.lastObservedAt) : <span className="muted">Never</span>}</td>
              <td className="actions-col">
                <ActionButton variant="quiet" capability="devices.write" onClick={() => setEditing(d.serialNumber)}>
                  Edit
                </ActionButton>
              </td>
            </tr>
          )
        }
        empty={search ? `No device matches “${search}”.` : 'No devices registered yet.'}
        errorTitle="Could not load devices"
      />
    </section>
  );
}

function RegisterDevice({ onClose, onDone }: CreateFormHandlers) {
  const [serialNumber, setSerialNumber] = useState('');
  const [name, setName] = useState('');
  const [image, setImage] = useState<string | null>(null);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const local: Record<string, string> = {};
  if (serialNumber.trim() === '') local.serialNumber = 'Enter the serial number printed on the device.';
  if (name.trim() === '') local.name = 'Give the device a name, e.g. “Crane 2 remote”.';
  const shown = { ...(tried ? local : {}), ...errors };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(local).length > 0 || busy) return;
    setBusy(true);
    try {
      const device = await client().call('devices.register', { serialNumber: serialNumber.trim(), name: name.trim(), deviceImage: image });
      notify('success', `${device.serialNumber} registered as ${device.deviceType}.`);
      onDone();
    } catch (err) {
      const byField: Record<string, string> = {};
      for (const v of violationsOf(err)) byField[v.field.split('.')[0] || 'serialNumber'] ??= v.message;
      setErrors(Object.keys(byField).length > 0 ? byField : { serialNumber: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel create-form" onSubmit={(e) => void submit(e)} aria-label="Register a device" noValidate>
      <div className="form-grid">
        <TextField label="Serial number" name="registerSerial" value={serialNumber} onChange={(v) => { setSerialNumber(v); setErrors({}); }} error={shown.serialNumber} />
        <TextField label="Name" name="registerName" value={name} onChange={(v) => { setName(v); setErrors({}); }} error={shown.name} />
        <ImagePicker label="Image (optional)" onPicked={setImage} />
      </div>
      {shown.deviceImage ? <Callout tone="bad">{shown.deviceImage}</Callout> : null}
      <FormActions submitLabel={busy ? 'Registering…' : 'Register'} busy={busy} onCancel={onClose} />
    </form>
  );
}

function EditDeviceRow({ device, onClose, onDone }: { device: RegisteredDeviceView; onClose(): void; onDone(): void }) {
  const [name, setName] = useState(device.name);
  const [image, setImage] = useState<string | null>(null);
  const { busy, error, run } = useBusyAction();
  const nameError = name.trim() === '' ? 'The name cannot be empty.' : null;

  const save = (change: { name?: string; deviceImage?: string; deleteImage?: boolean }) =>
    run(async () => {
      await client().call('devices.update', { serialNumber: device.serialNumber, ...change });
      notify('success', `${device.serialNumber} updated.`);
      onDone();
    });

  return (
    <tr className="row--editing">
      <td colSpan={10}>
        <div className="inline-editor">
          <span className="mono strong">{device.serialNumber}</span>
          <TextField label="Name" name="editName" value={name} onChange={setName} error={nameError} />
          <ImagePicker label="Replace image" onPicked={setImage} />
          <div className="form-actions">
            <button
              type="button"
              className="button button--primary"
              aria-disabled={busy || nameError !== null}
              onClick={() => {
                if (busy || nameError) return;
                const change: { name?: string; deviceImage?: string } = {};
                if (name.trim() !== device.name) change.name = name.trim();
                if (image) change.deviceImage = image;
                if (Object.keys(change).length === 0) onClose();
                else void save(change);
              }}
            >
              Save
            </button>
            <button type="button" className="button button--quiet" disabled={!device.hasImage || busy} onClick={() => void save({ deleteImage: true })}>
              Delete image
            </button>
            <button type="button" className="button button--quiet" onClick={onClose}>
              Cancel
            </button>
          </div>
          {error ? <Callout tone="bad">{error}</Callout> : null}
        </div>
      </td>
    </tr>
  );
}
