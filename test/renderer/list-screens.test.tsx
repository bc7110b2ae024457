// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiKeyRole } from '../../domain/enums';
import { ApiKeysScreen } from '../../renderer/screens/ApiKeysScreen';
import { UsersScreen } from '../../renderer/screens/UsersScreen';
import { useSession } from '../../renderer/stores/session';
import { FakeApi } from './fake-api';
import { button, click, mount, settle, typeInto, type Mounted } from './dom';
import { session } from './session-fixture';

const ana = {
  id: '6b1f3c2e-9d4a-4c8e-8f00-2a1b3c4d5e6f',
  email: 'ana@example.com',
  firstName: 'Ana',
  lastName: 'Ruiz',
  userRole: 'Operator',
  isActive: true,
  lastActivityAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
} as const;

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
});
afterEach(() => {
  view?.unmount();
  view = null;
});

function select(container: HTMLElement, label: string): HTMLSelectElement {
  const found = container.querySelector(`select[aria-label="${label}"]`);
  if (!(found instanceof HTMLSelectElement)) throw new Error(`no select labelled ${label}`);
  return found;
}

describe('UsersScreen', () => {
  it('changes a role from the row and reloads the list', async () => {
    const api = new FakeApi()
      .answer('users.list', { items: [ana], page: 1, limit: 15, totalCount: 1 })
      .answer('users.updateRole', true)
      .install();
    view = await mount(<UsersScreen />);
    await settle();
    const role = select(view.container, 'Role of ana@example.com');
    expect(role.value).toBe('Operator');
    expect(view.container.querySelector('.pager__text')?.textContent).toBe('1–1 of 1 · page 1 of 1');
    expect([...role.options].map((o) => o.value)).toContain('Admin');
    await typeInto(role, 'Admin');
    await settle();
    expect(api.calls.filter((c) => c.channel !== 'users.list')).toEqual([
      { channel: 'users.updateRole', input: { id: ana.id, userRole: 'Admin' } },
    ]);
    expect(api.calls.filter((c) => c.channel === 'users.list')).toHaveLength(2);
  });

  it('opens the add form from the header, and Cancel closes it without a call', async () => {
    const api = new FakeApi().answer('users.list', { items: [], page: 1, limit: 15, totalCount: 0 }).install();
    view = await mount(<UsersScreen />);
    await settle();
    expect(view.container.querySelector('form[aria-label="Add a user"]')).toBeNull();
    await click(button(view.container, 'Add user'));
    expect(view.container.querySelector('form[aria-label="Add a user"]')).not.toBeNull();
    await click(button(view.container, 'Cancel'));
    expect(view.container.querySelector('form[aria-label="Add a user"]')).toBeNull();
    expect(api.calls.map((c) => c.channel)).toEqual(['users.list']);
  });
});

describe('ApiKeysScreen', () => {
  it('keeps the role of the key signed in with fixed, and changes another', async () => {
    const key = (name: string, role: ApiKeyRole) => ({
      name,
      role,
      key: null,
      createdAt: '2026-01-01T00:00:00.000Z',
      lastUsedAt: null,
    });
    const api = new FakeApi()
      .answer('apiKeys.list', [key('k', 'Admin'), key('line-3', 'Operator')])
      .answer('apiKeys.updateRole', true)
      .install();
    view = await mount(<ApiKeysScreen />);
    await settle();
    const own = select(view.container, 'Role of k');
    expect(own.disabled).toBe(true);
    expect(own.title).toContain('signed in with');
    const other = select(view.container, 'Role of line-3');
    expect(other.disabled).toBe(false);
    await typeInto(other, 'Service');
    await settle();
    expect(api.calls.filter((c) => c.channel === 'apiKeys.updateRole')).toEqual([
      { channel: 'apiKeys.updateRole', input: { keyName: 'line-3', role: 'Service' } },
    ]);
  });
});
