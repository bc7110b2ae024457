import { useState } from 'react';
import type { DeviceType } from '../../domain/device-types';
import { client, errorText } from '../api/client';
import { useQuery } from '../api/use-query';
import { ActionButton } from '../components/ActionButton';
import { Badge, Callout, Loading, ScreenHeader } from '../components/misc';
import { bytesText, dateTimeText } from '../format/units';
import { notify } from '../stores/notices';

/** The latest firmware per device type, and what the offline cache holds. */
export function FirmwareScreen() {
  const overview = useQuery('firmware.overview', {});
  const [downloading, setDownloading] = useState<DeviceType[]>([]);

  const download = async (types: readonly DeviceType[]) => {
    setDownloading((d) => [...d, ...types]);
    for (const deviceType of types) {
      try {
        const cached = await client().call('firmware.download', { deviceType });
        notify('success', `${deviceType} firmware ${cached.version} is in the offline cache.`);
      } catch (err) {
        notify('error', `${deviceType}: ${errorText(err)}`);
      }
    }
    setDownloading((d) => d.filter((t) => !types.includes(t)));
    overview.reload();
  };

  const missing = (overview.data ?? []).filter((t) => t.latestVersion && !t.latestCached).map((t) => t.deviceType);

  return (
    <section className="screen" aria-labelledby="screen-title">
      <ScreenHeader title="Firmware" note="Firmware in the cache installs without a network; every bundle is checked against its SHA-256 before use.">
        <ActionButton variant="primary" capability="files.download" disabledReason={missing.length === 0 ? 'The cache holds the latest of every type.' : null} busy={downloading.length > 0} onClick={() => void download(missing)}>
          Download all for offline use
        </ActionButton>
      </ScreenHeader>
      {overview.error ? <Callout tone="bad" title="Could not load firmware">{overview.error}</Callout> : null}
      {!overview.data && !overview.error ? <Loading /> : null}
      <div className="card-grid">
        {overview.data?.map((t) => (
          <article key={t.deviceType} className="panel firmware-card" aria-labelledby={`fw-${t.deviceType}`}>
            <div className="panel__header">
              <h2 id={`fw-${t.deviceType}`}>{t.deviceType}</h2>
              {t.latestVersion ? t.latestCached ? <Badge tone="ok">Latest cached</Badge> : <Badge tone="warn">Not cached</Badge> : null}
            </div>
            <dl className="facts">
              <div>
                <dt>Latest version</dt>
                <dd className="mono">{t.latestVersion ?? '—'}</dd>
              </div>
              <div>
                <dt>In the offline cache</dt>
                <dd>
                  {t.cached.length === 0 ? (
                    <span className="muted">Nothing</span>
                  ) : (
                    <ul className="plain-list">
                      {t.cached.map((c) => (
                        <li key={c.sha256} className="cell-stack">
                          <span className="mono">{c.version}</span>
                          <span className="muted small">
                            {bytesText(c.size)} · {dateTimeText(c.storedAt)}
                          </span>
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
              </div>
              {t.patches.length > 0 ? (
                <div>
                  <dt>Patches for devices on an older release</dt>
                  <dd>
                    <ul className="plain-list">
                      {t.patches.map((p, i) => (
                        <li key={`${p.fromVersion ?? '?'}-${p.toVersion ?? '?'}-${i}`} className="cell-stack">
                          <span className="mono">
                            {p.fromVersion ?? 'a release not cached'} → {p.toVersion ?? 'a release not cached'}
                          </span>
                          <span className="muted small">{bytesText(p.size)}</span>
                        </li>
                      ))}
                    </ul>
                  </dd>
                </div>
              ) : null}
            </dl>
            {t.error ? <p className="field__error">{t.error}</p> : null}
            <div className="form-actions">
              <ActionButton
                capability="files.download"
                disabledReason={!t.latestVersion ? 'The service offers no firmware for this type.' : t.latestCached ? 'Already cached.' : null}
                busy={downloading.includes(t.deviceType)}
                onClick={() => void download([t.deviceType])}
              >
                {downloading.includes(t.deviceType) ? 'Downloading…' : 'Download for offline use'}
              </ActionButton>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
