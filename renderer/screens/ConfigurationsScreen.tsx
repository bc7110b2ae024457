import { useRef, useState, type FormEvent } from 'react';
import { CONFIGURATION_SORT_OPTIONS, type ConfigurationSortOption } from '../../domain/enums';
import { configurationCreateSchema } from '../../domain/configuration';
import { parsePayload } from '../../domain/parse';
import { client, errorText, violationsOf } from '../api/client';
import { useQuery } from '../api/use-query';
import { SelectField, TextField } from '../components/fields';
import { FormActions } from '../components/FormActions';
import { ACTIONS_COLUMN, ListTable, pagedListOf } from '../components/ListTable';
import { ListScreenHeader } from '../components/ListScreenHeader';
import { useFocusOnOpen } from '../components/use-focus-on-open';
import { useListFilters } from '../components/use-list-filters';
import { ConfigurationDesigner } from '../designer/ConfigurationDesigner';
import { WorkPackageButton } from '../packages/WorkPackageButton';
import { CommissioningReportButton } from '../accountability/CommissioningReportButton';
import { dateTimeText } from '../format/units';
import { useNavigation } from '../stores/navigation';
import { notify } from '../stores/notices';

const SORT_LABELS: Record<ConfigurationSortOption, string> = {
  LastEditedDESC: 'Last edited, newest first',
  LastEditedASC: 'Last edited, oldest first',
  ConfigNameASC: 'Name, A to Z',
  ConfigNameDESC: 'Name, Z to A',
};
const PAGE_SIZE = 15;

export function ConfigurationsScreen() {
  const openId = useNavigation((s) => s.configurationId);
  return openId ? <ConfigurationDesigner key={openId} id={openId} /> : <ConfigurationList />;
}

function ConfigurationList() {
  const { filters, setFilter, page, setPage } = useListFilters({ search: '' });
  const { search } = filters;
  const [sort, setSort] = useState<ConfigurationSortOption>('LastEditedDESC');
  const open = useNavigation((s) => s.openConfiguration);
  const deviceToAdd = useNavigation((s) => s.deviceToAdd);
  const list = useQuery('configurations.list', { search: search.trim() || undefined, sortOptions: sort, page, limit: PAGE_SIZE });

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader
        title="Configurations"
        capability="configurations.write"
        actionLabel="New configuration"
        explainRefusal
        form={({ onClose }) => (
          <CreateConfiguration
            onCancel={onClose}
            onCreated={(id) => {
              onClose();
              open(id);
            }}
          />
        )}
      />
      {deviceToAdd ? (
        <p className="callout callout--info" role="status">
          Open the configuration {deviceToAdd} goes into: its add form opens with {deviceToAdd} filled in.
        </p>
      ) : null}
      <div className="toolbar">
        <TextField className="toolbar__search" label="Search by name" type="search" value={search} onChange={setFilter('search')} reserveMessage={false} />
        <SelectField label="Sort" value={sort} options={CONFIGURATION_SORT_OPTIONS.map((value) => ({ value, label: SORT_LABELS[value] }))} onChange={(v) => v && setSort(v)} reserveMessage={false} />
      </div>
      <ListTable
        columns={['Name', { label: 'Devices', className: 'num' }, 'Last edited', ACTIONS_COLUMN]}
        {...pagedListOf(list, setPage)}
        row={(c) => (
          <tr key={c.id}>
            <td>
              <button type="button" className="link" onClick={() => open(c.id)}>
                {c.name}
              </button>
            </td>
            <td className="num">{c.devices.length}</td>
            <td>{dateTimeText(c.lastEditedAt)}</td>
            <td className="actions-col">
              <button type="button" className="button button--quiet" onClick={() => open(c.id)} aria-label={`Open ${c.name}`}>
                Open
              </button>
              <WorkPackageButton configurationId={c.id} configurationName={c.name} />
              <CommissioningReportButton configurationId={c.id} configurationName={c.name} />
            </td>
          </tr>
        )}
        empty={search ? `No configuration matches “${search}”.` : 'No configurations yet.'}
        errorTitle="Could not load configurations"
      />
    </section>
  );
}

function CreateConfiguration({ onCancel, onCreated }: { onCancel(): void; onCreated(id: string): void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnOpen(formRef);
  const check = parsePayload(configurationCreateSchema, { name });
  const nameError = touched && !check.ok ? (check.violations[0]?.message ?? null) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!check.ok || busy) return;
    setBusy(true);
    setServiceError(null);
    try {
      const created = await client().call('configurations.create', { settings: { name: check.value.name } });
      if (created.value) {
        notify('success', `Configuration “${created.value.name}” created.`);
        onCreated(created.value.id);
      } else {
        setServiceError(created.violations.map((v) => v.message).join(' '));
      }
    } catch (err) {
      setServiceError(violationsOf(err)[0]?.message ?? errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form ref={formRef} className="panel create-form" onSubmit={(e) => void submit(e)} aria-label="New configuration">
      <TextField
        label="Name of the new configuration"
        name="newConfigurationName"
        value={name}
        onChange={(v) => {
          setName(v);
          setTouched(true);
        }}
        error={nameError ?? serviceError}
        hint="e.g. Line 3 — SRCP to EPC over ISM. The designer opens next."
      />
      <FormActions submitLabel={busy ? 'Creating…' : 'Create and open'} busy={busy} onCancel={onCancel} />
    </form>
  );
}
