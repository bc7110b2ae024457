import { useState, type FormEvent } from 'react';
import { CONFIGURATION_SORT_OPTIONS, type ConfigurationSortOption } from '../../domain/enums';
import { configurationCreateSchema } from '../../domain/configuration';
import { parsePayload } from '../../domain/parse';
import { client, errorText, violationsOf } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { SelectField, TextField } from '../components/fields';
import { Callout, EmptyRow, ScreenHeader } from '../components/misc';
import { Pager } from '../components/Pager';
import { ConfigurationDesigner } from '../designer/ConfigurationDesigner';
import { dateTimeText } from '../format/units';
import { useNavigation } from '../stores/navigation';
import { notify } from '../stores/notices';
import { useCapability } from '../stores/session';

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
  const [search, setSearch] = useState('');
  const [sort, setSort] = useState<ConfigurationSortOption>('LastEditedDESC');
  const [page, setPage] = useState(1);
  const [creating, setCreating] = useState(false);
  const open = useNavigation((s) => s.openConfiguration);
  const write = useCapability('configurations.write');
  const list = useQuery('configurations.list', { search: search.trim() || undefined, sortOptions: sort, page, limit: PAGE_SIZE });

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader
        title="Configurations"
        note={!write.allowed ? <span className="muted">{write.reason}</span> : undefined}
      >
        <ActionButton variant="primary" capability="configurations.write" onClick={() => setCreating(true)}>
          New configuration
        </ActionButton>
      </ScreenHeader>
      {creating ? (
        <CreateConfiguration
          onCancel={() => setCreating(false)}
          onCreated={(id) => {
            setCreating(false);
            open(id);
          }}
        />
      ) : null}
      <div className="toolbar">
        <TextField
          className="toolbar__search"
          label="Search by name"
          type="search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          reserveMessage={false}
        />
        <SelectField
          label="Sort"
          value={sort}
          options={CONFIGURATION_SORT_OPTIONS.map((value) => ({ value, label: SORT_LABELS[value] }))}
          onChange={(v) => v && setSort(v)}
          reserveMessage={false}
        />
      </div>
      {list.error ? <Callout tone="bad" title="Could not load configurations">{list.error}</Callout> : null}
      <table className="table" aria-busy={list.loading}>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col" className="num">Devices</th>
            <th scope="col">Last edited</th>
            <th scope="col" className="actions-col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((c) => (
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
              </td>
            </tr>
          ))}
          {list.data && list.data.items.length === 0 ? (
            <EmptyRow columns={4}>{search ? `No configuration matches “${search}”.` : 'No configurations yet.'}</EmptyRow>
          ) : null}
        </tbody>
      </table>
      {list.data ? <Pager page={list.data.page} limit={list.data.limit} totalCount={list.data.totalCount} onPage={setPage} /> : null}
    </section>
  );
}

function CreateConfiguration({ onCancel, onCreated }: { onCancel(): void; onCreated(id: string): void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
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
    <form className="panel create-form" onSubmit={(e) => void submit(e)} aria-label="New configuration">
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
      <div className="form-actions">
        <button type="submit" className="button button--primary" aria-disabled={busy}>
          {busy ? 'Creating…' : 'Create and open'}
        </button>
        <button type="button" className="button button--quiet" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
