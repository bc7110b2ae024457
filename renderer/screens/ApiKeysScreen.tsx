import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_ROLES, type ApiKeyRole } from '../../domain/enums';
import { client } from '../api/client';
import { useQuery } from '../api/use-query';
import { InlineSelect, SelectField } from '../components/fields';
import { ListTable } from '../components/ListTable';
import { Callout, ScreenHeader } from '../components/misc';
import { Ago, DateTime } from '../components/DateText';
import { runWithNotice } from '../stores/notices';
import { signedIn, useSession } from '../stores/session';
import { useCapabilityInReaderLanguage } from '../components/use-capability';

const PAGE_SIZE = 15;

/**
 * The organization's API keys and the roles of their service accounts. Keys are issued by an
 * operator command, not here; whole keys are never shown (Masked at most).
 */
export function ApiKeysScreen() {
  const manage = useCapabilityInReaderLanguage('keys.manage');
  const { t } = useTranslation();
  const roleOptions = API_KEY_ROLES.map((value) => ({ value, label: t(`screens:role.${value}`) }));
  const ownKey = signedIn(useSession((s) => s.session))?.keyName ?? null;
  const [keyFormat, setKeyFormat] = useState<'None' | 'Masked'>('Masked');
  const [offset, setOffset] = useState(0);
  const list = useQuery(
    'apiKeys.list',
    { limit: PAGE_SIZE, offset, includeApiKeys: keyFormat !== 'None', keyFormat },
    manage.allowed,
  );

  const changeRole = (keyName: string, role: ApiKeyRole) =>
    runWithNotice(
      () => client().call('apiKeys.updateRole', { keyName, role }),
      t('screens:apiKeys.roleChanged', { name: keyName, role: t(`screens:role.${role}`) }),
      list.reload,
    );

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader title={t('screens:apiKeys.title')} note={t('screens:apiKeys.note')} />
      {!manage.allowed ? (
        <Callout tone="info" title={t('screens:notAvailableForRole')}>
          {manage.reason}
        </Callout>
      ) : (
        <>
          <div className="toolbar">
            <SelectField
              label={t('screens:apiKeys.keyData')}
              name="keyData"
              value={keyFormat}
              options={[
                { value: 'Masked', label: t('screens:apiKeys.showEnd') },
                { value: 'None', label: t('screens:apiKeys.hide') },
              ]}
              onChange={(v) => v && setKeyFormat(v)}
              reserveMessage={false}
            />
          </div>
          <ListTable
            columns={[
              t('screens:apiKeys.column.name'),
              t('screens:apiKeys.column.key'),
              t('screens:apiKeys.column.role'),
              t('screens:apiKeys.column.created'),
              t('screens:apiKeys.column.lastUsed'),
            ]}
            rows={list.data}
            row={(k) => (
              <tr key={k.name}>
                <td>
                  <span translate="no">{k.name}</span>{' '}
                  {k.name === ownKey ? <span className="muted small">{t('screens:apiKeys.thisSession')}</span> : null}
                </td>
                <td className="mono">
                  {k.key ? (
                    <span translate="no">{k.key}</span>
                  ) : (
                    <span className="muted">{t('screens:apiKeys.hidden')}</span>
                  )}
                </td>
                <td>
                  <InlineSelect
                    label={t('screens:apiKeys.roleOf', { name: k.name })}
                    value={k.role}
                    options={roleOptions}
                    disabled={k.name === ownKey}
                    title={k.name === ownKey ? t('screens:apiKeys.ownKey') : undefined}
                    onChange={(role) => void changeRole(k.name, role)}
                  />
                </td>
                <td>
                  <DateTime iso={k.createdAt} />
                </td>
                <td>
                  <Ago iso={k.lastUsedAt} now={Date.now()} />
                </td>
              </tr>
            )}
            empty={t('screens:apiKeys.none')}
            loading={list.loading}
            error={list.error}
            errorTitle={t('screens:apiKeys.loadFailed')}
            pager={
              list.data
                ? {
                    page: offset / PAGE_SIZE + 1,
                    limit: PAGE_SIZE,
                    totalCount: 0,
                    onPage: (p) => setOffset((p - 1) * PAGE_SIZE),
                    mayHaveMore: list.data.length === PAGE_SIZE,
                  }
                : undefined
            }
          />
        </>
      )}
    </section>
  );
}
