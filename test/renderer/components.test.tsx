// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RegisteredDeviceRowView } from '../../contract/index';
import { ActionButton } from '../../renderer/components/ActionButton';
import { ProgressCell } from '../../renderer/components/ProgressCell';
import { ScreenHeader } from '../../renderer/components/misc';
import { SettingsForm } from '../../renderer/designer/SettingsForm';
import { WorkbenchScreen } from '../../renderer/screens/WorkbenchScreen';
import { DevicesScreen } from '../../renderer/screens/DevicesScreen';
import { SignInScreen } from '../../renderer/screens/SignInScreen';
import { useWorkbench } from '../../renderer/stores/workbench';
import { useSession } from '../../renderer/stores/session';
import { jobView } from '../fixtures/job-view';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';
import { button, byLabel, click, messageOf, mount, settle, typeInto, type Mounted } from './dom';
import { configurationView } from './configuration-fixture';

const configuration = configurationView({ id: '3f2c8a4e-1b7d-4c8e-9f00-2a1b3c4d5e6f' });

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  useWorkbench.setState({ devices: [], jobs: {}, selected: [], loaded: true, error: null });
});
afterEach(() => {
  view?.unmount();
  view = null;
});

describe('ProgressCell', () => {
  it('keeps the same structure while running and shows the numbers in their own columns', async () => {
    view = await mount(<ProgressCell job={jobView({})} label="EPC000101" />);
    const bar = view.container.querySelector('progress')!;
    expect(bar.getAttribute('value')).toBe('50');
    expect(bar.getAttribute('aria-label')).toBe('EPC000101: Uploading firmware');
    const texts = [...view.container.querySelectorAll('.progress__text > span')].map((s) => s.textContent);
    expect(texts).toEqual(['Uploading firmware', '50%', '', '10 B/s', '5 s left']);
  });

  it('gives a finished job the whole line for its result', async () => {
    view = await mount(
      <ProgressCell job={jobView({ phase: 'failed', resultMessage: 'no answer' })} label="EPC000101" />,
    );
    expect(view.container.querySelector('.progress')?.getAttribute('data-phase')).toBe('failed');
    expect(view.container.querySelector('.progress__label')?.textContent).toBe('Failed: no answer');
    expect(view.container.querySelectorAll('.progress__text > span')).toHaveLength(2);
  });
});

describe('ActionButton', () => {
  it('refuses what the role may not do, stays focusable and says why', async () => {
    useSession.setState({ session: session('Operator') });
    let clicked = 0;
    view = await mount(
      <ActionButton capability="configurations.write" onClick={() => clicked++} showReason>
        New configuration
      </ActionButton>,
    );
    const b = button(view.container, 'New configuration');
    expect(b.getAttribute('aria-disabled')).toBe('true');
    expect(b.disabled).toBe(false);
    expect(messageOf(b)).toContain('Operator may not create or change configurations');
    await click(b);
    expect(clicked).toBe(0);
  });
});

describe('SignInScreen', () => {
  it('shows each problem beside its field, then signs in with what was typed', async () => {
    useSession.setState({ session: { status: 'signedOut', lastServiceUrl: null, lastOrgId: null } });
    const api = new FakeApi().answer('session.signIn', session('Admin')).install();
    view = await mount(<SignInScreen />);
    await click(button(view.container, 'Sign in'));
    expect(messageOf(byLabel(view.container, 'Service URL'))).toContain('Enter the address');
    expect(messageOf(byLabel(view.container, 'API key'))).toContain('Paste the API key');
    expect(api.calls).toEqual([]);

    await typeInto(byLabel(view.container, 'Service URL'), 'ftp://x');
    expect(messageOf(byLabel(view.container, 'Service URL'))).toContain('must start with https://');
    await typeInto(byLabel(view.container, 'Service URL'), 'https://dcms.example.com');
    await typeInto(byLabel(view.container, 'Organization'), 'acme');
    await typeInto(byLabel(view.container, 'API key'), 'secret-key-123');
    await click(button(view.container, 'Sign in'));
    await settle();
    expect(api.calls).toEqual([
      {
        channel: 'session.signIn',
        input: { serviceUrl: 'https://dcms.example.com', orgId: 'acme', apiKey: 'secret-key-123', remember: true },
      },
    ]);
    // The key does not stay in the form after it was accepted.
    expect(byLabel(view.container, 'API key').value).toBe('');
  });
});

describe('ScreenHeader', () => {
  it('shows a note in the muted tone, and no note box without one', async () => {
    view = await mount(<ScreenHeader title="Station" note="Plug devices in." />);
    const note = view.container.querySelector('.screen-header__note');
    expect(note?.textContent).toBe('Plug devices in.');
    expect(note?.classList.contains('muted')).toBe(true);
    view.unmount();
    view = await mount(<ScreenHeader title="Station" />);
    expect(view.container.querySelector('.screen-header__note')).toBeNull();
  });
});

/** A SettingsForm on a service that accepts every change: the dry run answers no violations, the save the configuration. */
async function mountAcceptingSettingsForm() {
  const api = new FakeApi()
    .answer('configurations.update', (input) => ({
      dryRun: input.dryRun ?? false,
      violations: [],
      value: input.dryRun ? null : configuration,
    }))
    .install();
  const saved = { count: 0 };
  view = await mount(<SettingsForm configuration={configuration} region="NA" onSaved={() => saved.count++} />);
  const container = view.container;
  /** Saves, and checks that the service was asked with dryRun first, then for real, and the form said saved once. */
  const saveAndExpect = async (settings: Record<string, unknown>) => {
    await click(button(container, 'Save settings'));
    await settle();
    expect(api.calls.map((c) => c.input)).toEqual([
      { id: configuration.id, settings, dryRun: true },
      { id: configuration.id, settings, dryRun: false },
    ]);
    expect(saved.count).toBe(1);
  };
  return { container, saveAndExpect };
}

describe('SettingsForm', () => {
  it('shows the domain rule beside the field while typing and asks the service with dryRun before saving', async () => {
    const { container, saveAndExpect } = await mountAcceptingSettingsForm();
    const channel = byLabel(container, 'ISM channel');
    await typeInto(channel, '22');
    expect(channel.getAttribute('aria-invalid')).toBe('true');
    expect(messageOf(channel)).toContain('ISM channel 22 does not exist in North America');
    const save = button(container, 'Save settings');
    expect(save.getAttribute('aria-disabled')).toBe('true');

    await typeInto(channel, '5');
    expect(channel.getAttribute('aria-invalid')).toBe('false');
    expect(save.getAttribute('aria-disabled')).toBe('false');
    await saveAndExpect({ ismTxChannel: 5 });
  });

  it('shows a rule of ours as a warning that does not stop the save', async () => {
    const { container, saveAndExpect } = await mountAcceptingSettingsForm();
    const networkId = byLabel(container, 'ISM network id');
    await typeInto(networkId, '-1');
    expect(networkId.getAttribute('aria-invalid')).toBe('false');
    const warnings = container.querySelector('[data-testid="designer-warnings"]');
    expect(warnings?.textContent).toContain('ISM_NETWORK_ID_OUT_OF_RANGE');
    expect(button(container, 'Save settings').getAttribute('aria-disabled')).toBe('false');
    await saveAndExpect({ ismNetworkId: -1 });
  });

  it('places the violations of the dry run beside their fields and saves nothing', async () => {
    const api = new FakeApi()
      .answer('configurations.update', {
        dryRun: true,
        violations: [
          { code: 'ISM_CHANNEL_NOT_ALLOWED_IN_REGION', field: 'ismTxChannel', message: 'Europe: channel 1 only.' },
        ],
        value: null,
      })
      .install();
    view = await mount(<SettingsForm configuration={configuration} region="NA" onSaved={() => undefined} />);
    await typeInto(byLabel(view.container, 'ISM channel'), '5');
    await click(button(view.container, 'Save settings'));
    await settle();
    expect(messageOf(byLabel(view.container, 'ISM channel'))).toContain('Europe: channel 1 only.');
    expect(api.calls).toHaveLength(1);
  });
});

describe('WorkbenchScreen', () => {
  it('starts the chosen action on the selected devices', async () => {
    const api = new FakeApi().answer('workbench.start', []).install();
    useWorkbench.setState({
      devices: ['a', 'b'].map((n) => ({
        linkId: `serial:/dev/${n}`,
        linkKind: 'serial',
        address: `/dev/${n}`,
        serialNumber: `EPC00010${n}`,
        deviceType: 'EPC',
        model: 'EPC-E4',
        firmwareVersion: '1.0.0',
        configSyncId: null,
        error: null,
        needs: {
          firmware: { needed: true, latestVersion: '1.1.0', reason: null },
          configuration: { needed: false, syncId: null, reason: 'In no configuration.', blocked: null },
        },
        activeJobId: null,
      })),
    });
    view = await mount(<WorkbenchScreen />);
    expect(button(view.container, 'Update firmware').getAttribute('aria-disabled')).toBe('true');
    const selectAll = view.container.querySelector('input[aria-label="Select all devices"]') as HTMLInputElement;
    await click(selectAll);
    expect(view.container.querySelector('.toolbar__count')?.textContent).toBe('2 selected');
    await click(button(view.container, 'Update firmware'));
    await settle();
    expect(api.calls.filter((c) => c.channel === 'workbench.start')).toEqual([
      { channel: 'workbench.start', input: { action: 'firmware', linkIds: ['serial:/dev/a', 'serial:/dev/b'] } },
    ]);
    expect(view.container.querySelector('.toolbar__count')?.textContent).toBe('0 selected');
    expect(view.container.textContent).toContain('Firmware 1.1.0');
  });
});

describe('DevicesScreen', () => {
  function row(
    serialNumber: string,
    sync: RegisteredDeviceRowView['sync'],
    commissioning: RegisteredDeviceRowView['commissioning'] = null,
  ): RegisteredDeviceRowView {
    return {
      serialNumber,
      name: serialNumber,
      deviceType: 'EPC',
      model: 'EPC-E4',
      hasImage: false,
      deviceImage: null,
      configurationId: null,
      configurationName: null,
      firmwareVersion: '1.0.0',
      lastFirmwareApply: null,
      deployStatus: 'NotDeployed',
      deployedSyncId: null,
      lastConfigurationApply: null,
      registeredAt: '2026-01-01T00:00:00.000Z',
      sync,
      commissioning,
    };
  }

  it('shows how each device stands against the service, and when it was last observed', async () => {
    new FakeApi()
      .answer('devices.list', {
        items: [
          row('EPC000101', {
            state: 'behind',
            text: 'firmware behind (device 1.0.0, service expects 1.1.0)',
            expectedFirmwareVersion: '1.1.0',
            lastObservedAt: '2026-01-05T09:12:40.000Z',
          }),
          row('EPC000102', {
            state: 'in-sync',
            text: 'in sync',
            expectedFirmwareVersion: '1.0.0',
            lastObservedAt: null,
          }),
        ],
        page: 1,
        limit: 15,
        totalCount: 2,
      })
      .install();
    view = await mount(<DevicesScreen />);
    await settle();
    const cells = (serial: string, testId: string) =>
      view!.container.querySelector(`tr[data-serial="${serial}"] [data-testid="${testId}"]`)?.textContent ?? '';
    expect(cells('EPC000101', 'registry-sync')).toContain('Behind');
    expect(cells('EPC000101', 'registry-sync')).toContain('service expects 1.1.0');
    // A short state in the row; the long why only on demand, in a closed disclosure (issue 32).
    const sync = view.container.querySelector('tr[data-serial="EPC000101"] [data-testid="registry-sync"]')!;
    expect(sync.querySelector('summary')?.textContent).toBe('Behind');
    expect(sync.querySelector('details:not([open]) .registry-sync__why')?.textContent).toBe(
      'firmware behind (device 1.0.0, service expects 1.1.0)',
    );
    expect(cells('EPC000101', 'registry-observed')).not.toBe('Never');
    expect(cells('EPC000102', 'registry-sync')).toBe('In sync');
    expect(cells('EPC000102', 'registry-observed')).toBe('Never');
  });

  it('says which commissioning step a device in a configuration still needs', async () => {
    const inSync = {
      state: 'in-sync',
      text: 'in sync',
      expectedFirmwareVersion: '1.0.0',
      lastObservedAt: null,
    } as const;
    new FakeApi()
      .answer('devices.list', {
        items: [
          row('EPC000101', inSync, { state: 'untested', missing: ['function test'] }),
          row('EPC000102', inSync, {
            state: 'parameters-differ',
            missing: ['parameter verification', 'function test'],
          }),
          row('EPC000103', inSync, { state: 'commissioned', missing: [] }),
          row('EPC000104', inSync, null),
        ],
        page: 1,
        limit: 15,
        totalCount: 4,
      })
      .install();
    view = await mount(<DevicesScreen />);
    await settle();
    const cell = (serial: string) =>
      view!.container.querySelector(`tr[data-serial="${serial}"] [data-testid="registry-commissioning"]`)!;
    expect(cell('EPC000101').textContent).toBe('Needs function test');
    expect(cell('EPC000101').querySelector('[title]')?.getAttribute('title')).toMatch(
      /not commissioned.*missing: function test/,
    );
    expect(cell('EPC000102').textContent).toBe('Parameters differ');
    expect(cell('EPC000103').textContent).toBe('Commissioned');
    expect(cell('EPC000104').textContent).toBe('—');
  });
});
