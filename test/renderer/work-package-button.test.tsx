// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { WorkPackageButton } from '../../renderer/packages/WorkPackageButton';
import { useSession } from '../../renderer/stores/session';
import { mount, type Mounted } from './dom';
import { session } from './session-fixture';

/** Issue 32: the greyed "Work package" button says why in its visible text, not only in a tooltip. */

let view: Mounted | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

function visibleText(element: Element): string {
  const copy = element.cloneNode(true) as Element;
  for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove();
  return copy.textContent ?? '';
}

describe('WorkPackageButton', () => {
  it('in the local workspace: greyed, and its own text says to sign in', async () => {
    useSession.setState({ session: session('Admin'), busy: false, error: null });
    view = await mount(<WorkPackageButton configurationId="c1" configurationName="Line 3" />);
    const button = view.container.querySelector('button')!;
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(visibleText(button)).toBe('Work package: sign in first');
    expect(button.getAttribute('title')).toMatch(/sign in to the service to export a work package/);
    // Its name still begins with what it is for, as the browser test finds it.
    expect(button.textContent).toBe('Work package of Line 3: sign in first');
  });

  it('signed in to the service: just "Work package"', async () => {
    const signedIn = session('Admin');
    if (signedIn.status !== 'signedIn') throw new Error('the fixture is a signed-in session');
    useSession.setState({ session: { ...signedIn, kind: 'service' }, busy: false, error: null });
    view = await mount(<WorkPackageButton configurationId="c1" configurationName="Line 3" />);
    const button = view.container.querySelector('button')!;
    expect(button.getAttribute('aria-disabled')).toBe('false');
    expect(visibleText(button)).toBe('Work package');
  });
});
