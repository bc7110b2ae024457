import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../../domain/field-labels';
import type { Region } from '../../domain/enums';
import type { ConfigurationView } from '../../contract/index';
import { client } from '../api/client';
import { ActionButton } from '../components/ActionButton';
import { SelectField, TextField } from '../components/fields';
import { Callout, ViolationList } from '../components/misc';
import { notify } from '../stores/notices';
import { useCapability } from '../stores/session';
import { designerOptions } from './options';
import { inReaderLanguage } from '../components/violation-text';
import { useTranslator } from '../i18n/I18nProvider';
import {
  SETTING_FIELDS,
  checkSettingsDraft,
  draftFromSettings,
  type SettingField,
  type SettingsDraft,
} from './settings-draft';
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
  const { t } = useTranslation();
  const words = useTranslator();
  const options = useMemo(() => designerOptions(words), [words]);
  // A field is labelled as the domain names it in messages, so an error and its field agree.
  const label = (field: SettingField) => fieldLabel(field, words);

  useEffect(() => {
    setDraft(draftFromSettings(configuration));
  }, [configuration]);

  const deviceTypes = useMemo(() => configuration.devices.map((d) => d.deviceType), [configuration.devices]);
  const check = checkSettingsDraft(draft, configuration, { region, deviceTypes, words });
  const all = [
    ...check.violations,
    ...serviceViolations.filter((sv) => !check.violations.some((v) => v.field === sv.field)),
  ];
  const { byField, unplaced } = placeViolations(inReaderLanguage(all, words), SETTING_FIELDS);
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
      const write = (dryRun: boolean) =>
        client().call('configurations.update', { id: configuration.id, settings: check.patch, dryRun });
      if (!(await saveAfterDryRun(write, { setServiceViolations, setServiceError }))) return;
      setServiceViolations([]);
      notify('success', t('designer:settings.savedNotice'));
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
      ? t('designer:settings.fixFirst')
      : !check.changed
        ? t('designer:nothingChanged')
        : null;

  return (
    <form className="panel" onSubmit={(e) => void save(e)} aria-labelledby="settings-title" noValidate>
      <div className="panel__header">
        <h2 id="settings-title">{t('designer:settings.title')}</h2>
        <span className="muted">
          {region === 'EU' ? t('designer:settings.region.EU') : t('designer:settings.region.NA')}
        </span>
      </div>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">{t('designer:settings.general')}</legend>
        <TextField
          label={label('name')}
          name="name"
          value={draft.name}
          onChange={set('name')}
          error={byField.name}
          className="span-2"
        />
        <SelectField
          label={label('timeoutConfiguration')}
          name="timeoutConfiguration"
          value={draft.timeoutConfiguration as never}
          options={options.timeout}
          emptyLabel={configuration.timeoutConfiguration ? undefined : t('designer:notSet')}
          onChange={set('timeoutConfiguration')}
          error={byField.timeoutConfiguration}
          hint={t('designer:settings.safetyTimeoutHint')}
        />
        <SelectField
          label={label('receiverOutputControl')}
          name="receiverOutputControl"
          value={draft.receiverOutputControl as never}
          options={options.receiverOutput}
          emptyLabel={configuration.receiverOutputControl ? undefined : t('designer:notSet')}
          onChange={set('receiverOutputControl')}
          error={byField.receiverOutputControl}
          hint={t('designer:settings.receiverOutputHint')}
        />
      </fieldset>
      <h3 className="form-section">{t('designer:settings.ismRadio')}</h3>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">{t('designer:settings.ismRadio')}</legend>
        <TextField
          label={label('ismTxChannel')}
          name="ismTxChannel"
          inputMode="numeric"
          value={draft.ismTxChannel}
          onChange={set('ismTxChannel')}
          error={byField.ismTxChannel}
          hint={region === 'EU' ? t('designer:settings.ismChannelHint.EU') : t('designer:settings.ismChannelHint.NA')}
        />
        <SelectField
          label={label('ismTxPower')}
          name="ismTxPower"
          value={draft.ismTxPower as never}
          options={options.ismPower}
          emptyLabel={configuration.ismTxPower ? undefined : t('designer:notSet')}
          onChange={set('ismTxPower')}
          error={byField.ismTxPower}
        />
        <TextField
          label={label('ismNetworkId')}
          name="ismNetworkId"
          inputMode="numeric"
          value={draft.ismNetworkId}
          onChange={set('ismNetworkId')}
          error={byField.ismNetworkId}
        />
      </fieldset>
      <h3 className="form-section">{t('designer:settings.canBus')}</h3>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">{t('designer:settings.canBus')}</legend>
        <SelectField
          label={label('canMode')}
          name="canMode"
          value={draft.canMode as never}
          options={options.canMode}
          emptyLabel={configuration.canMode ? undefined : t('designer:notSet')}
          onChange={set('canMode')}
          error={byField.canMode}
        />
        <SelectField
          label={label('canKBitrate')}
          name="canKBitrate"
          value={draft.canKBitrate as never}
          options={options.canBitrate}
          emptyLabel={configuration.canKBitrate ? undefined : t('designer:notSet')}
          onChange={set('canKBitrate')}
          error={byField.canKBitrate}
          hint={t('designer:settings.canBitrateHint')}
        />
        <TextField
          label={label('approvedSourceAddresses')}
          name="approvedSourceAddresses"
          value={draft.approvedSourceAddresses}
          onChange={set('approvedSourceAddresses')}
          error={byField.approvedSourceAddresses}
          hint={t('designer:settings.sourceAddressesHint')}
        />
        <TextField
          label={label('displayTextPgn')}
          name="displayTextPgn"
          value={draft.displayTextPgn}
          onChange={set('displayTextPgn')}
          error={byField.displayTextPgn}
          disabled={!j1939 && draft.displayTextPgn === ''}
          hint={j1939 ? t('designer:settings.displayTextPgnHint') : t('designer:settings.onlyJ1939')}
        />
        <TextField
          label={label('settingsPgn')}
          name="settingsPgn"
          value={draft.settingsPgn}
          onChange={set('settingsPgn')}
          error={byField.settingsPgn}
          disabled={!j1939 && draft.settingsPgn === ''}
          hint={j1939 ? t('designer:settings.settingsPgnHint') : t('designer:settings.onlyJ1939')}
        />
      </fieldset>
      <h3 className="form-section">{t('designer:settings.ipNetwork')}</h3>
      <fieldset className="form-grid" disabled={readOnly}>
        <legend className="visually-hidden">{t('designer:settings.ipNetwork')}</legend>
        <TextField
          label={label('startingIpAddress')}
          name="startingIpAddress"
          value={draft.startingIpAddress}
          onChange={set('startingIpAddress')}
          error={byField.startingIpAddress}
          hint={t('designer:settings.startingIpHint')}
        />
      </fieldset>
      <ViolationList title={t('designer:serviceReports')} violations={unplaced} />
      <WarningList title={t('designer:warningsSaveable')} warnings={check.warnings} />
      {serviceError ? (
        <Callout tone="bad" title={t('designer:notSaved')}>
          {serviceError}
        </Callout>
      ) : null}
      <div className="form-actions">
        <ActionButton
          type="submit"
          variant="primary"
          capability="configurations.write"
          disabledReason={saveReason}
          busy={busy}
          onClick={() => undefined}
          name="saveSettings"
        >
          {busy ? t('designer:checkingWithService') : t('designer:settings.save')}
        </ActionButton>
        <button
          type="button"
          className="button button--quiet"
          disabled={!check.changed}
          onClick={() => setDraft(draftFromSettings(configuration))}
        >
          {t('designer:settings.undo')}
        </button>
        <span className="muted form-actions__note" aria-live="polite">
          {check.changed
            ? check.violations.length > 0
              ? t('designer:settings.fieldsToFix', { count: check.violations.length })
              : t('designer:unsavedChanges')
            : t('designer:settings.saved')}
        </span>
      </div>
    </form>
  );
}
