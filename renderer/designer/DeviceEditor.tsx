import { useMemo, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCommInterface } from '../../domain/comm-interface';
import { SUPPORTED_INTERFACES } from '../../domain/device-capabilities';
import type { DeviceType } from '../../domain/device-types';
import type { CommInterfaceFlag, Region } from '../../domain/enums';
import { fieldLabel } from '../../domain/field-labels';
import type { Violation } from '../../domain/violations';
import type { ConfigurationDeviceView, ConfigurationView } from '../../contract/index';
import { client } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { CheckboxGroup, SelectField, TextField, type Option } from '../components/fields';
import { Callout, ViolationList } from '../components/misc';
import { useFocusOnOpen } from '../components/use-focus-on-open';
import { useDebounced } from '../components/use-debounced';
import { notify } from '../stores/notices';
import { useNavigation } from '../stores/navigation';
import {
  applicableDeviceFields,
  checkDeviceDraft,
  draftFromDevice,
  emptyDeviceDraft,
  interfaceFlagsOf,
  type DeviceDraft,
  type DeviceField,
} from './device-draft';
import { designerOptions } from './options';
import { inReaderLanguage } from '../components/violation-text';
import { useTranslator } from '../i18n/I18nProvider';
import { saveAfterDryRun } from './save-after-dry-run';
import { fieldKey, placeViolations } from './violations';
import { WarningList } from './WarningList';

interface Props {
  mode: 'add' | 'edit';
  configuration: ConfigurationView;
  device: ConfigurationDeviceView | null;
  region: Region;
  onClose(): void;
  onSaved(): void;
}

/** What a field's input says beside it: its label and a hint. */
interface FieldText {
  label?: string;
  hint?: string | undefined;
}

/** Free devices the picker lists at once; a search finds the others. */
const CANDIDATE_PAGE = 30;

const INTERFACE_FLAGS: readonly Exclude<CommInterfaceFlag, 'None'>[] = ['BLE', 'ISM', 'Ethernet', 'Wifi'];

/**
 * Add a device to the configuration, or change one. Only the fields that apply to the device's
 * type, role, interfaces and stop category are shown; each is checked as it is typed.
 */
export function DeviceEditor({ mode, configuration, device, region, onClose, onSaved }: Props) {
  const [serialNumber, setSerialNumber] = useState(
    device?.serialNumber ?? (mode === 'add' ? useNavigation.getState().deviceToAdd : null) ?? '',
  );
  const [draft, setDraft] = useState<DeviceDraft>(() => (device ? draftFromDevice(device) : emptyDeviceDraft()));
  const [serviceViolations, setServiceViolations] = useState<Violation[]>([]);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  /** Fields the technician has changed: before the first Save, only they show errors. */
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnOpen(formRef);
  const { t } = useTranslation();
  const words = useTranslator();
  const options = useMemo(() => designerOptions(words), [words]);

  // The free devices the picker offers: one page of them from the service, narrowed by what is
  // typed in the search (a serial number's start finds it among a million). A device sent here from
  // the Workbench is searched for, so it is among them.
  const [search, setSearch] = useState(serialNumber);
  const searched = useDebounced(search.trim());
  const candidates = useQuery(
    'devices.list',
    { configurableOnly: true, search: searched || undefined, page: 1, limit: CANDIDATE_PAGE },
    mode === 'add',
  );
  /** The device chosen, remembered: a later search may no longer list it. */
  const [picked, setPicked] = useState<{ serialNumber: string; deviceType: DeviceType } | null>(null);
  const templates = useQuery('templates.list', { page: 1, limit: 30 });
  const deviceType: DeviceType | null =
    device?.deviceType ??
    (picked?.serialNumber === serialNumber ? picked.deviceType : null) ??
    candidates.data?.items.find((d) => d.serialNumber === serialNumber)?.deviceType ??
    null;

  const fields = deviceType ? applicableDeviceFields(deviceType, draft, mode) : [];
  const check = checkDeviceDraft(draft, {
    mode,
    serialNumber,
    deviceType,
    stored: device,
    configuration,
    region,
    words,
  });
  // Before the first Save, a form nobody has touched shows no error: only the fields changed speak.
  const instant = tried
    ? check.violations
    : check.violations.filter(
        (v) =>
          touched.has(fieldKey(v.field) ?? '') &&
          !['REQUIRED', 'DEVICE_ROLE_MISSING', 'COMM_INTERFACE_MISSING'].includes(v.code),
      );
  const prefix = `devices.${serialNumber}`;
  const service = serviceViolations.map((v) =>
    v.field.startsWith(`${prefix}.`) ? { ...v, field: v.field.slice(prefix.length + 1) } : v,
  );
  const { byField, unplaced } = placeViolations(inReaderLanguage([...instant, ...service], words), [
    ...fields,
    'serialNumber',
  ]);

  const set = (field: DeviceField) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
    setServiceViolations([]);
  };

  const templateOptions = useMemo<Option<string>[]>(() => {
    const flags = interfaceFlagsOf(draft);
    return (templates.data ?? [])
      .filter((template) => flags.includes(template.commInterface as CommInterfaceFlag))
      .map((template) => ({
        value: template.id,
        label: t('designer:editor.templateOption', {
          name: template.ipNetworkTemplateName,
          interface: template.commInterface,
          netmask: template.netmask,
        }),
      }));
  }, [templates.data, draft, t]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (busy || check.violations.length > 0 || (mode === 'edit' && !check.changed)) return;
    setBusy(true);
    setServiceError(null);
    try {
      const { serialNumber: _ignored, ...settings } = check.payload;
      const channel = mode === 'add' ? 'configurations.addDevice' : 'configurations.updateDevice';
      const input = { id: configuration.id, serialNumber, settings };
      if (
        !(await saveAfterDryRun((dryRun) => client().call(channel, { ...input, dryRun }), {
          setServiceViolations,
          setServiceError,
        }))
      )
        return;
      notify(
        'success',
        mode === 'add'
          ? t('designer:editor.added', { serial: serialNumber })
          : t('designer:editor.saved', { serial: serialNumber }),
      );
      if (mode === 'add') useNavigation.getState().deviceAdded();
      onSaved();
    } finally {
      setBusy(false);
    }
  };

  const candidateItems = candidates.data?.items ?? [];
  const candidateOptions: Option<string>[] = candidateItems.map((d) => ({
    value: d.serialNumber,
    label: `${d.serialNumber} · ${d.deviceType} · ${d.name}`,
    isData: true,
  }));
  if (picked && picked.serialNumber === serialNumber && !candidateItems.some((d) => d.serialNumber === serialNumber))
    candidateOptions.unshift({
      value: picked.serialNumber,
      label: `${picked.serialNumber} · ${picked.deviceType}`,
      isData: true,
    });
  const candidateTotal = candidates.data?.totalCount ?? 0;
  const supported = deviceType ? SUPPORTED_INTERFACES[deviceType] : [];
  const shows = (field: DeviceField) => fields.includes(field);
  // A field is labelled as the domain names it in messages, unless its section says more or less.
  const select = (
    field: DeviceField,
    options: readonly Option<string>[],
    { label = fieldLabel(field, words), hint }: FieldText = {},
  ) =>
    shows(field) ? (
      <SelectField
        key={field}
        label={label}
        name={field}
        value={draft[field]}
        options={options}
        emptyLabel={t('designer:notSet')}
        onChange={set(field)}
        error={byField[field]}
        hint={hint}
      />
    ) : null;
  const text = (
    field: DeviceField,
    { label = fieldLabel(field, words), hint, type = 'text' }: FieldText & { type?: 'text' | 'password' } = {},
  ) =>
    shows(field) ? (
      <TextField
        key={field}
        label={label}
        name={field}
        type={type}
        value={draft[field]}
        onChange={set(field)}
        error={byField[field]}
        hint={hint}
      />
    ) : null;
  /** Netmask, gateway and nameservers: the same three for Ethernet and for Wifi. */
  const networkFields = (link: 'eth' | 'wifi') => (
    <>
      {text(`${link}Netmask`, { label: t('designer:editor.netmask'), hint: t('designer:netmaskHint') })}
      {text(`${link}Gateway`, { label: t('designer:editor.gateway') })}
      {text(`${link}Nameservers`, { label: t('designer:editor.nameservers'), hint: t('designer:separatedByCommas') })}
    </>
  );

  return (
    <form
      ref={formRef}
      className="subpanel"
      onSubmit={(e) => void save(e)}
      aria-label={
        mode === 'add' ? t('designer:editor.addTitle') : t('designer:devices.editNamed', { serial: serialNumber })
      }
      noValidate
    >
      <h3 className="subpanel__title">
        {mode === 'add'
          ? t('designer:editor.addTitle')
          : t('designer:editor.editTitle', {
              serial: serialNumber,
              type: deviceType ?? t('designer:editor.unknownType'),
            })}
      </h3>
      {mode === 'add' ? (
        <div className="form-grid">
          <SelectField
            label={t('designer:editor.device')}
            name="serialNumber"
            value={serialNumber}
            options={candidateOptions}
            emptyLabel={
              candidates.loading || searched !== search.trim()
                ? t('designer:editor.loadingDevices')
                : candidateOptions.length > 0
                  ? t('designer:editor.chooseDevice')
                  : searched
                    ? t('designer:editor.noFreeDeviceMatches', { search: searched })
                    : t('designer:editor.noFreeDevice')
            }
            onChange={(v) => {
              setSerialNumber(v);
              const chosen = candidateItems.find((d) => d.serialNumber === v);
              if (chosen) setPicked({ serialNumber: chosen.serialNumber, deviceType: chosen.deviceType });
              setServiceViolations([]);
            }}
            error={byField.serialNumber}
            hint={t('designer:editor.deviceHint')}
            className="span-2"
          />
          <TextField
            label={t('designer:editor.findDevice')}
            name="deviceSearch"
            type="search"
            value={search}
            onChange={setSearch}
            hint={
              candidates.data
                ? t('designer:editor.findDeviceShown', { shown: candidateItems.length, total: candidateTotal })
                : undefined
            }
          />
        </div>
      ) : null}
      {deviceType ? (
        <>
          <div className="form-grid">
            {select('deviceConfigurationType', options.role, { label: t('designer:editor.role') })}
            <div className="span-2">
              <CheckboxGroup
                legend={t('designer:editor.interfaces')}
                name="commInterface"
                options={INTERFACE_FLAGS.map((flag) => ({
                  value: flag,
                  label: flag,
                  isData: true,
                  disabledReason: supported.includes(flag)
                    ? null
                    : t('designer:editor.interfaceUnsupported', { type: deviceType, flag }),
                }))}
                value={interfaceFlagsOf(draft)}
                onChange={(flags) => set('commInterface')(flags.length > 0 ? formatCommInterface(flags) : '')}
                error={byField.commInterface}
                hint={t('designer:editor.interfacesHint', { type: deviceType, interfaces: supported.join(', ') })}
              />
            </div>
          </div>
          {shows('ipAddress') || shows('inputConfiguration1') || shows('can0Id') ? (
            <div className="form-grid">
              {text('ipAddress', {
                hint: configuration.startingIpAddress
                  ? t('designer:editor.ipAssigned', { address: configuration.startingIpAddress })
                  : undefined,
              })}
              {select('networkTemplateId', templateOptions, {
                hint:
                  templateOptions.length === 0 ? t('designer:editor.noTemplate') : t('designer:editor.templateFills'),
              })}
              {select('inputConfiguration1', options.input, { label: t('designer:editor.input1') })}
              {select('inputConfiguration2', options.input, { label: t('designer:editor.input2') })}
              {select('inputConfiguration3', options.input)}
              {text('can0Id')}
              {text('can1Id')}
              {select('voltage', options.voltage)}
            </div>
          ) : null}
          {deviceType === 'NSCP' ? (
            <>
              <h4 className="form-section" translate="no">
                NSCP
              </h4>
              <div className="form-grid">
                {select('stopCategory', options.stopCategory)}
                {text('cat1StopDelay', {
                  label: t('designer:editor.cat1Delay'),
                  hint: t('designer:editor.cat1DelayHint'),
                })}
                {select('ossdEnabled', options.ossd, { hint: t('designer:editor.ossdHint') })}
                {select('serial0Usage', options.serialUsage)}
                {select('serial0Baudrate', options.baudrate)}
                {select('serial1Usage', options.serialUsage)}
                {select('serial1Baudrate', options.baudrate)}
              </div>
            </>
          ) : null}
          {shows('ethNetmask') ? (
            <>
              <h4 className="form-section" translate="no">
                Ethernet
              </h4>
              <div className="form-grid">{networkFields('eth')}</div>
            </>
          ) : null}
          {shows('wifiSsid') ? (
            <>
              <h4 className="form-section" translate="no">
                Wifi
              </h4>
              <div className="form-grid">
                {text('wifiSsid', { label: t('designer:editor.ssid') })}
                {text('wifiPassword', {
                  label: t('designer:editor.password'),
                  hint: device?.wifiPasswordSet ? t('designer:editor.passwordStored') : undefined,
                  type: 'password',
                })}
                {networkFields('wifi')}
              </div>
            </>
          ) : null}
        </>
      ) : (
        <p className="muted">{t('designer:editor.chooseFirst')}</p>
      )}
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
          busy={busy}
          disabledReason={
            deviceType === null
              ? t('designer:editor.chooseDeviceFirst')
              : mode === 'edit' && !check.changed
                ? t('designer:nothingChanged')
                : null
          }
          onClick={() => undefined}
          name="saveDevice"
        >
          {busy
            ? t('designer:checkingWithService')
            : mode === 'add'
              ? t('designer:editor.addSubmit')
              : t('designer:editor.saveSubmit')}
        </ActionButton>
        <button type="button" className="button button--quiet" onClick={onClose}>
          {t('designer:cancel')}
        </button>
      </div>
    </form>
  );
}
