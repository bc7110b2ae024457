import { useTranslation } from 'react-i18next';
import type { ConfigurationStatusView, ConfigurationView } from '../../contract/index';
import type { Violation } from '../../domain/violations';
import { Badge, Callout } from '../components/misc';
import { violationText } from '../components/violation-text';
import { useTranslator } from '../i18n/I18nProvider';
import { WarningList } from './WarningList';

interface Props {
  configuration: ConfigurationView;
  status: ConfigurationStatusView | null;
  /** The settings form's edits not saved yet, as the domain judges them; null when there are none. */
  unsaved?: { violations: readonly Violation[] } | null;
  onRefresh(): void;
}

/**
 * The service's verdict (the status operation) and which devices' files can be downloaded; our
 * own rules' warnings beside it, which hold back no file but are to be read before applying.
 */
export function StatusPanel({ configuration, status, unsaved = null, onRefresh }: Props) {
  const { t } = useTranslation();
  const words = useTranslator();
  return (
    <section className="panel status-panel" aria-labelledby="status-title" aria-live="polite">
      <div className="panel__header">
        <h2 id="status-title">{t('designer:status.title')}</h2>
        <button type="button" className="button button--quiet" onClick={onRefresh}>
          {t('designer:status.refresh')}
        </button>
      </div>
      {unsaved ? (
        <Callout tone={unsaved.violations.length > 0 ? 'warn' : 'info'} title={t('designer:unsavedChanges')}>
          {unsaved.violations.length > 0
            ? t('designer:status.unsavedFix', { count: unsaved.violations.length })
            : t('designer:status.unsavedClean')}
          {unsaved.violations.length > 0 ? (
            <ul className="status-panel__list">
              {unsaved.violations.map((v, i) => (
                <li key={`${v.field}-${v.code}-${i}`}>{violationText(v, words)}</li>
              ))}
            </ul>
          ) : null}
        </Callout>
      ) : null}
      {!status ? (
        <p className="muted">{t('designer:status.asking')}</p>
      ) : status.complete ? (
        <p className="status-panel__verdict">
          <Badge tone="ok">{t('designer:complete')}</Badge> {t('designer:status.completeText')}
        </p>
      ) : (
        <>
          <p className="status-panel__verdict">
            <Badge tone="warn">{t('designer:status.notComplete')}</Badge> {t('designer:status.fixThese')}
          </p>
          <ul className="status-panel__list">
            {status.violations.map((v, i) => (
              <li key={`${v.field}-${v.code}-${i}`}>
                {violationText(v, words)}{' '}
                <span className="muted mono" translate="no">
                  {v.code}
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {status ? <WarningList title={t('designer:status.warnings')} warnings={status.warnings} /> : null}
      <h3 className="form-section">{t('designer:status.files')}</h3>
      <ul className="file-list">
        {configuration.devices.map((d) => {
          const ready = status?.devices.find((r) => r.serialNumber === d.serialNumber);
          return (
            <li key={d.serialNumber} className="file-list__item">
              <span className="mono" translate="no">
                {d.serialNumber}
              </span>
              {ready?.ready ? (
                <Badge tone="ok">{t('designer:status.ready')}</Badge>
              ) : (
                <Badge tone="neutral">{t('designer:status.notReady')}</Badge>
              )}
            </li>
          );
        })}
        {configuration.devices.length === 0 ? <li className="muted">{t('designer:status.noDevices')}</li> : null}
      </ul>
    </section>
  );
}
