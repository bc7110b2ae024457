import { useState } from 'react';
import { API_KEY_ROLES, type ApiKeyRole } from '../../domain/enums';
import { client } from '../api/client';
import { useQuery } from '../api/use-query';
import { InlineSelect, SelectField } from '../components/fields';
import { ListTable } from '../components/ListTable';
import { Callout, ScreenHeader } from '../components/misc';
import { agoText, dateTimeText } from '../format/units';
import { runWithNotice } from '../stores/notices';
import { signedIn, useCapability, useSession } from '../stores/session';

const PAGE_SIZE = 15;
const ROLE_OPTIONS = API_KEY_ROLES.map((value) => ({ value, label: value }));

/**
 * The organization's API keys and the roles of their service accounts. Keys are issued by an
 * operator command, not here; whole keys are never shown (Masked at most).
 */
export function ApiKeysScreen() {
  const manage = useCapability('keys.manage');
  const ownKey = signedIn(useSession((s) => s.session))?.keyName ?? null;
  const [keyFormat, setKeyFormat] = useState<'None' | 'Masked'>('Masked');
  const [offset, setOffset] = useState(0);
  const list = useQuery('apiKeys.list', { limit: PAGE_SIZE, offset, includeApiKeys: keyFormat !== 'None', keyFormat }, manage.allowed);

  const changeRole = (keyName: string, role: ApiKeyRole) => runWithNotice(() => client().call('apiKeys.updateRole', { keyName, role }), `${keyName} is now ${role}.`, list.reload);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader title="API keys" note="New keys are issued by an operator of the service; here you see them and change their roles." />
      {!manage.allowed ? (
        <Callout tone="info" title="Not available for your role">
          {manage.reason}
        </Callout>
      ) : (
        <>
          <div className="toolbar">
            <SelectField label="Key data" value={keyFormat} options={[{ value: 'Masked', label: 'Show the end of each key' }, { value: 'None', label: 'Hide key data' }]} onChange={(v) => v && setKeyFormat(v)} reserveMessage={false} />
          </div>
          <ListTable
            columns={['Name', 'Key', 'Role', 'Created', 'Last used']}
            rows={list.data}
            row={(k) => (
              <tr key={k.name}>
                <td>
                  {k.name} {k.name === ownKey ? <span className="muted small">(this session)</span> : null}
                </td>
                <td className="mono">{k.key ?? <span className="muted">hidden</span>}</td>
                <td>
                  <InlineSelect
                    label={`Role of ${k.name}`}
                    value={k.role}
                    options={ROLE_OPTIONS}
                    disabled={k.name === ownKey}
                    title={k.name === ownKey ? 'You cannot change the role of the key you are signed in with.' : undefined}
                    onChange={(role) => void changeRole(k.name, role)}
                  />
                </td>
                <td>{dateTimeText(k.createdAt)}</td>
                <td>{agoText(k.lastUsedAt, Date.now())}</td>
              </tr>
            )}
            empty="No keys."
            loading={list.loading}
            error={list.error}
            errorTitle="Could not load keys"
            pager={list.data ? { page: offset / PAGE_SIZE + 1, limit: PAGE_SIZE, totalCount: 0, onPage: (p) => setOffset((p - 1) * PAGE_SIZE), mayHaveMore: list.data.length === PAGE_SIZE } : undefined}
          />
        </>
      )}
    </section>
  );
}
