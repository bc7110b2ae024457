import { useState } from 'react';
import type { StationFirmwarePolicy, StationView } from '../../contract/index';
import { client, errorText } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { SelectField } from '../components/fields';
import { Callout } from '../components/misc';

/** The contract's STATION_MAX_LANES (the renderer takes types only from the contract); the core checks it. */
const MAX_LANES = 16;
const LANE_OPTIONS = Array.from({ length: MAX_LANES }, (_, i) => ({ value: String(i + 1), label: String(i + 1) }));
const FIRMWARE_OPTIONS: { value: StationFirmwarePolicy; label: string }[] = [
  { value: 'latest', label: 'Latest, when behind' },
  { value: 'keep', label: 'Keep (configuration only)' },
];

/** Which configuration the station provisions, with how many lanes, and whether firmware is updated. */
export function StationSetup({ onStarted }: { onStarted(view: StationView): void }) {
  const configurations = useQuery('configurations.list', { limit: 30 });
  const [name, setName] = useState('');
  const [lanes, setLanes] = useState('4');
  const [firmware, setFirmware] = useState<StationFirmwarePolicy>('latest');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const options = (configurations.data?.items ?? []).map((c) => ({ value: c.name, label: `${c.name} (${c.devices.length} devices)` }));

  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      onStarted(await client().call('station.start', { configurationName: name, lanes: Number(lanes), firmware }));
    } catch (err) {
      setError(errorText(err));
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
        if (name && !busy) void start();
      }}
    >
      <SelectField label="Configuration" value={name} options={options} emptyLabel="Choose a configuration…" onChange={(v) => setName(v)} error={configurations.error} />
      <SelectField label="Lanes" value={lanes} options={LANE_OPTIONS} onChange={(v) => setLanes(v || '4')} hint="Devices provisioned at once" />
      <SelectField label="Firmware" value={firmware} options={FIRMWARE_OPTIONS} onChange={(v) => setFirmware((v || 'latest') as StationFirmwarePolicy)} />
      <ActionButton type="submit" variant="primary" capability="files.download" busy={busy} disabledReason={name ? null : 'Choose a configuration first.'} showReason onClick={() => undefined}>
        {busy ? 'Starting…' : 'Start station'}
      </ActionButton>
      {error ? <Callout tone="bad">{error}</Callout> : null}
    </form>
  );
}
