// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FunctionTestObservationView } from '../../../contract/index';
import { CATALOGS } from '../../../domain/i18n/index.js';
import { I18nProvider } from '../../../renderer/i18n/I18nProvider';
import { useLanguage } from '../../../renderer/i18n/language';
import { WorkbenchScreen } from '../../../renderer/screens/WorkbenchScreen';
import { useSession } from '../../../renderer/stores/session';
import { useWorkbench } from '../../../renderer/stores/workbench';
import { FakeApi } from '../fake-api';
import { click, mount, settle, type Mounted } from '../dom';
import { session } from '../session-fixture';
import { attachedDevice } from '../../fixtures/attached-device';

/**
 * Why a function test fails, on the Workbench's panel in the reader's language (issue 29): the
 * core sends the reasons as codes and values beside its English words, and the panel says them
 * from the core catalog; the serial numbers stay as they are.
 */

const observed: FunctionTestObservationView = {
  observationId: 'o-1',
  serialNumber: 'EPC000101',
  configurationName: 'Line 1',
  pressed: true,
  receivers: [{ serialNumber: 'EPC000102', tripped: false, reactionMs: null }],
  unreachable: [],
  failsBecause: ['EPC000102 did not trip'],
  failReasons: [{ kind: 'didNotTrip', serial: 'EPC000102' }],
  notDone: null,
  recorded: null,
};

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  useWorkbench.setState({
    devices: [attachedDevice('EPC000101', { model: 'EPC 2', firmwareVersion: '1.1.0' })],
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
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: null });
});

function buttonNamed(container: HTMLElement, text: string): HTMLButtonElement {
  const found = [...container.querySelectorAll('button')].find((b) => b.textContent?.trim() === text);
  if (!found) throw new Error(`No button "${text}" in: ${container.textContent}`);
  return found;
}

/** The Workbench in German, its function test of EPC000101 watched, the core answering `observation`: the dialog. */
async function watchedInGerman(observation: FunctionTestObservationView): Promise<HTMLElement> {
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: 'de' });
  new FakeApi()
    .answer('simulation.devices', { active: false, devices: [] })
    .answer('functionTest.observe', () => observation)
    .install();
  const words = CATALOGS.de.workbench;
  view = await mount(
    <I18nProvider>
      <WorkbenchScreen />
    </I18nProvider>,
  );
  await settle();
  await click(buttonNamed(view.container, words['functionTest.open']!));
  await click(buttonNamed(view.container, 'EPC000101'));
  const dialog = view.container.querySelector<HTMLElement>('[role="dialog"]')!;
  await click(buttonNamed(dialog, words['functionTest.startWatching']!));
  await settle();
  return dialog;
}

describe('the function test panel in German', () => {
  it('says why the test fails from the core’s codes', async () => {
    const dialog = await watchedInGerman(observed);
    expect(dialog.textContent).toContain('EPC000102 hat nicht ausgelöst');
    expect(dialog.textContent).not.toContain('did not trip');
  });

  it('says how a test not done ended from the core’s code', async () => {
    const stopped: FunctionTestObservationView = {
      ...observed,
      pressed: false,
      receivers: [],
      failsBecause: ['not done: stopped'],
      failReasons: [{ kind: 'notDone', ended: 'stopped' }],
      notDone: 'not done: stopped',
      recorded: {
        serialNumber: 'EPC000101',
        result: 'fail',
        reasons: ['not done: stopped'],
        failReasons: [{ kind: 'notDone', ended: 'stopped' }],
        note: '',
        commissioning: { state: 'not-commissioned', missing: ['function test'] },
        ledgerSeq: 7,
        ledgerHash: 'ab'.repeat(32),
      },
    };
    const dialog = await watchedInGerman(stopped);
    const result = dialog.querySelector('[data-testid="function-test-result"]');
    expect(result?.textContent).toContain('abgebrochen, keine Betätigung des Not-Halts erkannt.');
    expect(dialog.textContent).not.toMatch(/stopped|not done/);
  });
});
