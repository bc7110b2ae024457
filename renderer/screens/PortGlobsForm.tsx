import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { client } from '../api/client';
import { useQuery } from '../api/use-query';
import { Callout } from '../components/misc';
import { useBusyAction } from '../components/use-busy-action';

/** One glob a line; blank lines dropped. */
export function parsePortGlobs(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
}

/**
 * Serial ports beyond USB product id 0xD101 (an RS-485 adapter, a simulator's ptys), as globs the
 * workbench also asks, like esptool's port filters. Kept between runs.
 */
export function PortGlobsForm() {
  const current = useQuery('workbench.portGlobs', {});
  const [text, setText] = useState('');
  const saving = useBusyAction();
  const [savedNote, setSavedNote] = useState<string | null>(null);
  const { t } = useTranslation();

  useEffect(() => {
    if (current.data) setText(current.data.saved.join('\n'));
  }, [current.data]);

  const save = () =>
    saving.run(async () => {
      setSavedNote(null);
      const view = await client().call('workbench.setPortGlobs', { portGlobs: parsePortGlobs(text) });
      setText(view.saved.join('\n'));
      setSavedNote(
        view.saved.length > 0
          ? t('screens:portGlobs.saved', { count: view.saved.length })
          : t('screens:portGlobs.usbOnly'),
      );
    });

  return (
    <details className="port-globs">
      <summary>{t('screens:portGlobs.summary')}</summary>
      <p className="muted">
        {t('screens:portGlobs.explain')} <code translate="no">/dev/serial/by-id/usb-FTDI*</code>
      </p>
      <label className="field">
        <span className="field__label">{t('screens:portGlobs.label')}</span>
        <textarea
          rows={3}
          translate="no"
          value={text}
          onChange={(e) => setText(e.target.value)}
          spellCheck={false}
          name="port-globs"
        />
      </label>
      {current.data && current.data.fromEnvironment.length > 0 ? (
        <p className="muted">
          {t('screens:portGlobs.fromEnvironment', { globs: current.data.fromEnvironment.join(', ') })}
        </p>
      ) : null}
      <button type="button" className="button button--secondary" disabled={saving.busy} onClick={() => void save()}>
        {t('screens:portGlobs.save')}
      </button>
      {savedNote ? (
        <p className="muted" role="status">
          {savedNote}
        </p>
      ) : null}
      {(saving.error ?? current.error) ? <Callout tone="bad">{saving.error ?? current.error}</Callout> : null}
    </details>
  );
}
