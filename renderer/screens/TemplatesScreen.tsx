import { useState, type FormEvent } from 'react';
import { TEMPLATE_INTERFACES, TEMPLATE_SORT_BY, SORT_DIRECTIONS, type SortDirection, type TemplateInterface, type TemplateSortBy } from '../../domain/enums';
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
import { dateTimeText } from '../format/units';
import { notify } from '../stores/notices';

const PAGE_SIZE = 15;

/** Reusable IP network settings (Ethernet or Wifi) that devices of a configuration can take. */
export function TemplatesScreen() {
  const { filters, setFilter, page, setPage } = useListFilters({ nameFilter: '', typeFilter: '' as TemplateInterface | '' });
  const { nameFilter, typeFilter } = filters;
  const [sortBy, setSortBy] = useState<TemplateSortBy>('Name');
  const [sortDirection, setSortDirection] = useState<SortDirection>('Ascending');
  const list = useQuery('templates.list', { nameFilter: nameFilter.trim() || undefined, typeFilter: typeFilter || undefined, sortBy, sortDirection, page, limit: PAGE_SIZE });

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader title="Network templates" capability="templates.write" actionLabel="New template" explainRefusal form={(handlers) => <CreateTemplate {...handlers} />} onDone={list.reload} />
      <div className="toolbar">
        <TextField className="toolbar__search" label="Name contains" type="search" value={nameFilter} onChange={setFilter('nameFilter')} reserveMessage={false} />
        <SelectField label="Type" value={typeFilter} options={TEMPLATE_INTERFACES.map((v) => ({ value: v, label: v }))} emptyLabel="All" onChange={setFilter('typeFilter')} reserveMessage={false} />
        <SelectField label="Sort by" value={sortBy} options={TEMPLATE_SORT_BY.map((v) => ({ value: v, label: v === 'LastEdited' ? 'Last edited' : 'Name' }))} onChange={(v) => v && setSortBy(v)} reserveMessage={false} />
        <SelectField label="Direction" value={sortDirection} options={SORT_DIRECTIONS.map((v) => ({ value: v, label: v }))} onChange={(v) => v && setSortDirection(v)} reserveMessage={false} />
      </div>
      <ListTable
        columns={['Name', 'Type', 'Netmask', 'Gateway', 'Nameservers', 'SSID', 'Last edited']}
        rows={list.data}
        row={(t) => (
          <tr key={t.id}>
            <td>{t.ipNetworkTemplateName}</td>
            <td>
              <Badge>{t.commInterface}</Badge>
            </td>
            <td className="mono">{t.netmask}</td>
            <td className="mono">{t.gatewayIpAddress ?? '—'}</td>
            <td className="mono">{t.nameservers?.join(', ') || '—'}</td>
            <td>{t.ssid ?? '—'}{t.passwordSet ? <span className="muted small"> · password set</span> : null}</td>
            <td>{dateTimeText(t.lastEditedAt)}</td>
          </tr>
        )}
        empty={`No templates${nameFilter || typeFilter ? ' match the filters' : ' yet'}.`}
        loading={list.loading}
        error={list.error}
        errorTitle="Could not load templates"
        pager={list.data ? { page, limit: PAGE_SIZE, totalCount: 0, onPage: setPage, mayHaveMore: list.data.length === PAGE_SIZE } : undefined}
      />
    </section>
  );
}

const TEMPLATE_FIELDS = ['ipNetworkTemplateName', 'commInterface', 'netmask', 'gatewayIpAddress', 'nameservers', 'ssid', 'password'];

function CreateTemplate({ onClose, onDone }: CreateFormHandlers) {
  const [form, setForm] = useState({ ipNetworkTemplateName: '', commInterface: 'Ethernet' as TemplateInterface, netmask: '', gatewayIpAddress: '', nameservers: '', ssid: '', password: '' });
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [serviceError, setServiceError] = useState<string | null>(null);
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
  const visible = tried ? violations : violations.filter((v) => !['TEMPLATE_NAME_TOO_SHORT', 'TEMPLATE_NETMASK_TOO_SHORT', 'REQUIRED'].includes(v.code));
  const { byField, unplaced } = placeViolations(visible, TEMPLATE_FIELDS);
  const set = (field: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [field]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (violations.length > 0 || !parsed.ok || busy) return;
    setBusy(true);
    setServiceError(null);
    try {
      await client().call('templates.create', { template: { ...payload, ipNetworkTemplateName: parsed.value.ipNetworkTemplateName } });
      notify('success', `Template “${parsed.value.ipNetworkTemplateName}” created.`);
      onDone();
    } catch (err) {
      setServiceError(violationsOf(err).map((v) => v.message).join(' ') || errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="panel create-form" onSubmit={(e) => void submit(e)} aria-label="New network template" noValidate>
      <div className="form-grid">
        <TextField label="Template name" name="ipNetworkTemplateName" value={form.ipNetworkTemplateName} onChange={set('ipNetworkTemplateName')} error={byField.ipNetworkTemplateName} />
        <SelectField label="Interface" name="commInterface" value={form.commInterface} options={TEMPLATE_INTERFACES.map((v) => ({ value: v, label: v }))} onChange={(v) => v && set('commInterface')(v)} error={byField.commInterface} />
        <TextField label="Netmask" name="netmask" value={form.netmask} onChange={set('netmask')} error={byField.netmask} hint="e.g. 255.255.255.0" />
        <TextField label="Gateway" name="gatewayIpAddress" value={form.gatewayIpAddress} onChange={set('gatewayIpAddress')} error={byField.gatewayIpAddress} />
        <TextField label="Nameservers" name="nameservers" value={form.nameservers} onChange={set('nameservers')} error={byField.nameservers} hint="Separated by commas." />
        {form.commInterface === 'Wifi' ? (
          <>
            <TextField label="SSID" name="ssid" value={form.ssid} onChange={set('ssid')} error={byField.ssid} />
            <TextField label="Password" name="password" type="password" value={form.password} onChange={set('password')} error={byField.password} />
          </>
        ) : null}
      </div>
      {tried && unplaced.length > 0 ? <Callout tone="bad">{unplaced.map((v) => v.message).join(' ')}</Callout> : null}
      {serviceError ? <Callout tone="bad" title="Not created">{serviceError}</Callout> : null}
      <FormActions submitLabel="Create template" busy={busy} onCancel={onClose} />
    </form>
  );
}
