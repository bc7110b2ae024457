import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeployStatus } from '../../domain/enums';
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
import { useDebounced } from '../components/use-debounced';
import { DateTime } from '../components/DateText';
import { useTranslator } from '../i18n/I18nProvider';
import { syncDetailText } from '../../domain/sync-detail';
import { commissioningCellText } from './commissioning-text';
import { violationText } from '../components/violation-text';
import { notify } from '../stores/notices';

const PAGE_SIZE = 15;

/** A deploy status's tone; its words are `screens:devices.deploy.<status>`. */
export const DEPLOY_STATUS_TONE: Record<DeployStatus, Tone> = {
  NotDeployed: 'neutral',
  Outdated: 'warn',
  Deployed: 'ok',
  Failed: 'bad',
};

/** How a device stands against the service (the states `provisioner device list` uses); words: `screens:devices.sync.<state>`. */
export const SYNC_STATE_TONE: Record<DeviceSyncView['state'], Tone> = {
  'in-sync': 'ok',
  behind: 'warn',
  drift: 'warn',
  unconfigured: 'neutral',
  unknown: 'neutral',
};

/** Whether a device in a configuration is commissioned and, when not, the step it needs next (issue 26). */
function CommissioningCell({ commissioning }: { commissioning: CommissioningView | null }) {
  const words = useTranslator();
  if (commissioning === null) return <span className="muted">—</span>;
  const tone: Tone =
    commissioning.state === 'commissioned'
      ? 'ok'
      : commissioning.state === 'not-commissioned' || commissioning.state === 'parameters-differ'
        ? 'bad'
        : 'warn';
  const text = commissioningCellText(commissioning, words);
  return (
    <span title={text.detail}>
      <Badge tone={tone}>{text.short}</Badge>
    </span>
  );
}

/** The organization's registry of devices. */
export function DevicesScreen() {
  const { filters, setFilter, page, setPage } = useListFilters({ search: '', configurableOnly: false });
  const { search, configurableOnly } = filters;
  const [editing, setEditing] = useState<string | null>(null);
  // The service searches and pages (at a million devices it is the only place that can); the
  // search goes once typing pauses, and useQuery drops an answer overtaken by a newer request. The
  // table draws one page: its rows stay bounded however large the organization.
  const searched = useDebounced(search.trim());
  const list = useQuery('devices.list', {
    search: searched || undefined,
    configurableOnly: configurableOnly || undefined,
    page,
    limit: PAGE_SIZE,
  });
  const { t } = useTranslation();
  // Why a device is not in sync: what the core found (findings), said in the reader's language. A
  // view without findings (an older core) has only the English sentence: English shows it; other
  // languages say the state in their own words and keep the sentence, marked as English.
  const translator = useTranslator();
  const english = translator.language === 'en';
  const syncWhy = (sync: DeviceSyncView) =>
    sync.findings
      ? syncDetailText(sync.findings, translator)
      : english
        ? sync.text
        : t(`screens:devices.syncWhy.${sync.state}`);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader
        title={t('screens:devices.title')}
        capability="devices.write"
        actionLabel={t('screens:devices.register')}
        explainRefusal
        form={(handlers) => <RegisterDevice {...handlers} />}
        onDone={list.reload}
      />
      <div className="toolbar">
        <TextField
          className="toolbar__search"
          label={t('screens:devices.search')}
          type="search"
          value={search}
          onChange={setFilter('search')}
          reserveMessage={false}
        />
        <label className="checkbox toolbar__check">
          <input
            type="checkbox"
            checked={configurableOnly}
            onChange={(e) => setFilter('configurableOnly')(e.target.checked)}
          />
          <span>{t('screens:devices.onlyFree')}</span>
        </label>
      </div>
      <ListTable
        columns={[
          { label: t('screens:devices.column.image'), className: 'thumb-col', hidden: true },
          t('screens:devices.column.serialNumber'),
          t('screens:devices.column.name'),
          t('screens:devices.column.type'),
          t('screens:devices.column.firmware'),
          t('screens:devices.column.configuration'),
          t('screens:devices.column.deployStatus'),
          t('screens:devices.column.state'),
          t('screens:devices.column.commissioning'),
          t('screens:devices.column.lastObserved'),
          ACTIONS_COLUMN,
        ]}
        {...pagedListOf(list, setPage)}
        loading={list.loading || searched !== search.trim()}
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
              <td className="thumb-col">
                {d.deviceImage ? (
                  <img className="thumb" src={d.deviceImage} alt="" />
                ) : (
                  <span className="thumb thumb--empty" aria-hidden="true" />
                )}
              </td>
              <td className="mono" translate="no">
                {d.serialNumber}
              </td>
              <td translate="no">{d.name}</td>
              <td translate="no">
                <Badge>{d.deviceType}</Badge>
              </td>
              <td className="mono" data-testid="registry-firmware" translate="no">
                {d.firmwareVersion ?? <span className="muted">—</span>}
              </td>
              <td translate="no">{d.configurationName ?? <span className="muted">—</span>}</td>
              <td data-testid="registry-deploy">
                <Badge tone={DEPLOY_STATUS_TONE[d.deployStatus]}>{t(`screens:devices.deploy.${d.deployStatus}`)}</Badge>
              </td>
              <td data-testid="registry-sync" title={syncWhy(d.sync)}>
                {/* A short state keeps the row one line high; the why is there on a click (issue 32). */}
                {d.sync.state !== 'in-sync' ? (
                  <details className="registry-sync">
                    <summary
                      aria-label={t('screens:devices.sync.showWhy', {
                        state: t(`screens:devices.sync.${d.sync.state}`),
                      })}
                    >
                      <Badge tone={SYNC_STATE_TONE[d.sync.state]}>{t(`screens:devices.sync.${d.sync.state}`)}</Badge>
                    </summary>
                    <p className="muted registry-sync__why">
                      {english || d.sync.findings ? (
                        syncWhy(d.sync)
                      ) : (
                        <>
                          {t(`screens:devices.syncWhy.${d.sync.state}`)} {t('screens:devices.syncServiceSays')}{' '}
                          <span lang="en" translate="no">
                            {d.sync.text}
                          </span>
                        </>
                      )}
                    </p>
                  </details>
                ) : (
                  <Badge tone={SYNC_STATE_TONE[d.sync.state]}>{t(`screens:devices.sync.${d.sync.state}`)}</Badge>
                )}
              </td>
              <td data-testid="registry-commissioning">
                <CommissioningCell commissioning={d.commissioning} />
              </td>
              <td data-testid="registry-observed">
                {d.sync.lastObservedAt ? (
                  <DateTime iso={d.sync.lastObservedAt} />
                ) : (
                  <span className="muted">{t('screens:devices.never')}</span>
                )}
              </td>
              <td className="actions-col">
                <ActionButton variant="quiet" capability="devices.write" onClick={() => setEditing(d.serialNumber)}>
                  {t('screens:devices.edit')}
                </ActionButton>
              </td>
            </tr>
          )
        }
        empty={searched ? t('screens:devices.noneMatch', { search: searched }) : t('screens:devices.none')}
        errorTitle={t('screens:devices.loadFailed')}
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
  const { t } = useTranslation();
  const words = useTranslator();
  const local: Record<string, string> = {};
  if (serialNumber.trim() === '') local.serialNumber = t('screens:devices.problem.serialEmpty');
  if (name.trim() === '') local.name = t('screens:devices.problem.nameEmpty');
  const shown = { ...(tried ? local : {}), ...errors };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (Object.keys(local).length > 0 || busy) return;
    setBusy(true);
    try {
      const device = await client().call('devices.register', {
        serialNumber: serialNumber.trim(),
        name: name.trim(),
        deviceImage: image,
      });
      notify('success', t('screens:devices.registered', { serial: device.serialNumber, type: device.deviceType }));
      onDone();
    } catch (err) {
      const byField: Record<string, string> = {};
      for (const v of violationsOf(err)) byField[v.field.split('.')[0] || 'serialNumber'] ??= violationText(v, words);
      setErrors(Object.keys(byField).length > 0 ? byField : { serialNumber: errorText(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel create-form"
      onSubmit={(e) => void submit(e)}
      aria-label={t('screens:devices.registerForm')}
      noValidate
    >
      <div className="form-grid">
        <TextField
          label={t('screens:devices.serialNumber')}
          name="registerSerial"
          value={serialNumber}
          onChange={(v) => {
            setSerialNumber(v);
            setErrors({});
          }}
          error={shown.serialNumber}
        />
        <TextField
          label={t('screens:devices.name')}
          name="registerName"
          value={name}
          onChange={(v) => {
            setName(v);
            setErrors({});
          }}
          error={shown.name}
        />
        <ImagePicker label={t('screens:devices.image')} onPicked={setImage} />
      </div>
      {shown.deviceImage ? <Callout tone="bad">{shown.deviceImage}</Callout> : null}
      <FormActions
        submitLabel={busy ? t('screens:devices.registering') : t('screens:devices.registerSubmit')}
        busy={busy}
        onCancel={onClose}
      />
    </form>
  );
}

function EditDeviceRow({ device, onClose, onDone }: { device: RegisteredDeviceView; onClose(): void; onDone(): void }) {
  const [name, setName] = useState(device.name);
  const [image, setImage] = useState<string | null>(null);
  const { busy, error, run } = useBusyAction();
  const { t } = useTranslation();
  const nameError = name.trim() === '' ? t('screens:devices.problem.nameCleared') : null;

  const save = (change: { name?: string; deviceImage?: string; deleteImage?: boolean }) =>
    run(async () => {
      await client().call('devices.update', { serialNumber: device.serialNumber, ...change });
      notify('success', t('screens:devices.updated', { serial: device.serialNumber }));
      onDone();
    });

  return (
    <tr className="row--editing">
      <td colSpan={10}>
        <div className="inline-editor">
          <span className="mono strong" translate="no">
            {device.serialNumber}
          </span>
          <TextField
            label={t('screens:devices.name')}
            name="editName"
            value={name}
            onChange={setName}
            error={nameError}
          />
          <ImagePicker label={t('screens:devices.replaceImage')} onPicked={setImage} />
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
              {t('screens:devices.save')}
            </button>
            <button
              type="button"
              className="button button--quiet"
              disabled={!device.hasImage || busy}
              onClick={() => void save({ deleteImage: true })}
            >
              {t('screens:devices.deleteImage')}
            </button>
            <button type="button" className="button button--quiet" onClick={onClose}>
              {t('screens:form.cancel')}
            </button>
          </div>
          {error ? <Callout tone="bad">{error}</Callout> : null}
        </div>
      </td>
    </tr>
  );
}
