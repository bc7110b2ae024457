import { useState, type FormEvent } from 'react';
import type { Translator } from '../../domain/i18n/index.js';
import {
  TEMPLATE_INTERFACES,
  TEMPLATE_SORT_BY,
  SORT_DIRECTIONS,
  type SortDirection,
  type TemplateInterface,
  type TemplateSortBy,
} from '../../domain/enums';
import { ipNetworkTemplateCreateSchema } from '../../domain/ip-network-template';
import { parsePayload } from '../../domain/parse';
import { validateIpNetworkTemplate } from '../../domain/rules/ip-network-template';
import { client, errorText, violationsOf } from '../api/client';
import { useQuery } from '../api/use-query';
import { SelectField, TextField } from '../components/fields';
import { FormActions } from '../components/FormActions';
import { ListTable } from '../components/ListTable';
import { ListScreenHeader, type CreateFormHandlers } from '../components/ListScreenHeader';
import { Badge, Callout } from '../components/misc';
import { useListFilters } from '../components/use-list-filters';
import { parseTextList } from '../designer/text-values';
import { placeViolations } from '../designer/violations';
import { DateTime } from '../components/DateText';
import { useTranslator } from '../i18n/I18nProvider';
import { inReaderLanguage, violationText } from '../components/violation-text';
import { notify } from '../stores/notices';

const PAGE_SIZE = 15;

/** The interfaces a template can be for, as the reader names them (Ethernet and Wifi are names). */
function interfaceOptions(t: Translator['t']) {
  return TEMPLATE_INTERFACES.map((value) => ({
    value,
    label: value === 'None' ? t('screens:templates.interface.None') : value,
    isData: value !== 'None',
  }));
}

/** Reusable IP network settings (Ethernet or Wifi) that devices of a configuration can take. */
export function TemplatesScreen() {
  const { filters, setFilter, page, setPage } = useListFilters({
    nameFilter: '',
    typeFilter: '' as TemplateInterface | '',
  });
  const { nameFilter, typeFilter } = filters;
  const [sortBy, setSortBy] = useState<TemplateSortBy>('Name');
  const [sortDirection, setSortDirection] = useState<SortDirection>('Ascending');
  const { t } = useTranslator();
  const list = useQuery('templates.list', {
    nameFilter: nameFilter.trim() || undefined,
    typeFilter: typeFilter || undefined,
    sortBy,
    sortDirection,
    page,
    limit: PAGE_SIZE,
  });

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader
        title={t('screens:templates.title')}
        capability="templates.write"
        actionLabel={t('screens:templates.new')}
        explainRefusal
        form={(handlers) => <CreateTemplate {...handlers} />}
        onDone={list.reload}
      />
      <div className="toolbar">
        <TextField
          className="toolbar__search"
          label={t('screens:templates.nameContains')}
          type="search"
          value={nameFilter}
          onChange={setFilter('nameFilter')}
          reserveMessage={false}
        />
        <SelectField
          label={t('screens:templates.type')}
          name="type"
          value={typeFilter}
          options={interfaceOptions(t)}
          emptyLabel={t('screens:templates.all')}
          onChange={setFilter('typeFilter')}
          reserveMessage={false}
        />
        <SelectField
          label={t('screens:templates.sortBy')}
          name="sortBy"
          value={sortBy}
          options={TEMPLATE_SORT_BY.map((v) => ({ value: v, label: t(`screens:templates.sort.${v}`) }))}
          onChange={(v) => v && setSortBy(v)}
          reserveMessage={false}
        />
        <SelectField
          label={t('screens:templates.direction')}
          name="direction"
          value={sortDirection}
          options={SORT_DIRECTIONS.map((v) => ({ value: v, label: t(`screens:templates.direction.${v}`) }))}
          onChange={(v) => v && setSortDirection(v)}
          reserveMessage={false}
        />
      </div>
      <ListTable
        columns={[
          t('screens:templates.column.name'),
          t('screens:templates.column.type'),
          t('screens:templates.column.netmask'),
          t('screens:templates.column.gateway'),
          t('screens:templates.column.nameservers'),
          t('screens:templates.column.ssid'),
          t('screens:templates.column.lastEdited'),
        ]}
        rows={list.data}
        row={(template) => (
          <tr key={template.id}>
            <td translate="no">{template.ipNetworkTemplateName}</td>
            <td>
              {template.commInterface === 'None' ? (
                <Badge>{t('screens:templates.interface.None')}</Badge>
              ) : (
                <span translate="no">
                  <Badge>{template.commInterface}</Badge>
                </span>
              )}
            </td>
            <td className="mono" translate="no">
              {template.netmask}
            </td>
            <td className="mono" translate="no">
              {template.gatewayIpAddress ?? '—'}
            </td>
            <td className="mono" translate="no">
              {template.nameservers?.join(', ') || '—'}
            </td>
            <td>
              <span translate="no">{template.ssid ?? '—'}</span>
              {template.passwordSet ? <span className="muted small">{t('screens:templates.passwordSet')}</span> : null}
            </td>
            <td>
              <DateTime iso={template.lastEditedAt} />
            </td>
          </tr>
        )}
        empty={nameFilter || typeFilter ? t('screens:templates.noneMatch') : t('screens:templates.none')}
        loading={list.loading}
        error={list.error}
        errorTitle={t('screens:templates.loadFailed')}
        pager={
          list.data
            ? { page, limit: PAGE_SIZE, totalCount: 0, onPage: setPage, mayHaveMore: list.data.length === PAGE_SIZE }
            : undefined
        }
      />
    </section>
  );
}

const TEMPLATE_FIELDS = [
  'ipNetworkTemplateName',
  'commInterface',
  'netmask',
  'gatewayIpAddress',
  'nameservers',
  'ssid',
  'password',
];

function CreateTemplate({ onClose, onDone }: CreateFormHandlers) {
  const [form, setForm] = useState({
    ipNetworkTemplateName: '',
    commInterface: 'Ethernet' as TemplateInterface,
    netmask: '',
    gatewayIpAddress: '',
    nameservers: '',
    ssid: '',
    password: '',
  });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const words = useTranslator();
  const { t } = words;
  const payload = {
    ipNetworkTemplateName: form.ipNetworkTemplateName,
    commInterface: form.commInterface,
    netmask: form.netmask,
    gatewayIpAddress: form.gatewayIpAddress.trim() || undefined,
    nameservers: form.nameservers.trim() ? parseTextList(form.nameservers) : undefined,
    ssid: form.commInterface === 'Wifi' && form.ssid ? form.ssid : undefined,
    password: form.commInterface === 'Wifi' && form.password ? form.password : undefined,
  };
  const parsed = parsePayload(ipNetworkTemplateCreateSchema, payload);
  const violations = parsed.ok ? validateIpNetworkTemplate(parsed.value) : parsed.violations;
  const visible = tried
    ? violations
    : violations.filter((v) => !['TEMPLATE_NAME_TOO_SHORT', 'TEMPLATE_NETMASK_TOO_SHORT', 'REQUIRED'].includes(v.code));
  const { byField, unplaced } = placeViolations(inReaderLanguage(visible, words), TEMPLATE_FIELDS);
  const set = (field: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (violations.length > 0 || !parsed.ok || busy) return;
    setBusy(true);
    setServiceError(null);
    try {
      await client().call('templates.create', {
        template: { ...payload, ipNetworkTemplateName: parsed.value.ipNetworkTemplateName },
      });
      notify('success', t('screens:templates.created', { name: parsed.value.ipNetworkTemplateName }));
      onDone();
    } catch (err) {
      setServiceError(
        violationsOf(err)
          .map((v) => violationText(v, words))
          .join(' ') || errorText(err),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="panel create-form"
      onSubmit={(e) => void submit(e)}
      aria-label={t('screens:templates.form')}
      noValidate
    >
      <div className="form-grid">
        <TextField
          label={t('screens:templates.name')}
          name="ipNetworkTemplateName"
          value={form.ipNetworkTemplateName}
          onChange={set('ipNetworkTemplateName')}
          error={byField.ipNetworkTemplateName}
        />
        <SelectField
          label={t('screens:templates.interface')}
          name="commInterface"
          value={form.commInterface}
          options={interfaceOptions(t)}
          onChange={(v) => v && set('commInterface')(v)}
          error={byField.commInterface}
        />
        <TextField
          label={t('screens:templates.netmask')}
          name="netmask"
          value={form.netmask}
          onChange={set('netmask')}
          error={byField.netmask}
          hint={t('screens:templates.netmaskHint')}
        />
        <TextField
          label={t('screens:templates.gateway')}
          name="gatewayIpAddress"
          value={form.gatewayIpAddress}
          onChange={set('gatewayIpAddress')}
          error={byField.gatewayIpAddress}
        />
        <TextField
          label={t('screens:templates.nameservers')}
          name="nameservers"
          value={form.nameservers}
          onChange={set('nameservers')}
          error={byField.nameservers}
          hint={t('screens:templates.nameserversHint')}
        />
        {form.commInterface === 'Wifi' ? (
          <>
            <TextField
              label={t('screens:templates.ssid')}
              name="ssid"
              value={form.ssid}
              onChange={set('ssid')}
              error={byField.ssid}
            />
            <TextField
              label={t('screens:templates.password')}
              name="password"
              type="password"
              value={form.password}
              onChange={set('password')}
              error={byField.password}
            />
          </>
        ) : null}
      </div>
      {tried && unplaced.length > 0 ? <Callout tone="bad">{unplaced.map((v) => v.message).join(' ')}</Callout> : null}
      {serviceError ? (
        <Callout tone="bad" title={t('screens:templates.notCreated')}>
          {serviceError}
        </Callout>
      ) : null}
      <FormActions submitLabel={t('screens:templates.create')} busy={busy} onCancel={onClose} />
    </form>
  );
}
