import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { StationFirmwarePolicy, StationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { SelectField, TextField } from '../components/fields';
import { Callout } from '../components/misc';
import { Pager } from '../components/Pager';
import { useListFilters } from '../components/use-list-filters';
import { useTechnician } from '../stores/technician';
import { ShiftParameters } from './ShiftParameters';

/** The contract's STATION_MAX_LANES (the renderer takes types only from the contract); the core checks it. */
const MAX_LANES = 16;
const LANE_OPTIONS = Array.from({ length: MAX_LANES }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
/** Configurations offered at once (the service's largest page); the rest are found by name or by page. */
const PAGE_SIZE = 30;

/**
 * Which configuration the station provisions, with how many lanes, and whether firmware is updated;
 * then the configuration's parameters and checksum, which the operator confirms by typing the
 * checksum's short form with their name to start the shift (issue 26; the core takes only the right one).
 * An organization may hold hundreds of configurations: the list offers one page of them by name,
 * the search box asks the service for the names that contain what is typed, and the pager walks
 * the rest. Every control is a native one, so the keyboard reaches and works each.
 */
export function StationSetup({ onStarted }: { onStarted(view: StationView): void }) {
  const { t } = useTranslation();
  const { filters, setFilter, page, setPage } = useListFilters({ search: '' });
  const firmwareOptions: { value: StationFirmwarePolicy; label: string }[] = [
    { value: 'latest', label: t('station:setup.firmwareLatest') },
    { value: 'keep', label: t('station:setup.firmwareKeep') },
  ];
  const search = filters.search.trim();
  const configurations = useQuery('configurations.list', {
    search: search || undefined,
    sortOptions: 'ConfigNameASC',
    page,
    limit: PAGE_SIZE,
  });
  const [name, setName] = useState('');
  const [lanes, setLanes] = useState('4');
  const [firmware, setFirmware] = useState<StationFirmwarePolicy>('latest');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const keptOperator = useTechnician((s) => s.name);
  const keepOperator = useTechnician((s) => s.setName);
  const [operator, setOperator] = useState(keptOperator);
  const [checksum, setChecksum] = useState('');
  const [operatorError, setOperatorError] = useState<string | null>(null);
  const [checksumError, setChecksumError] = useState<string | null>(null);
  const parameters = useQuery('station.parameters', { configurationName: name }, name !== '');
  const shown = name !== '' && parameters.data?.configurationName === name ? parameters.data : null;
  const found = configurations.data;
  const options = (found?.items ?? []).map((c) => ({
    value: c.name,
    label: t('station:setup.configurationOption', { name: c.name, count: c.devices.length }),
  }));
  // The chosen one stays offered while another search or page is shown, so the choice is never lost from view.
  if (name && !options.some((o) => o.value === name)) options.unshift({ value: name, label: name });

  const start = async () => {
    setError(null);
    setOperatorError(operator.trim() === '' ? t('station:setup.operatorMissing') : null);
    setChecksumError(checksum.trim() === '' ? t('station:setup.checksumMissing') : null);
    if (operator.trim() === '' || checksum.trim() === '') return;
    setBusy(true);
    try {
      const view = await client().call('station.start', {
        configurationName: name,
        lanes: Number(lanes),
        firmware,
        operator: operator.trim(),
        checksum,
      });
      keepOperator(operator);
      onStarted(view);
    } catch (err) {
      const text = errorText(err);
      // A wrong checksum is said at the field it was typed in; anything else under the form.
      if (/checksum/i.test(text)) setChecksumError(text);
      else setError(text);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="station-setup"
      aria-label={t('station:setup.label')}
      onSubmit={(e) => {
        e.preventDefault();
        if (name && shown && !busy) void start();
      }}
    >
      <TextField
        label={t('station:setup.find')}
        type="search"
        value={filters.search}
        onChange={setFilter('search')}
        hint={searchHint(t, found?.totalCount, search)}
      />
      <SelectField
        label={t('station:setup.configuration')}
        value={name}
        options={options}
        emptyLabel={
          found && found.totalCount > PAGE_SIZE
            ? t('station:setup.chooseOneOf', { count: found.totalCount })
            : t('station:setup.choose')
        }
        onChange={(v) => setName(v)}
        error={configurations.error}
        hint={found && found.totalCount > PAGE_SIZE ? t('station:setup.morePages') : undefined}
      />
      <SelectField
        label={t('station:setup.lanes')}
        value={lanes}
        options={LANE_OPTIONS}
        onChange={(v) => setLanes(v || '4')}
        hint={t('station:setup.lanesHint')}
      />
      <SelectField
        label={t('station:setup.firmware')}
        value={firmware}
        options={firmwareOptions}
        onChange={(v) => setFirmware((v || 'latest') as StationFirmwarePolicy)}
      />
      {found && found.totalCount > PAGE_SIZE ? (
        <div className="station-setup__pages">
          <Pager page={found.page} limit={found.limit} totalCount={found.totalCount} onPage={setPage} />
        </div>
      ) : null}
      {name !== '' && parameters.error ? <Callout tone="bad">{parameters.error}</Callout> : null}
      {name !== '' && !shown && !parameters.error ? (
        <p className="muted station-setup__wide">{t('station:setup.readingParameters', { name })}</p>
      ) : null}
      {shown ? (
        <div className="station-setup__wide">
          <ShiftParameters view={shown} />
        </div>
      ) : null}
      <div className="station-setup__confirm">
        <TextField
          label={t('station:setup.operator')}
          value={operator}
          onChange={setOperator}
          autoComplete="name"
          error={operatorError}
          hint={t('station:setup.operatorHint')}
        />
        <TextField
          label={t('station:setup.checksum')}
          value={checksum}
          onChange={setChecksum}
          error={checksumError}
          hint={t('station:setup.checksumHint')}
        />
        <ActionButton
          type="submit"
          variant="primary"
          capability="files.download"
          busy={busy}
          disabledReason={name ? (shown ? null : t('station:setup.waitForParameters')) : t('station:setup.chooseFirst')}
          showReason
          onClick={() => undefined}
        >
          {busy ? t('station:setup.starting') : t('station:setup.start')}
        </ActionButton>
      </div>
      {error ? <Callout tone="bad">{error}</Callout> : null}
    </form>
  );
}

/** Under the search box: what to type, or what the service found for it. */
function searchHint(t: TFunction, totalCount: number | undefined, search: string): string {
  if (totalCount === undefined) return t('station:setup.findHint');
  if (totalCount === 0)
    return search ? t('station:setup.noneContains', { search }) : t('station:setup.noConfiguration');
  if (!search) return t('station:setup.findHint');
  return t('station:setup.found', { count: totalCount });
}
