import { useState, type FormEvent } from 'react';
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
import { agoText } from '../format/units';
import { notify, runWithNotice } from '../stores/notices';
import { useCapability } from '../stores/session';

const PAGE_SIZE = 15;
const SORT_LABELS: Record<UserSortOption, string> = {
  FirstNameASC: 'First name, A to Z',
  FirstNameDESC: 'First name, Z to A',
  LastActivityDESC: 'Last active, newest first',
  LastActivityASC: 'Last active, oldest first',
};
const ROLE_OPTIONS = USER_ROLES.map((value) => ({ value, label: value }));

/** The people of the organization and their roles. Admins only. */
export function UsersScreen() {
  const manage = useCapability('users.manage');
  const { filters, setFilter, page, setPage } = useListFilters({ search: '', active: '' as '' | 'true' | 'false' });
  const { search, active } = filters;
  const [sort, setSort] = useState<UserSortOption>('FirstNameASC');
  const list = useQuery('users.list', { search: search.trim() || undefined, isActive: active === '' ? undefined : active === 'true', sortOptions: sort, page, limit: PAGE_SIZE }, manage.allowed);

  const changeRole = (id: string, userRole: UserRole) => runWithNotice(() => client().call('users.updateRole', { id, userRole }), `Role changed to ${userRole}.`, list.reload);
  const remove = (id: string, email: string) => runWithNotice(() => client().call('users.delete', { id }), `${email} removed.`, list.reload);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ListScreenHeader title="Users" capability="users.manage" actionLabel="Add user" form={(handlers) => <InviteUser {...handlers} />} onDone={list.reload} />
      {!manage.allowed ? (
        <Callout tone="info" title="Not available for your role">
          {manage.reason}
        </Callout>
      ) : (
        <>
          <div className="toolbar">
            <TextField className="toolbar__search" label="Search name or email" type="search" value={search} onChange={setFilter('search')} reserveMessage={false} />
            <SelectField label="Status" value={active} options={[{ value: 'true', label: 'Active' }, { value: 'false', label: 'Inactive' }]} emptyLabel="All" onChange={setFilter('active')} reserveMessage={false} />
            <SelectField label="Sort" value={sort} options={USER_SORT_OPTIONS.map((value) => ({ value, label: SORT_LABELS[value] }))} onChange={(v) => v && setSort(v)} reserveMessage={false} />
          </div>
          <ListTable
            columns={['Name', 'Email', 'Role', 'Status', 'Last active', ACTIONS_COLUMN]}
            {...pagedListOf(list, setPage)}
            row={(u) => (
              <tr key={u.id}>
                <td>{[u.firstName, u.lastName].filter(Boolean).join(' ') || <span className="muted">Not signed in yet</span>}</td>
                <td>{u.email}</td>
                <td>
                  <InlineSelect label={`Role of ${u.email}`} value={u.userRole} options={ROLE_OPTIONS} onChange={(role) => void changeRole(u.id, role)} />
                </td>
                <td>{u.isActive ? <Badge tone="ok">Active</Badge> : <Badge>Inactive</Badge>}</td>
                <td>{agoText(u.lastActivityAt, Date.now())}</td>
                <td className="actions-col">
                  <ActionButton variant="quiet" capability="users.manage" onClick={() => void remove(u.id, u.email)}>
                    Remove
                  </ActionButton>
                </td>
              </tr>
            )}
            empty="No users match."
            errorTitle="Could not load users"
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
  const parsed = parsePayload(userRegisterSchema, { email: email.trim(), userRole });
  const emailError = (tried || email.includes('@')) && !parsed.ok ? (parsed.violations.find((v) => v.field === 'email')?.message ?? null) : null;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (!parsed.ok) return;
    try {
      await client().call('users.register', parsed.value);
      notify('success', `${parsed.value.email} added as ${userRole}.`);
      onDone();
    } catch (err) {
      setServiceError(errorText(err));
    }
  };

  return (
    <form className="panel create-form" onSubmit={(e) => void submit(e)} aria-label="Add a user" noValidate>
      <div className="form-grid">
        <TextField label="Email" name="email" type="email" value={email} onChange={setEmail} error={emailError ?? serviceError} />
        <SelectField label="Role" name="userRole" value={userRole} options={ROLE_OPTIONS} onChange={(v) => v && setUserRole(v)} />
      </div>
      <FormActions submitLabel="Add user" onCancel={onClose} />
    </form>
  );
}
