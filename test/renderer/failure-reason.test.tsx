// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { ProgressCell } from '../../renderer/components/ProgressCell';
import { I18nProvider } from '../../renderer/i18n/I18nProvider';
import { useLanguage } from '../../renderer/i18n/language';
import { jobView } from '../fixtures/job-view';
import { mount, type Mounted } from './dom';

/**
 * Why a job failed, on the Workbench's progress cell in the reader's language (issue 29): the
 * core sends the reason as codes and values (JobView.failureReason) beside its English sentence,
 * and the cell says the reason from the catalogs. A job without a reason keeps the core's line.
 */

let view: Mounted | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
  useLanguage.setState({ system: 'en', chosen: null, fromAddress: null });
});

const failed = jobView({
  phase: 'failed',
  finishedAt: '2026-01-01T00:01:00.000Z',
  resultMessage:
    'firmware upload failed at 37% (cable pulled?): the device stopped answering after 3 tries; run the same command again to resume',
  failureReason: { cause: 'deviceTimeout', step: 'firmware', place: 'upload', percent: 37, tries: 3 },
});

const label = (mounted: Mounted) => mounted.container.querySelector('.progress__label')?.textContent;

describe('a failed job’s reason on the Workbench', () => {
  it('reads in German from the catalogs, the percent in German', async () => {
    useLanguage.setState({ system: 'en', chosen: null, fromAddress: 'de' });
    view = await mount(
      <I18nProvider>
        <ProgressCell job={failed} label="EPC000101" />
      </I18nProvider>,
    );
    expect(label(view)).toBe(
      'Fehlgeschlagen: Übertragung der Firmware bei 37\u00a0% fehlgeschlagen: Das Gerät antwortete nach 3 Versuchen nicht mehr',
    );
  });

  it('reads in English from the same reason, and keeps the core’s line for a job without one', async () => {
    view = await mount(<ProgressCell job={failed} label="EPC000101" />);
    expect(label(view)).toBe('Failed: firmware upload failed at 37%: the device stopped answering after 3 tries');
    view.unmount();
    view = await mount(<ProgressCell job={{ ...failed, failureReason: null }} label="EPC000101" />);
    expect(label(view)).toBe(`Failed: ${failed.resultMessage}`);
  });
});
