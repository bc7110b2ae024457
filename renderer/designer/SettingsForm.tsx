import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { Region } from '../../domain/enums';
import type { ConfigurationView } from '../../contract/index';
import { client } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { SelectField, TextField } from '../components/fields';
import { Callout, ViolationList } from '../components/misc';
import { notify } from '../stores/notices';
import { useCapability } from '../stores/session';
import { CAN_BITRATE_OPTIONS, CAN_MODE_OPTIONS, ISM_POWER_OPTIONS, RECEIVER_OUTPUT_OPTIONS, TIMEOUT_OPTIONS } from './options';
import { SETTING_FIELDS, checkSettingsDraft, draftFromSettings, type SettingField, type SettingsDraft } from './settings-draft';
import { saveAfterDryRun } from './save-after-dry-run';
import { placeViolations } from './violations';
import { WarningList } from './WarningList';
import type { Violation } from '../../domain/violations';

interface Props {
  configuration: ConfigurationView;
  region: Region;
  onSaved(): void;
  /** Told the edits not saved yet and what the domain finds wrong with them (null: nothing edited). */
  onUnsavedChange?(unsaved: { violations: readonly Violation[] } | null): void;
}

/**
 * The configuration's own settings. Every keystroke is checked with the domain's rules and the
 * message shows under the field at once; Save first asks the service with dryRun (it knows things
 * the renderer does not, such as other configurations), and writes only when that is clean. Our
 * own rules show as warnings beside them and stop nothing.
 */
export function SettingsForm({ configuration, region, onSaved, onUnsavedChange }: Props) {
  const write = useCapability('configurations.write');
  const [draft, setDraft] = useState<SettingsDraft>(() => draftFromSettings(configuration));
  const [serviceViolations, setServiceViolations] = useState<Violation[]>([]);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    setDraft(draftFromSettings(configuration));
  }, [configuration]);

  const deviceTypes = useMemo(() => configuration.devices.map((d) => d.deviceType), [configuration.devices]);
  const check = checkSettingsDraft(draft, configuration, { region, deviceTypes });
  const all = [...check.violations, ...serviceViolations.filter((sv) => !check.violations.some((v) => v.field === sv.field))];
  const { byField, unplaced } = placeViolations(all, SETTING_FIELDS);
  const unsavedKey = check.changed ? JSON.stringify([check.patch, check.violations.map((v) => v.message)]) : '';
  useEffect(() => {
    onUnsavedChange?.(check.changed ? { violations: check.violations } : null);
    // The key stands for check's content (a new object each render), so the parent hears a change once.
  }, [unsavedKey, onUnsavedChange]);

  const set = (field: SettingField) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setServiceViolations((vs) => vs.filter((v) => !v.field.startsWith(field)));
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!write.allowed || busy || !check.changed || check.violations.length > 0) return;
    setBusy(true);
    setServiceError(null);
    try {
      const write = (dryRun: boolean) => client().call('configurations.update', { id: configuration.id, settings: check.patch, dryRun });
      if (!(await saveAfterDryRun(write, { setServiceViolations, setServiceError }))) return;
      setServiceViolations([]);
      notify('success', 'Settings saved.');
      onSaved();
    } finally {
      setBusy(false);
    }
  };

  const j1939 = draft.canMode === 'j1939';
  const readOnly = !write.allowed;
  const saveReason = readOnly
    ? null
    : check.violations.length > 0
      ? 'Fix the fields marked in red first.'
      : !check.changed
        ? 'Nothing changed yet.'
        : null;

  return (
    <form className="panel" onSubmit={(e) => void save(e)} aria-labelledby="settings-title" noValidate>
      <div className="panel__header">
        <h2 id="settings-title">Settings</h2>
        <span className="muted">Region {region === 'EU' ? 'Europe (ISM channel 1)' : 'North America (ISM channels 1–21)'}</span>
      </div>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">General</legend>
        <TextField label="Name" name="name" value={draft.name} onChange={set('name')} error={byField.name} className="span-2" />
        <SelectField label="Safety timeout" name="timeoutConfiguration" value={draft.timeoutConfiguration as never} options={TIMEOUT_OPTIONS} emptyLabel={configuration.timeoutConfiguration ? undefined : 'Not set'} onChange={set('timeoutConfiguration')} error={byField.timeoutConfiguration} hint="How long receivers wait for a sender before they stop." />
        <SelectField label="Receiver output control" name="receiverOutputControl" value={draft.receiverOutputControl as never} options={RECEIVER_OUTPUT_OPTIONS} emptyLabel={configuration.receiverOutputControl ? undefined : 'Not set'} onChange={set('receiverOutputControl')} error={byField.receiverOutputControl} hint="Which receiver output the sender controls." />
      </fieldset>
      <h3 className="form-section">ISM radio</h3>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">ISM radio</legend>
        <TextField label="ISM channel" name="ismTxChannel" inputMode="numeric" value={draft.ismTxChannel} onChange={set('ismTxChannel')} error={byField.ismTxChannel} hint={region === 'EU' ? 'Europe: channel 1 only.' : 'North America: 1 to 21.'} />
        <SelectField label="ISM transmit power" name="ismTxPower" value={draft.ismTxPower as never} options={ISM_POWER_OPTIONS} emptyLabel={configuration.ismTxPower ? undefined : 'Not set'} onChange={set('ismTxPower')} error={byField.ismTxPower} />
        <TextField label="ISM network id" name="ismNetworkId" inputMode="numeric" value={draft.ismNetworkId} onChange={set('ismNetworkId')} error={byField.ismNetworkId} />
      </fieldset>
      <h3 className="form-section">CAN bus</h3>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">CAN bus</legend>
        <SelectField label="CAN mode" name="canMode" value={draft.canMode as never} options={CAN_MODE_OPTIONS} emptyLabel={configuration.canMode ? undefined : 'Not set'} onChange={set('canMode')} error={byField.canMode} />
        <SelectField label="CAN bitrate" name="canKBitrate" value={draft.canKBitrate as never} options={CAN_BITRATE_OPTIONS} emptyLabel={configuration.canKBitrate ? undefined : 'Not set'} onChange={set('canKBitrate')} error={byField.canKBitrate} hint="EPC and NSCP take 250 or 500 kbit/s." />
        <TextField label="Approved source addresses" name="approvedSourceAddresses" value={draft.approvedSourceAddresses} onChange={set('approvedSourceAddresses')} error={byField.approvedSourceAddresses} hint="CAN node ids 0–255, separated by commas." />
        <TextField label="Display text PGN" name="displayTextPgn" value={draft.displayTextPgn} onChange={set('displayTextPgn')} error={byField.displayTextPgn} disabled={!j1939 && draft.displayTextPgn === ''} hint={j1939 ? '0xFF00–0xFFFF; 65281 (0xFF01) when empty.' : 'Only with CAN mode J1939.'} />
        <TextField label="Settings PGN" name="settingsPgn" value={draft.settingsPgn} onChange={set('settingsPgn')} error={byField.settingsPgn} disabled={!j1939 && draft.settingsPgn === ''} hint={j1939 ? '0xFF00–0xFFFF; 65282 (0xFF02) when empty.' : 'Only with CAN mode J1939.'} />
      </fieldset>
      <h3 className="form-section">IP network</h3>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">IP network</legend>
        <TextField label="Starting IP address" name="startingIpAddress" value={draft.startingIpAddress} onChange={set('startingIpAddress')} error={byField.startingIpAddress} hint="Devices on Ethernet or Wifi without an address get the next free one from here." />
      </fieldset>
      <ViolationList title="The service reports" violations={unplaced} />
      <WarningList title="Warnings (saving is still possible)" warnings={check.warnings} />
      {serviceError ? <Callout tone="bad" title="Not saved">{serviceError}</Callout> : null}
      <div className="form-actions">
        <ActionButton type="submit" variant="primary" capability="configurations.write" disabledReason={saveReason} busy={busy} onClick={() => undefined} name="saveSettings">
          {busy ? 'Checking with the service…' : 'Save settings'}
        </ActionButton>
        <button type="button" className="button button--quiet" disabled={!check.changed} onClick={() => setDraft(draftFromSettings(configuration))}>
          Undo changes
        </button>
        <span className="muted form-actions__note" aria-live="polite">
          {check.changed ? (check.violations.length > 0 ? `${check.violations.length} field${check.violations.length === 1 ? '' : 's'} to fix` : 'Unsaved changes') : 'Saved'}
        </span>
      </div>
    </form>
  );
}
