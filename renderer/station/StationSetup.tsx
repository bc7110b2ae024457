import { useState } from 'react';
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
const FIRMWARE_OPTIONS: { value: StationFirmwarePolicy; label: string }[] = [
  { value: 'latest', label: 'Latest, when behind' },
  { value: 'keep', label: 'Keep (configuration only)' },
];
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
  const { filters, setFilter, page, setPage } = useListFilters({ search: '' });
  const search = filters.search.trim();
  const configurations = useQuery('configurations.list', { search: search || undefined, sortOptions: 'ConfigNameASC', page, limit: PAGE_SIZE });
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
  const options = (found?.items ?? []).map((c) => ({ value: c.name, label: `${c.name} (${c.devices.length} devices)` }));
  // The chosen one stays offered while another search or page is shown, so the choice is never lost from view.
  if (name && !options.some((o) => o.value === name)) options.unshift({ value: name, label: name });

  const start = async () => {
    setError(null);
    setOperatorError(operator.trim() === '' ? "Type your name: the shift's confirmation names the person who gives it." : null);
    setChecksumError(checksum.trim() === '' ? 'Type the configuration checksum shown under the table.' : null);
    if (operator.trim() === '' || checksum.trim() === '') return;
    setBusy(true);
    try {
      const view = await client().call('station.start', { configurationName: name, lanes: Number(lanes), firmware, operator: operator.trim(), checksum });
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
      aria-label="Start the station"
      onSubmit={(e) => {
        e.preventDefault();
        if (name && shown && !busy) void start();
      }}
    >
      <TextField
        label="Find a configuration"
        type="search"
        value={filters.search}
        onChange={setFilter('search')}
        hint={searchHint(found?.totalCount, search)}
      />
      <SelectField
        label="Configuration"
        value={name}
        options={options}
        emptyLabel={found && found.totalCount > PAGE_SIZE ? `Choose one of ${found.totalCount}…` : 'Choose a configuration…'}
        onChange={(v) => setName(v)}
        error={configurations.error}
        hint={found && found.totalCount > PAGE_SIZE ? 'More than one page: find it by name, or page below' : undefined}
      />
      <SelectField label="Lanes" value={lanes} options={LANE_OPTIONS} onChange={(v) => setLanes(v || '4')} hint="Devices provisioned at once" />
      <SelectField label="Firmware" value={firmware} options={FIRMWARE_OPTIONS} onChange={(v) => setFirmware((v || 'latest') as StationFirmwarePolicy)} />
      {found && found.totalCount > PAGE_SIZE ? (
        <div className="station-setup__pages">
          <Pager page={found.page} limit={found.limit} totalCount={found.totalCount} onPage={setPage} />
        </div>
      ) : null}
      {name !== '' && parameters.error ? <Callout tone="bad">{parameters.error}</Callout> : null}
      {name !== '' && !shown && !parameters.error ? <p className="muted station-setup__wide">Reading the parameters of “{name}”…</p> : null}
      {shown ? (
        <div className="station-setup__wide">
          <ShiftParameters view={shown} />
        </div>
      ) : null}
      <div className="station-setup__confirm">
        <TextField label="Your name (operator)" value={operator} onChange={setOperator} autoComplete="name" error={operatorError} hint="Named in the shift's record" />
        <TextField label="Configuration checksum" value={checksum} onChange={setChecksum} error={checksumError} hint="The 8 hex digits under the table" />
        <ActionButton
          type="submit"
          variant="primary"
          capability="files.download"
          busy={busy}
          disabledReason={name ? (shown ? null : 'Wait for the parameters to be shown.') : 'Choose a configuration first.'}
          showReason
          onClick={() => undefined}
        >
          {busy ? 'Starting…' : 'Start station'}
        </ActionButton>
      </div>
      {error ? <Callout tone="bad">{error}</Callout> : null}
    </form>
  );
}

/** Under the search box: what to type, or what the service found for it. */
function searchHint(totalCount: number | undefined, search: string): string {
  if (totalCount === undefined) return 'Part of its name';
  if (totalCount === 0) return search ? `No configuration's name contains “${search}”.` : 'This organization has no configuration yet: design one first.';
  if (!search) return 'Part of its name';
  return `${totalCount} configuration${totalCount === 1 ? '' : 's'} found`;
}
