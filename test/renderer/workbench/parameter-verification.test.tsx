// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachedDeviceView, JobView, WireError } from '../../../contract/index';
import { parameterTableView } from '../../../domain/parameter-table-view';
import {
  compareParameters,
  confirmationRefusal,
  parameterChecksum,
  shortChecksum,
  type ParameterComparison,
  type ParameterValues,
} from '../../../domain/running-parameters';
import { WorkbenchScreen } from '../../../renderer/screens/WorkbenchScreen';
import { useSession } from '../../../renderer/stores/session';
import { useTechnician } from '../../../renderer/stores/technician';
import { useWorkbench } from '../../../renderer/stores/workbench';
import { jobView } from '../../fixtures/job-view';
import { FakeApi } from '../fake-api';
import { byLabel, mount, settle, typeInto, type Mounted } from '../dom';
import { session } from '../session-fixture';

/**
 * Issue 26 in the Workbench: after an apply the table of what the device runs beside what the
 * configuration intends, and a confirmation a person types (the device's short checksum, with
 * their name), submitted from the keyboard. The core's answers follow the domain's own rule.
 */

const SERIAL = 'EPC000101';
const LINK = `serial:/dev/${SERIAL}`;
const INTENDED: ParameterValues = {
  'safety.timeout': 1000,
  'safety.stopCategory': 'CAT0',
  'safety.ossdEnabled': true,
  'ism.channel': 12,
  'can.bitrate': 250000,
};

function comparisonWith(running: ParameterValues): ParameterComparison {
  return compareParameters(INTENDED, { values: running, checksum: parameterChecksum(running), checksumBy: 'device' });
}

function device(): AttachedDeviceView {
  return {
    linkId: LINK,
    linkKind: 'serial',
    address: `/dev/${SERIAL}`,
    serialNumber: SERIAL,
    deviceType: 'EPC',
    model: 'EPC',
    firmwareVersion: '1.0.0',
    configSyncId: 'sync-1',
    error: null,
    needs: null,
    activeJobId: 'job-1',
  };
}

function finishedJob(comparison: ParameterComparison): JobView {
  return jobView({
    jobId: 'job-1',
    linkId: LINK,
    serialNumber: SERIAL,
    action: 'configuration',
    step: 'configuration',
    phase: comparison.match ? 'done' : 'failed',
    finishedAt: '2026-11-28T18:00:00.000Z',
    syncId: 'sync-1',
    parameters: parameterTableView(comparison),
  });
}

/** The core's answer to a confirmation: the domain's rule, as main/core/handlers/parameter-confirmation.ts applies it. */
function core(comparison: ParameterComparison): FakeApi {
  return new FakeApi().answer(
    'workbench.confirmParameters',
    (
      input,
    ):
      | WireError
      | {
          jobId: string;
          serialNumber: string;
          confirmedBy: string;
          checksumShort: string;
          confirmedAt: string;
          ledgerSeq: number;
        } => {
      const refusal = confirmationRefusal(comparison, input.checksum);
      if (refusal) return { code: 'VALIDATION', message: refusal, violations: [], httpStatus: null };
      return {
        jobId: input.jobId,
        serialNumber: SERIAL,
        confirmedBy: input.technician,
        checksumShort: shortChecksum(comparison.runningChecksum),
        confirmedAt: '2026-11-28T18:01:00.000Z',
        ledgerSeq: 7,
      };
    },
  );
}

/** What Enter in a field does: submits its form (happy-dom has no implicit submission). */
async function pressEnterIn(input: HTMLInputElement): Promise<void> {
  input.focus();
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    input.form!.requestSubmit();
  });
  await settle();
}

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
  useTechnician.setState({ name: '' });
  // Confirmations are kept for the session in the store: each test starts a session afresh.
  useWorkbench.setState({ parameterConfirmations: {} });
});
afterEach(() => {
  view?.unmount();
  view = null;
});

async function show(comparison: ParameterComparison, api: FakeApi): Promise<HTMLElement> {
  api.install();
  useWorkbench.setState({
    devices: [device()],
    jobs: { 'job-1': finishedJob(comparison) },
    selected: [],
    loaded: true,
    error: null,
  });
  view = await mount(<WorkbenchScreen />);
  const section = view.container.querySelector<HTMLElement>('[data-testid="parameter-verification"]');
  expect(section).not.toBeNull();
  return section!;
}

describe('Workbench parameter verification', () => {
  it('shows parameter, intended and running in words and units, and both short checksums', async () => {
    const comparison = comparisonWith({ ...INTENDED });
    const section = await show(comparison, core(comparison));
    const row = section.querySelector('tr[data-key="safety.timeout"]')!;
    expect([...row.children].map((c) => c.textContent)).toEqual(['Safety timeout', '1000 ms', '1000 ms']);
    expect(section.querySelector('tr[data-key="safety.ossdEnabled"]')!.textContent).toContain('yes');
    expect(section.querySelector('tr[data-key="can.bitrate"]')!.textContent).toContain('250000 bit/s');
    expect(section.textContent).toContain('Safety function');
    expect(section.querySelector('[data-testid="checksum-intended"]')!.textContent).toBe(
      shortChecksum(comparison.intendedChecksum),
    );
    expect(section.querySelector('[data-testid="checksum-running"]')!.textContent).toBe(
      shortChecksum(comparison.runningChecksum),
    );
    expect(shortChecksum(comparison.runningChecksum)).toMatch(/^[0-9A-F]{8}$/);
    expect(section.querySelector('.param-table__row--bad')).toBeNull();
  });

  it('marks a differing parameter red with what to do, and offers no confirmation', async () => {
    const comparison = comparisonWith({ ...INTENDED, 'safety.timeout': 1100 });
    const api = core(comparison);
    const section = await show(comparison, api);
    expect(section.getAttribute('data-match')).toBe('false');
    const row = section.querySelector('tr[data-key="safety.timeout"]')!;
    expect(row.className).toContain('param-table__row--bad');
    expect(row.textContent).toContain('1100 ms');
    expect(row.textContent).toContain('differs');
    expect(section.querySelector('tr[data-key="ism.channel"]')!.className).not.toContain('bad');
    expect(section.querySelector('[data-testid="checksum-running"]')!.textContent).toContain('the checksums differ');
    expect(section.querySelector('[role="alert"]')!.textContent).toContain('apply the configuration again');
    expect(section.querySelector('form')).toBeNull();
    expect(api.calls.filter((c) => c.channel === 'workbench.confirmParameters')).toHaveLength(0);
  });

  it('refuses a wrong checksum and takes the right one, typed and submitted with Enter; the name is asked once', async () => {
    const comparison = comparisonWith({ ...INTENDED });
    const api = core(comparison);
    const section = await show(comparison, api);
    const right = shortChecksum(comparison.runningChecksum);
    const wrong = right.slice(0, 7) + (right.endsWith('0') ? '1' : '0');

    await typeInto(byLabel(section, 'Your name'), 'Dana Weber');
    const checksum = byLabel(section, 'Running checksum (8 hex digits)');
    await typeInto(checksum, wrong);
    await pressEnterIn(checksum);
    expect(section.querySelector('[role="alert"]')!.textContent).toContain('not the checksum the device reports');
    expect(section.querySelector('[data-testid="parameters-confirmed"]')).toBeNull();

    await typeInto(checksum, right.toLowerCase());
    await pressEnterIn(checksum);
    const confirmed = section.querySelector('[data-testid="parameters-confirmed"]');
    expect(confirmed?.textContent).toContain(`Confirmed by Dana Weber (checksum ${right})`);
    const sent = api.calls.filter((c) => c.channel === 'workbench.confirmParameters').map((c) => c.input);
    expect(sent).toEqual([
      { jobId: 'job-1', checksum: wrong, technician: 'Dana Weber' },
      { jobId: 'job-1', checksum: right.toLowerCase(), technician: 'Dana Weber' },
    ]);
    // Kept for the session: the next confirmation does not ask for the name again.
    expect(useTechnician.getState().name).toBe('Dana Weber');
  });

  it('does not ask the name again once given, and refuses without one', async () => {
    const comparison = comparisonWith({ ...INTENDED });
    const api = core(comparison);
    const section = await show(comparison, api);
    const checksum = byLabel(section, 'Running checksum (8 hex digits)');
    await typeInto(checksum, shortChecksum(comparison.runningChecksum));
    await pressEnterIn(checksum);
    expect(section.querySelector('[role="alert"]')!.textContent).toContain('Type your name');
    expect(api.calls.filter((c) => c.channel === 'workbench.confirmParameters')).toHaveLength(0);

    view!.unmount();
    useTechnician.setState({ name: 'Dana Weber' });
    const again = await show(comparison, api);
    expect(again.querySelectorAll('label')).toHaveLength(1);
    expect(again.textContent).toContain('Confirming as Dana Weber');
  });
});
