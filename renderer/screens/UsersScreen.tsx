import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { USER_ROLES, USER_SORT_OPTIONS, type UserRole, type UserSortOption } from '../../domain/enums';
import { userRegisterSchema } from '../../domain/users';
import { parsePayload } from '../../domain/parse';
import { client, errorText } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { InlineSelect, SelectField, TextField } from '../components/fields';
import { FormActions } from '../components/FormActions';
import { ACTIONS_COLUMN, ListTable, pagedListOf } from '../components/ListTable';
import { ListScreenHeader, type CreateFormHandlers } from '../components/ListScreenHeader';
import { Badge, Callout } from '../components/misc';
import { useListFilters } from '../components/use-list-filters';
import { Ago } from '../components/DateText';
import { violationText } from '../components/violation-text';
import { useTranslator } from '../i18n/I18nProvider';
import { notify, runWithNotice } from '../stores/notices';
import { useCapabilityInReaderLanguage } from '../components/use-capability';

const PAGE_SIZE = 15;

/** The people of the organization and their roles. Admins only. */
export function UsersScreen() {
  const manage = useCapabilityInReaderLanguage('users.manage');
  const { t } = useTranslation();
  const roleOptions = USER_ROLES.map((value) => ({ value, label: t(`screens:role.${value}`) }));
  const { filters, setFilter, page, setPage } = useListFilters({ search: '', active: '' as '' | 'true' | 'false' });
  const { search, active } = filters;
  const [sort, setSort] = useState<UserSortOption>('FirstNameASC');
  const list = useQuery(
    'users.list',
    {
      search: search.trim() || undefined,
      isActive: active === '' ? undefined : active === 'true',
      sortOptions: sort,
      page,
      limit: PAGE_SIZE,
    },
    manage.allowed,
  );

  const changeRole = (id: string, userRole: UserRole) =>
    runWithNotice(
      () => client().call('users.updateRole', { id, userRole }),
      t('screens:users.roleChanged', { role: t(`screens:role.${userRole}`) }),
      list.reload,
    );
  const remove = (id: string, email: string) =>
    runWithNotice(() => client().call('users.delete', { id }), t('screens:users.removed', { email }), list.reload);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader
        title={t('screens:users.title')}
        capability="users.manage"
        actionLabel={t('screens:users.add')}
        form={(handlers) => <InviteUser {...handlers} />}
        onDone={list.reload}
      />
      {!manage.allowed ? (
        <Callout tone="info" title={t('screens:notAvailableForRole')}>
          {manage.reason}
        </Callout>
      ) : (
        <>
          <div className="toolbar">
            <TextField
              className="toolbar__search"
              label={t('screens:users.search')}
              type="search"
              value={search}
              onChange={setFilter('search')}
              reserveMessage={false}
            />
            <SelectField
              label={t('screens:users.status')}
              name="status"
              value={active}
              options={[
                { value: 'true', label: t('screens:users.active') },
                { value: 'false', label: t('screens:users.inactive') },
              ]}
              emptyLabel={t('screens:users.all')}
              onChange={setFilter('active')}
              reserveMessage={false}
            />
            <SelectField
              label={t('screens:users.sort')}
              name="sort"
              value={sort}
              options={USER_SORT_OPTIONS.map((value) => ({ value, label: t(`screens:users.sort.${value}`) }))}
              onChange={(v) => v && setSort(v)}
              reserveMessage={false}
            />
          </div>
          <ListTable
            columns={[
              t('screens:users.column.name'),
              t('screens:users.column.email'),
              t('screens:users.column.role'),
              t('screens:users.column.status'),
              t('screens:users.column.lastActive'),
              ACTIONS_COLUMN,
            ]}
            {...pagedListOf(list, setPage)}
            row={(u) => (
              <tr key={u.id}>
                <td>
                  {[u.firstName, u.lastName].filter(Boolean).join(' ') ? (
                    <span translate="no">{[u.firstName, u.lastName].filter(Boolean).join(' ')}</span>
                  ) : (
                    <span className="muted">{t('screens:users.notSignedInYet')}</span>
                  )}
                </td>
                <td translate="no">{u.email}</td>
                <td>
                  <InlineSelect
                    label={t('screens:users.roleOf', { email: u.email })}
                    value={u.userRole}
                    options={roleOptions}
                    onChange={(role) => void changeRole(u.id, role)}
                  />
                </td>
                <td>
                  {u.isActive ? (
                    <Badge tone="ok">{t('screens:users.active')}</Badge>
                  ) : (
                    <Badge>{t('screens:users.inactive')}</Badge>
                  )}
                </td>
                <td>
                  <Ago iso={u.lastActivityAt} now={Date.now()} />
                </td>
                <td className="actions-col">
                  <ActionButton variant="quiet" capability="users.manage" onClick={() => void remove(u.id, u.email)}>
                    {t('screens:users.remove')}
                  </ActionButton>
                </td>
              </tr>
            )}
            empty={t('screens:users.noneMatch')}
            errorTitle={t('screens:users.loadFailed')}
          />
        </>
      )}
    </section>
  );
}

function InviteUser({ onClose, onDone }: CreateFormHandlers) {
  const [email, setEmail] = useState('');
  const [userRole, setUserRole] = useState<UserRole>('Operator');
  const [tried, setTried] = useState(false);
  const [serviceError, setServiceError] = useState<string | null>(null);
  const { t } = useTranslation();
  const words = useTranslator();
  const roleOptions = USER_ROLES.map((value) => ({ value, label: t(`screens:role.${value}`) }));
  const parsed = parsePayload(userRegisterSchema, { email: email.trim(), userRole });
  const emailProblem = !parsed.ok ? parsed.violations.find((v) => v.field === 'email') : undefined;
  const emailError = (tried || email.includes('@')) && emailProblem ? violationText(emailProblem, words) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsed.ok) return;
    try {
      await client().call('users.register', parsed.value);
      notify('success', t('screens:users.added', { email: parsed.value.email, role: t(`screens:role.${userRole}`) }));
      onDone();
    } catch (err) {
      setServiceError(errorText(err));
    }
  };

  return (
    <form
      className="panel create-form"
      onSubmit={(e) => void submit(e)}
      aria-label={t('screens:users.addForm')}
      noValidate
    >
      <div className="form-grid">
        <TextField
          label={t('screens:users.email')}
          name="email"
          type="email"
          value={email}
          onChange={setEmail}
          error={emailError ?? serviceError}
        />
        <SelectField
          label={t('screens:users.role')}
          name="userRole"
          value={userRole}
          options={roleOptions}
          onChange={(v) => v && setUserRole(v)}
        />
      </div>
      <FormActions submitLabel={t('screens:users.add')} onCancel={onClose} />
    </form>
  );
}
