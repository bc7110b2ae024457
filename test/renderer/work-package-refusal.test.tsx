// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { CoreError, toWireError } from '../../contract/errors';
import { workPackageRefusalText, type WorkPackageRefusal } from '../../domain/work-package-refusal';
import { I18nProvider } from '../../renderer/i18n/I18nProvider';
import { useLanguage } from '../../renderer/i18n/language';
import { WorkPackageButton } from '../../renderer/packages/WorkPackageButton';
import { useNotices } from '../../renderer/stores/notices';
import { useSession } from '../../renderer/stores/session';
import { click, mount, settle, type Mounted } from './dom';
import { FakeApi } from './fake-api';
import { session } from './session-fixture';

/**
 * A work package the core refuses to make, in the reader's language (issue 29): the core's refusal
 * crosses the wire as a code with its values beside its English message, and the notice says it
 * in the screen's language; the configuration's name stays as it is.
 */

let view: Mounted | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: null });
  useNotices.setState({ notices: [] });
});

/** The wire error the core's handler makes of the refusal (main/core/handlers/packages.ts). */
function refusedOnTheWire() {
  // As WorkPackageError carries it (main/features/packages/errors.ts): the renderer's tests see no main/.
  const reason: WorkPackageRefusal = { kind: 'emptyConfiguration', name: 'Line 3' };
  return toWireError(new CoreError('VALIDATION', workPackageRefusalText(reason), [], null, reason));
}

async function exportRefused(language: 'en' | 'de'): Promise<string | undefined> {
  const signedIn = session('Admin');
  if (signedIn.status !== 'signedIn') throw new Error('the fixture is a signed-in session');
  useSession.setState({ session: { ...signedIn, kind: 'service' }, busy: false, error: null });
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: language });
  new FakeApi().answer('packages.export', refusedOnTheWire()).install();
  view = await mount(
    <I18nProvider>
      <WorkPackageButton configurationId="c1" configurationName="Line 3" />
    </I18nProvider>,
  );
  await click(view.container.querySelector('button')!);
  await settle();
  return useNotices.getState().notices.at(-1)?.text;
}

describe('a refused work package export on the screen', () => {
  it('says the refusal in German from its code', async () => {
    expect(await exportRefused('de')).toBe(
      'Kein Arbeitspaket für „Line 3“: Die Konfiguration „Line 3“ hat keine Geräte: fügen Sie zuerst ihre Geräte hinzu und exportieren Sie sie dann.',
    );
  });

  it('says it in English as the core did', async () => {
    expect(await exportRefused('en')).toContain(
      'Configuration "Line 3" has no devices: add its devices first, then export it.',
    );
  });
});
