// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigurationStatusView } from '../../contract/index';
import { ConfigurationDesigner } from '../../renderer/designer/ConfigurationDesigner';
import { useSession } from '../../renderer/stores/session';
import { byLabel, mount, settle, typeInto, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';
import { configurationView } from './configuration-fixture';

const configuration = configurationView({ ismTxPower: 'High', ismTxChannel: 5, canMode: 'none' });
const complete: ConfigurationStatusView = { complete: true, violations: [], warnings: [], devices: [] };

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  new FakeApi()
    .answer('configurations.get', configuration)
    .answer('configurations.status', complete)
    .answer('templates.list', [])
    .install();
});
afterEach(() => {
  view?.unmount();
  view = null;
});

const statusPanel = () => view!.container.querySelector('.status-panel')?.textContent ?? '';

describe('the designer’s Status panel judges the settings as edited', () => {
  it('says nothing of unsaved changes until a setting is edited, then marks them and lists what the edits break', async () => {
    view = await mount(<ConfigurationDesigner id={configuration.id} />);
    await settle();
    expect(statusPanel()).toContain('Complete');
    expect(statusPanel()).not.toContain('Unsaved changes');

    await typeInto(byLabel(view.container, 'ISM channel'), '40');
    await typeInto(byLabel(view.container, 'Starting IP address'), '192.168.10.300');
    await settle();
    expect(statusPanel()).toContain('Unsaved changes');
    expect(statusPanel()).toContain('2 fields to fix');
    expect(view.container.querySelector('.screen-header, header')?.textContent ?? view.container.textContent).toContain(
      'Unsaved changes',
    );

    await typeInto(byLabel(view.container, 'ISM channel'), '5');
    await typeInto(byLabel(view.container, 'Starting IP address'), '');
    await settle();
    expect(statusPanel()).not.toContain('Unsaved changes');
  });
});
