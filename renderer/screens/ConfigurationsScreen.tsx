import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
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
import { DateTime } from '../components/DateText';
import { violationText } from '../components/violation-text';
import { useTranslator } from '../i18n/I18nProvider';
import { useNavigation } from '../stores/navigation';
import { notify } from '../stores/notices';

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
  const list = useQuery('configurations.list', {
    search: search.trim() || undefined,
    sortOptions: sort,
    page,
    limit: PAGE_SIZE,
  });
  const { t } = useTranslation();

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader
        title={t('screens:configurations.title')}
        capability="configurations.write"
        actionLabel={t('screens:configurations.new')}
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
          {t('screens:configurations.deviceToAdd', { serial: deviceToAdd })}
        </p>
      ) : null}
      <div className="toolbar">
        <TextField
          className="toolbar__search"
          label={t('screens:configurations.search')}
          type="search"
          value={search}
          onChange={setFilter('search')}
          reserveMessage={false}
        />
        <SelectField
          label={t('screens:configurations.sort')}
          name="sort"
          value={sort}
          options={CONFIGURATION_SORT_OPTIONS.map((value) => ({
            value,
            label: t(`screens:configurations.sort.${value}`),
          }))}
          onChange={(v) => v && setSort(v)}
          reserveMessage={false}
        />
      </div>
      <ListTable
        columns={[
          t('screens:configurations.column.name'),
          { label: t('screens:configurations.column.devices'), className: 'num' },
          t('screens:configurations.column.lastEdited'),
          ACTIONS_COLUMN,
        ]}
        {...pagedListOf(list, setPage)}
        row={(c) => (
          <tr key={c.id}>
            <td translate="no">
              <button type="button" className="link" onClick={() => open(c.id)}>
                {c.name}
              </button>
            </td>
            <td className="num">{c.devices.length}</td>
            <td>
              <DateTime iso={c.lastEditedAt} />
            </td>
            <td className="actions-col">
              <button
                type="button"
                className="button button--quiet"
                onClick={() => open(c.id)}
                aria-label={t('screens:configurations.openNamed', { name: c.name })}
              >
                {t('screens:configurations.open')}
              </button>
              <WorkPackageButton configurationId={c.id} configurationName={c.name} />
              <CommissioningReportButton configurationId={c.id} configurationName={c.name} />
            </td>
          </tr>
        )}
        empty={search ? t('screens:configurations.noneMatch', { search }) : t('screens:configurations.none')}
        errorTitle={t('screens:configurations.loadFailed')}
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
  const { t } = useTranslation();
  const words = useTranslator();
  useFocusOnOpen(formRef);
  const check = parsePayload(configurationCreateSchema, { name });
  const firstProblem = !check.ok ? check.violations[0] : undefined;
  const nameError = touched && firstProblem ? violationText(firstProblem, words) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!check.ok || busy) return;
    setBusy(true);
    setServiceError(null);
    try {
      const created = await client().call('configurations.create', { settings: { name: check.value.name } });
      if (created.value) {
        notify('success', t('screens:configurations.created', { name: created.value.name }));
        onCreated(created.value.id);
      } else {
        setServiceError(created.violations.map((v) => violationText(v, words)).join(' '));
      }
    } catch (err) {
      const refused = violationsOf(err)[0];
      setServiceError(refused ? violationText(refused, words) : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      ref={formRef}
      className="panel create-form"
      onSubmit={(e) => void submit(e)}
      aria-label={t('screens:configurations.new')}
    >
      <TextField
        label={t('screens:configurations.newName')}
        name="newConfigurationName"
        value={name}
        onChange={(v) => {
          setName(v);
          setTouched(true);
        }}
        error={nameError ?? serviceError}
        hint={t('screens:configurations.newNameHint')}
      />
      <FormActions
        submitLabel={busy ? t('screens:configurations.creating') : t('screens:configurations.createAndOpen')}
        busy={busy}
        onCancel={onCancel}
      />
    </form>
  );
}
