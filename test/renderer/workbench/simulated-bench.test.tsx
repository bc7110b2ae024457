// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  AttachedDeviceView,
  Channel,
  ChannelInput,
  ChannelResult,
  FunctionTestObservationView,
  FunctionTestRecordView,
  InvokeOutcome,
} from '../../../contract/index';
import { WorkbenchScreen } from '../../../renderer/screens/WorkbenchScreen';
import { useSession } from '../../../renderer/stores/session';
import { useWorkbench } from '../../../renderer/stores/workbench';
import { FakeApi } from '../fake-api';
import { byLabel, click, mount, settle, typeInto, type Mounted } from '../dom';
import { session } from '../session-fixture';
import { attachedDevice } from '../../fixtures/attached-device';

/**
 * Issue 32, a bench that can reach "commissioned": the function test panel's Stop and its timeout
 * end in a test recorded as not done; in simulation each simulated row offers "Press E-stop" and
 * the Workbench adds a simulated device through a validated form; without a simulation neither shows.
 */

function device(serialNumber: string): AttachedDeviceView {
  return attachedDevice(serialNumber, { model: 'EPC 2', firmwareVersion: '1.1.0' });
}

function notDone(serialNumber: string, why: 'timed out' | 'stopped'): FunctionTestObservationView {
  const recorded: FunctionTestRecordView = {
    serialNumber,
    result: 'fail',
    reasons: [`not done: ${why}`],
    note: '',
    commissioning: { state: 'not-commissioned', missing: ['function test'] },
    ledgerSeq: 7,
    ledgerHash: 'ab'.repeat(32),
  };
  return {
    observationId: 'o-1',
    serialNumber,
    configurationName: 'Line 1',
    pressed: false,
    receivers: [],
    unreachable: [],
    failsBecause: [`not done: ${why}`],
    notDone: `not done: ${why}`,
    recorded,
  };
}

function buttonNamed(container: HTMLElement, text: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
  if (!found) throw new Error(`No button "${text}" in: ${container.textContent}`);
  return found;
}

/** A FakeApi whose functionTest.observe answers only when `held` settles. */
class HeldObserve extends FakeApi {
  constructor(private readonly held: Promise<FunctionTestObservationView>) {
    super();
  }

  override async invoke<C extends Channel>(
    channel: C,
    input: ChannelInput<C>,
  ): Promise<InvokeOutcome<ChannelResult<C>>> {
    if (channel !== 'functionTest.observe') return super.invoke(channel, input);
    this.calls.push({ channel, input });
    return { ok: true, value: (await this.held) as ChannelResult<C> };
  }
}

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  useWorkbench.setState({
    devices: [device('EPC000101')],
    jobs: {},
    selected: [],
    loaded: true,
    error: null,
    parameterConfirmations: {},
  });
});
afterEach(() => {
  view?.unmount();
  view = null;
});

async function openTest(api: FakeApi): Promise<HTMLElement> {
  view = await mount(<WorkbenchScreen />);
  await settle();
  await click(buttonNamed(view.container, 'Function test…'));
  await click(buttonNamed(view.container, 'EPC000101'));
  const dialog = view.container.querySelector<HTMLElement>('[role="dialog"]');
  expect(dialog?.textContent).toContain('Function test of EPC000101');
  expect(api.calls.some((c) => c.channel === 'functionTest.observe')).toBe(false);
  return dialog!;
}

describe('the function test panel: Stop and timeout', () => {
  it('offers Stop while watching; Stop asks the core to end the watch, and the test shows as NOT DONE, recorded', async () => {
    let finish: ((value: FunctionTestObservationView) => void) | undefined;
    // The observe call stays open until Stop ends it, as the core's watch does.
    const pending = new Promise<FunctionTestObservationView>((resolve) => (finish = resolve));
    const api = new HeldObserve(pending)
      .answer('simulation.devices', { active: false, devices: [] })
      .answer('functionTest.stop', (input) => {
        finish?.(notDone(input.serialNumber, 'stopped'));
        return { stopped: true };
      })
      .install();
    const dialog = await openTest(api);
    await click(buttonNamed(dialog, 'Start watching'));
    expect(dialog.textContent).toContain('press the E-stop now.');
    expect(dialog.textContent).toContain('With no press within 60 s the test ends as not done (timed out)');
    const observe = api.calls.find((c) => c.channel === 'functionTest.observe');
    expect(observe?.input).toEqual({ serialNumber: 'EPC000101', pressTimeoutSeconds: 60 });

    await click(buttonNamed(dialog, 'Stop'));
    await settle();
    expect(api.calls.filter((c) => c.channel === 'functionTest.stop').map((c) => c.input)).toEqual([
      { serialNumber: 'EPC000101' },
    ]);
    const result = dialog.querySelector('[data-testid="function-test-result"]');
    expect(result?.textContent).toMatch(
      /^NOT DONE: stopped, no press of the E-stop was seen\. EPC000101 is NOT commissioned/,
    );
    expect(dialog.textContent).toContain('Recorded in the ledger as entry 7');
    // Nothing is left for the technician to judge: the core recorded it, no verdict is asked.
    expect(dialog.textContent).not.toContain('Did the machine stop safely');
    expect(api.calls.some((c) => c.channel === 'functionTest.record')).toBe(false);
  });

  it('shows a watch that timed out as NOT DONE: timed out', async () => {
    const api = new FakeApi()
      .answer('simulation.devices', { active: false, devices: [] })
      .answer('functionTest.observe', (input) => notDone(input.serialNumber, 'timed out'))
      .install();
    const dialog = await openTest(api);
    await click(buttonNamed(dialog, 'Start watching'));
    await settle();
    expect(dialog.querySelector('[data-testid="function-test-result"]')?.textContent).toMatch(
      /^NOT DONE: timed out, no press of the E-stop was seen\./,
    );
    expect(dialog.textContent).toContain('Why: not done: timed out.');
  });
});

describe('the simulated bench on the Workbench', () => {
  it('shows neither Press E-stop nor the add form without a simulation', async () => {
    new FakeApi().answer('simulation.devices', { active: false, devices: [] }).install();
    view = await mount(<WorkbenchScreen />);
    await settle();
    expect(view.container.querySelector('[data-testid="press-estop"]')).toBeNull();
    expect(view.container.textContent).not.toContain('Add a simulated device');
  });

  it("presses a simulated device's E-stop from its row, and only that device's", async () => {
    useWorkbench.setState({ devices: [device('EPC000101'), device('EPC000102')] });
    const api = new FakeApi()
      .answer('simulation.devices', {
        active: true,
        devices: [{ serialNumber: 'EPC000101', deviceType: 'EPC', canPressEstop: true }],
      })
      .answer('simulation.pressEstop', (input) => ({ serialNumber: input.serialNumber, presses: 1 }))
      .install();
    view = await mount(<WorkbenchScreen />);
    await settle();
    const row = (serial: string) => view!.container.querySelector<HTMLElement>(`tr[data-serial="${serial}"]`)!;
    // EPC000102 is attached but not simulated here (a real device): no button for it.
    expect(row('EPC000102').querySelector('[data-testid="press-estop"]')).toBeNull();
    const press = row('EPC000101').querySelector<HTMLButtonElement>('[data-testid="press-estop"]')!;
    expect(press.getAttribute('aria-label')).toBe('Press E-stop on EPC000101 (simulated)');
    await click(press);
    await settle();
    expect(api.calls.filter((c) => c.channel === 'simulation.pressEstop').map((c) => c.input)).toEqual([
      { serialNumber: 'EPC000101' },
    ]);
    expect(press.getAttribute('title')).toBe('Pressed 1 time since the device started.');
  });

  it('adds a simulated device through a form that says what is wrong before it sends anything', async () => {
    const api = new FakeApi()
      .answer('simulation.devices', {
        active: true,
        devices: [{ serialNumber: 'EPC000101', deviceType: 'EPC', canPressEstop: true }],
      })
      .answer('simulation.addDevice', (input) => ({
        device: { serialNumber: input.serialNumber, deviceType: input.deviceType, canPressEstop: true },
        registered: true,
        registrationProblem: null,
      }))
      .answer('workbench.rescan', [])
      .install();
    view = await mount(<WorkbenchScreen />);
    await settle();
    const form = view.container.querySelector<HTMLFormElement>('form[aria-label="Add a simulated device"]')!;
    // Untouched: no error yet.
    expect(form.querySelector('[role="alert"]')).toBeNull();
    await click(buttonNamed(form, 'Add device'));
    expect(form.querySelector('[role="alert"]')?.textContent).toBe('Give the serial number, e.g. EPC000105.');
    await typeInto(byLabel(form, 'Serial number'), 'SRCP000105');
    expect(form.querySelector('[role="alert"]')?.textContent).toBe(
      'SRCP000105 starts with SRCP, not EPC: give a serial number like EPC000105, or choose the type SRCP.',
    );
    await typeInto(byLabel(form, 'Serial number'), 'EPC105');
    expect(form.querySelector('[role="alert"]')?.textContent).toBe(
      'The serial number is EPC and six digits, e.g. EPC000105.',
    );
    await click(buttonNamed(form, 'Add device'));
    expect(api.calls.some((c) => c.channel === 'simulation.addDevice')).toBe(false);

    await typeInto(byLabel(form, 'Device type'), 'NSCP');
    await typeInto(byLabel(form, 'Serial number'), 'nscp000105');
    expect(form.querySelector('[role="alert"]')).toBeNull();
    await click(buttonNamed(form, 'Add device'));
    await settle();
    expect(api.calls.filter((c) => c.channel === 'simulation.addDevice').map((c) => c.input)).toEqual([
      { deviceType: 'NSCP', serialNumber: 'NSCP000105' },
    ]);
    expect(view.container.textContent).toContain(
      'NSCP000105 is plugged in on the bench and registered in the organization',
    );
    // The bench's list is read again, and the device list is rescanned.
    expect(api.calls.filter((c) => c.channel === 'simulation.devices').length).toBeGreaterThanOrEqual(2);
    expect(api.calls.some((c) => c.channel === 'workbench.rescan')).toBe(true);
  });
});
