// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeviceEditor } from '../../renderer/designer/DeviceEditor';
import { useSession } from '../../renderer/stores/session';
import { byLabel, mount, settle, typeInto, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';
import { configurationView } from './configuration-fixture';

const configuration = configurationView({ canMode: 'none' });

const free = { serialNumber: 'EPC000101', name: 'EPC000101', deviceType: 'EPC' } as const;

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  new FakeApi()
    .answer('devices.list', { items: [free] as never, page: 1, limit: 30, totalCount: 1 })
    .answer('templates.list', [])
    .install();
});
afterEach(() => {
  view?.unmount();
  view = null;
});

const errors = (container: HTMLElement) =>
  [...container.querySelectorAll('.field__error, [role="alert"]')]
    .map((e) => e.textContent ?? '')
    .filter((t) => t.trim() !== '');

describe('the add-device form', () => {
  it('opens with the cursor in its first field and shows no error before anything is touched', async () => {
    view = await mount(
      <DeviceEditor
        mode="add"
        configuration={configuration}
        device={null}
        region="NA"
        onClose={() => undefined}
        onSaved={() => undefined}
      />,
    );
    await settle();
    expect(document.activeElement).toBe(byLabel(view.container, 'Device'));
    await typeInto(byLabel(view.container, 'Device') as unknown as HTMLSelectElement, 'EPC000101');
    await settle();
    // The device's fields appear, with rules a fresh form breaks (no role, no interface): none shown yet.
    expect(view.container.textContent).toContain('Role');
    expect(errors(view.container)).toEqual([]);
  });

  it('shows an error under a field once that field is changed, and only there', async () => {
    view = await mount(
      <DeviceEditor
        mode="add"
        configuration={configuration}
        device={null}
        region="NA"
        onClose={() => undefined}
        onSaved={() => undefined}
      />,
    );
    await settle();
    await typeInto(byLabel(view.container, 'Device') as unknown as HTMLSelectElement, 'EPC000101');
    await settle();
    await typeInto(byLabel(view.container, 'CAN 0 id'), 'abc');
    const shown = errors(view.container);
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatch(/whole number/i);
  });
});
