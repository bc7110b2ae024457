// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConfigurationStatusView, ConfigurationView } from '../../contract/index';
import { ConfigurationDesigner } from '../../renderer/designer/ConfigurationDesigner';
import { useSession } from '../../renderer/stores/session';
import { byLabel, mount, settle, typeInto, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';

const configuration: ConfigurationView = {
  id: '6b1f3c2e-9d4a-4c8e-8f00-2a1b3c4d5e6f',
  name: 'Line 3',
  startingIpAddress: null,
  ismTxPower: 'High',
  ismTxChannel: 5,
  ismNetworkId: null,
  canMode: 'none',
  canKBitrate: null,
  displayTextPgn: null,
  settingsPgn: null,
  approvedSourceAddresses: null,
  receiverOutputControl: null,
  timeoutConfiguration: '1000ms',
  devices: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  lastEditedAt: '2026-01-01T00:00:00.000Z',
};
const complete: ConfigurationStatusView = { complete: true, violations: [], warnings: [], devices: [] };

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  new FakeApi().answer('configurations.get', configuration).answer('configurations.status', complete).answer('templates.list', []).install();
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
    expect(view.container.querySelector('.screen-header, header')?.textContent ?? view.container.textContent).toContain('Unsaved changes');

    await typeInto(byLabel(view.container, 'ISM channel'), '5');
    await typeInto(byLabel(view.container, 'Starting IP address'), '');
    await settle();
    expect(statusPanel()).not.toContain('Unsaved changes');
  });
});
