import { useMemo, useRef, useState, type FormEvent } from 'react';
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
import { notify } from '../stores/notices';
import { useNavigation } from '../stores/navigation';
import { applicableDeviceFields, checkDeviceDraft, draftFromDevice, emptyDeviceDraft, interfaceFlagsOf, type DeviceDraft, type DeviceField } from './device-draft';
import {
  BAUDRATE_OPTIONS,
  INPUT_OPTIONS,
  OSSD_OPTIONS,
  ROLE_OPTIONS,
  SERIAL_USAGE_OPTIONS,
  STOP_CATEGORY_OPTIONS,
  VOLTAGE_OPTIONS,
} from './options';
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

const INTERFACE_FLAGS: readonly Exclude<CommInterfaceFlag, 'None'>[] = ['BLE', 'ISM', 'Ethernet', 'Wifi'];

/**
 * Add a device to the configuration, or change one. Only the fields that apply to the device's
 * type, role, interfaces and stop category are shown; each is checked as it is typed.
 */
export function DeviceEditor({ mode, configuration, device, region, onClose, onSaved }: Props) {
  const [serialNumber, setSerialNumber] = useState(device?.serialNumber ?? (mode === 'add' ? useNavigation.getState().deviceToAdd : null) ?? '');
  const [draft, setDraft] = useState<DeviceDraft>(() => (device ? draftFromDevice(device) : emptyDeviceDraft()));
  const [serviceViolations, setServiceViolations] = useState<Violation[]>([]);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [tried, setTried] = useState(false);
  /** Fields the technician has changed: before the first Save, only they show errors. */
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const formRef = useRef<HTMLFormElement>(null);
  useFocusOnOpen(formRef);

  const candidates = useQuery('devices.list', { configurableOnly: true, page: 1, limit: 30 }, mode === 'add');
  const templates = useQuery('templates.list', { page: 1, limit: 30 });
  const deviceType: DeviceType | null =
    device?.deviceType ?? candidates.data?.items.find((d) => d.serialNumber === serialNumber)?.deviceType ?? null;

  const fields = deviceType ? applicableDeviceFields(deviceType, draft, mode) : [];
  const check = checkDeviceDraft(draft, { mode, serialNumber, deviceType, stored: device, configuration, region });
  // Before the first Save, a form nobody has touched shows no error: only the fields changed speak.
  const instant = tried
    ? check.violations
    : check.violations.filter((v) => touched.has(fieldKey(v.field) ?? '') && !['REQUIRED', 'DEVICE_ROLE_MISSING', 'COMM_INTERFACE_MISSING'].includes(v.code));
  const prefix = `devices.${serialNumber}`;
  const service = serviceViolations.map((v) => (v.field.startsWith(`${prefix}.`) ? { ...v, field: v.field.slice(prefix.length + 1) } : v));
  const { byField, unplaced } = placeViolations([...instant, ...service], [...fields, 'serialNumber']);

  const set = (field: DeviceField) => (value: string) => {
    setDraft((d) => ({ ...d, [field]: value }));
    setTouched((t) => (t.has(field) ? t : new Set(t).add(field)));
    setServiceViolations([]);
  };

  const templateOptions = useMemo<Option<string>[]>(() => {
    const flags = interfaceFlagsOf(draft);
    return (templates.data ?? [])
      .filter((t) => flags.includes(t.commInterface as CommInterfaceFlag))
      .map((t) => ({ value: t.id, label: `${t.ipNetworkTemplateName} (${t.commInterface}, ${t.netmask})` }));
  }, [templates.data, draft]);

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
      if (!(await saveAfterDryRun((dryRun) => client().call(channel, { ...input, dryRun }), { setServiceViolations, setServiceError }))) return;
      notify('success', mode === 'add' ? `${serialNumber} added.` : `${serialNumber} saved.`);
      if (mode === 'add') useNavigation.getState().deviceAdded();
      onSaved();
    } finally {
      setBusy(false);
    }
  };

  const candidateOptions: Option<string>[] = (candidates.data?.items ?? []).map((d) => ({
    value: d.serialNumber,
    label: `${d.serialNumber} · ${d.deviceType} · ${d.name}`,
  }));
  const supported = deviceType ? SUPPORTED_INTERFACES[deviceType] : [];
  const shows = (field: DeviceField) => fields.includes(field);
  // A field is labelled as the domain names it in messages, unless its section says more or less.
  const select = (field: DeviceField, options: readonly Option<string>[], { label = fieldLabel(field), hint }: FieldText = {}) =>
    shows(field) ? (
      <SelectField key={field} label={label} name={field} value={draft[field]} options={options} emptyLabel="Not set" onChange={set(field)} error={byField[field]} hint={hint} />
    ) : null;
  const text = (field: DeviceField, { label = fieldLabel(field), hint, type = 'text' }: FieldText & { type?: 'text' | 'password' } = {}) =>
    shows(field) ? <TextField key={field} label={label} name={field} type={type} value={draft[field]} onChange={set(field)} error={byField[field]} hint={hint} /> : null;
  /** Netmask, gateway and nameservers: the same three for Ethernet and for Wifi. */
  const networkFields = (link: 'eth' | 'wifi') => (
    <>
      {text(`${link}Netmask`, { label: 'Netmask', hint: 'e.g. 255.255.255.0' })}
      {text(`${link}Gateway`, { label: 'Gateway' })}
      {text(`${link}Nameservers`, { label: 'Nameservers', hint: 'Separated by commas.' })}
    </>
  );

  return (
    <form ref={formRef} className="subpanel" onSubmit={(e) => void save(e)} aria-label={mode === 'add' ? 'Add a device' : `Edit ${serialNumber}`} noValidate>
      <h3 className="subpanel__title">{mode === 'add' ? 'Add a device' : `Edit ${serialNumber} (${deviceType ?? '?'})`}</h3>
      {mode === 'add' ? (
        <div className="form-grid">
          <SelectField
            label="Device"
            name="serialNumber"
            value={serialNumber}
            options={candidateOptions}
            emptyLabel={candidates.loading ? 'Loading devices…' : candidateOptions.length === 0 ? 'No registered device is free' : 'Choose a registered device'}
            onChange={(v) => {
              setSerialNumber(v);
              setServiceViolations([]);
            }}
            error={byField.serialNumber}
            hint="Registered devices that are in no configuration yet."
            className="span-2"
          />
        </div>
      ) : null}
      {deviceType ? (
        <>
          <div className="form-grid">
            {select('deviceConfigurationType', ROLE_OPTIONS, { label: 'Role' })}
            <div className="span-2">
              <CheckboxGroup
                legend="Interfaces"
                name="commInterface"
                options={INTERFACE_FLAGS.map((flag) => ({
                  value: flag,
                  label: flag,
                  disabledReason: supported.includes(flag) ? null : `${deviceType} devices have no ${flag}.`,
                }))}
                value={interfaceFlagsOf(draft)}
                onChange={(flags) => set('commInterface')(flags.length > 0 ? formatCommInterface(flags) : '')}
                error={byField.commInterface}
                hint={`${deviceType}: ${supported.join(', ')}.`}
              />
            </div>
          </div>
          {shows('ipAddress') || shows('inputConfiguration1') || shows('can0Id') ? (
            <div className="form-grid">
              {text('ipAddress', { hint: configuration.startingIpAddress ? `Empty: assigned from ${configuration.startingIpAddress}.` : undefined })}
              {select('networkTemplateId', templateOptions, { hint: templateOptions.length === 0 ? 'No template for these interfaces.' : 'Fills netmask, gateway and nameservers.' })}
              {select('inputConfiguration1', INPUT_OPTIONS, { label: 'Input 1 (J1 pins 3, 6)' })}
              {select('inputConfiguration2', INPUT_OPTIONS, { label: 'Input 2 (J1 pins 2, 5)' })}
              {select('inputConfiguration3', INPUT_OPTIONS)}
              {text('can0Id')}
              {text('can1Id')}
              {select('voltage', VOLTAGE_OPTIONS)}
            </div>
          ) : null}
          {deviceType === 'NSCP' ? (
            <>
              <h4 className="form-section">NSCP</h4>
              <div className="form-grid">
                {select('stopCategory', STOP_CATEGORY_OPTIONS)}
                {text('cat1StopDelay', { label: 'CAT1 stop delay (s)', hint: 'Time until output 2 turns off.' })}
                {select('ossdEnabled', OSSD_OPTIONS, { hint: 'Enabled unless turned off.' })}
                {select('serial0Usage', SERIAL_USAGE_OPTIONS)}
                {select('serial0Baudrate', BAUDRATE_OPTIONS)}
                {select('serial1Usage', SERIAL_USAGE_OPTIONS)}
                {select('serial1Baudrate', BAUDRATE_OPTIONS)}
              </div>
            </>
          ) : null}
          {shows('ethNetmask') ? (
            <>
              <h4 className="form-section">Ethernet</h4>
              <div className="form-grid">{networkFields('eth')}</div>
            </>
          ) : null}
          {shows('wifiSsid') ? (
            <>
              <h4 className="form-section">Wifi</h4>
              <div className="form-grid">
                {text('wifiSsid', { label: 'SSID' })}
                {text('wifiPassword', { label: 'Password', hint: device?.wifiPasswordSet ? 'A password is stored; type to replace it.' : undefined, type: 'password' })}
                {networkFields('wifi')}
              </div>
            </>
          ) : null}
        </>
      ) : (
        <p className="muted">Choose a device: the fields that apply to its type appear here.</p>
      )}
      <ViolationList title="The service reports" violations={unplaced} />
      <WarningList title="Warnings (saving is still possible)" warnings={check.warnings} />
      {serviceError ? <Callout tone="bad" title="Not saved">{serviceError}</Callout> : null}
      <div className="form-actions">
        <ActionButton
          type="submit"
          variant="primary"
          capability="configurations.write"
          busy={busy}
          disabledReason={deviceType === null ? 'Choose a device first.' : mode === 'edit' && !check.changed ? 'Nothing changed yet.' : null}
          onClick={() => undefined}
          name="saveDevice"
        >
          {busy ? 'Checking with the service…' : mode === 'add' ? 'Add to configuration' : 'Save device'}
        </ActionButton>
        <button type="button" className="button button--quiet" onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
