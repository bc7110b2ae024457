import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceType } from '../../domain/device-types';
import { errorAdvice } from '../../domain/job-errors';
import { client, errorText, violationsOf } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { Badge, Callout, Loading, ScreenHeader } from '../components/misc';
import { DateTime } from '../components/DateText';
import { useLocaleFormat, useTranslator } from '../i18n/I18nProvider';
import { notify } from '../stores/notices';

/** The latest firmware per device type, and what the offline cache holds. */
export function FirmwareScreen() {
  const overview = useQuery('firmware.overview', {});
  const [downloading, setDownloading] = useState<DeviceType[]>([]);
  const { t } = useTranslation();
  const words = useTranslator();
  const format = useLocaleFormat();

  const download = async (types: readonly DeviceType[]) => {
    setDownloading((d) => [...d, ...types]);
    for (const deviceType of types) {
      try {
        const cached = await client().call('firmware.download', { deviceType });
        notify('success', t('screens:firmware.downloaded', { type: deviceType, version: cached.version }));
      } catch (err) {
        // A bundle the checks refused carries the check's code: said in the reader's language, the code after it.
        const code = violationsOf(err)[0]?.code;
        const advice = code ? errorAdvice(code, words) : null;
        notify('error', `${deviceType}: ${advice ? `${advice} (${code})` : errorText(err)}`);
      }
    }
    setDownloading((d) => d.filter((type) => !types.includes(type)));
    overview.reload();
  };

  const missing = (overview.data ?? [])
    .filter((entry) => entry.latestVersion && !entry.latestCached)
    .map((entry) => entry.deviceType);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader title={t('screens:firmware.title')} note={t('screens:firmware.note')}>
        <ActionButton
          variant="primary"
          capability="files.download"
          disabledReason={missing.length === 0 ? t('screens:firmware.allCached') : null}
          busy={downloading.length > 0}
          onClick={() => void download(missing)}
        >
          {t('screens:firmware.downloadAll')}
        </ActionButton>
      </ScreenHeader>
      {overview.error ? (
        <Callout tone="bad" title={t('screens:firmware.loadFailed')}>
          {overview.error}
        </Callout>
      ) : null}
      {!overview.data && !overview.error ? <Loading /> : null}
      <div className="card-grid">
        {overview.data?.map((entry) => (
          <article key={entry.deviceType} className="panel firmware-card" aria-labelledby={`fw-${entry.deviceType}`}>
            <div className="panel__header">
              <h2 id={`fw-${entry.deviceType}`} translate="no">
                {entry.deviceType}
              </h2>
              {entry.latestVersion ? (
                entry.latestCached ? (
                  <Badge tone="ok">{t('screens:firmware.latestCached')}</Badge>
                ) : (
                  <Badge tone="warn">{t('screens:firmware.notCached')}</Badge>
                )
              ) : null}
            </div>
            <dl className="facts">
              <div>
                <dt>{t('screens:firmware.latestVersion')}</dt>
                <dd className="mono" translate="no">
                  {entry.latestVersion ?? '—'}
                </dd>
              </div>
              <div>
                <dt>{t('screens:firmware.inCache')}</dt>
                <dd>
                  {entry.cached.length === 0 ? (
                    <span className="muted">{t('screens:firmware.nothing')}</span>
                  ) : (
                    <ul className="plain-list">
                      {entry.cached.map((c) => (
                        <li key={c.sha256} className="cell-stack">
                          <span className="mono" translate="no">
                            {c.version}
                          </span>
                          <span className="muted small">
                            <data value={c.size}>{format.bytes(c.size)}</data> · <DateTime iso={c.storedAt} />
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
              {entry.patches.length > 0 ? (
                <div>
                  <dt>{t('screens:firmware.patches')}</dt>
                  <dd>
                    <ul className="plain-list">
                      {entry.patches.map((p, i) => (
                        <li key={`${p.fromVersion ?? '?'}-${p.toVersion ?? '?'}-${i}`} className="cell-stack">
                          <span className="mono" translate="no">
                            {p.fromVersion ?? t('screens:firmware.releaseNotCached')} →{' '}
                            {p.toVersion ?? t('screens:firmware.releaseNotCached')}
                          </span>
                          <span className="muted small">
                            <data value={p.size}>{format.bytes(p.size)}</data>
                          </span>
                        </li>
                      ))}
                    </ul>
                  </dd>
                </div>
              ) : null}
            </dl>
            {entry.error ? <p className="field__error">{entry.error}</p> : null}
            <div className="form-actions">
              <ActionButton
                capability="files.download"
                disabledReason={
                  !entry.latestVersion
                    ? t('screens:firmware.noneOffered')
                    : entry.latestCached
                      ? t('screens:firmware.alreadyCached')
                      : null
                }
                busy={downloading.includes(entry.deviceType)}
                onClick={() => void download([entry.deviceType])}
              >
                {downloading.includes(entry.deviceType)
                  ? t('screens:firmware.downloading')
                  : t('screens:firmware.download')}
              </ActionButton>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
