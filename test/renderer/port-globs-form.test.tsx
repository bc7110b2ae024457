// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { parsePortGlobs, PortGlobsForm } from '../../renderer/screens/PortGlobsForm';
import { FakeApi } from './fake-api';
import { button, click, mount, settle, typeInto, type Mounted } from './dom';

let mounted: Mounted | undefined;
afterEach(async () => {
  await mounted?.unmount();
  mounted = undefined;
});

describe('PortGlobsForm', () => {
  it('reads one pattern a line and drops blank lines', () => {
    expect(parsePortGlobs(' /dev/serial/by-id/usb-FTDI*\n\n  /tmp/provisioner-simulator-1000/pty/* \n')).toEqual([
      '/dev/serial/by-id/usb-FTDI*',
      '/tmp/provisioner-simulator-1000/pty/*',
    ]);
  });

  it('shows the saved patterns and those of the environment, and saves what the technician typed', async () => {
    const api = new FakeApi()
      .answer('workbench.portGlobs', { saved: ['/dev/ttyRS485-*'], fromEnvironment: ['/tmp/sim/pty/*'] })
      .answer('workbench.setPortGlobs', (input) => ({ saved: input.portGlobs, fromEnvironment: ['/tmp/sim/pty/*'] }))
      .install();
    mounted = await mount(<PortGlobsForm />);
    await settle();
    const area = mounted.container.querySelector('textarea') as HTMLTextAreaElement;
    expect(area.value).toBe('/dev/ttyRS485-*');
    expect(mounted.container.textContent).toContain('Also from the environment: /tmp/sim/pty/*');

    await typeInto(area, '/dev/ttyRS485-*\n/dev/serial/by-id/usb-FTDI*\n');
    await click(button(mounted.container, 'Save port patterns'));
    await settle();
    expect(api.calls.find((c) => c.channel === 'workbench.setPortGlobs')?.input).toEqual({
      portGlobs: ['/dev/ttyRS485-*', '/dev/serial/by-id/usb-FTDI*'],
    });
    expect(mounted.container.querySelector('[role="status"]')?.textContent).toBe('Also looking at 2 port patterns.');
  });
});
