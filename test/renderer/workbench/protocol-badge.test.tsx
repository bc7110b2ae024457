// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttachedDeviceView } from '../../../contract/index';
import { WorkbenchScreen } from '../../../renderer/screens/WorkbenchScreen';
import { useSession } from '../../../renderer/stores/session';
import { useWorkbench } from '../../../renderer/stores/workbench';
import { FakeApi } from '../fake-api';
import { mount, type Mounted } from '../dom';
import { session } from '../session-fixture';
import { attachedDevice } from '../../fixtures/attached-device';

/** Issue 24: the Workbench says which protocol each device speaks, one of each side by side. */

function device(serialNumber: string, protocol: AttachedDeviceView['protocol']): AttachedDeviceView {
  return attachedDevice(serialNumber, { deviceType: 'SRCP', model: 'SRC Pro', ...(protocol ? { protocol } : {}) });
}

let view: Mounted | null = null;
beforeEach(() => {
  useSession.setState({ session: session('Admin'), busy: false, error: null });
});
afterEach(() => {
  view?.unmount();
  view = null;
});

describe('Workbench protocol', () => {
  it('marks the device that speaks the vendor protocol, and not ours (nor one from an older core)', async () => {
    new FakeApi().answer('workbench.start', []).install();
    useWorkbench.setState({
      devices: [device('SRCP000101', 'vendor'), device('SRCP000102', 'provisioner'), device('SRCP000103', undefined)],
      jobs: {},
      selected: [],
      loaded: true,
      error: null,
    });
    view = await mount(<WorkbenchScreen />);
    const row = (serial: string) => view!.container.querySelector(`tr[data-serial="${serial}"]`)!;
    expect(row('SRCP000101').getAttribute('data-protocol')).toBe('vendor');
    expect(row('SRCP000101').querySelector('[data-testid="workbench-protocol"]')?.textContent).toContain(
      'FORT protocol',
    );
    expect(row('SRCP000102').getAttribute('data-protocol')).toBe('provisioner');
    expect(row('SRCP000102').querySelector('[data-testid="workbench-protocol"]')).toBeNull();
    expect(row('SRCP000103').getAttribute('data-protocol')).toBe('provisioner');
  });
});
