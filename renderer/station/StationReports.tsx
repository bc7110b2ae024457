import { useTranslation } from 'react-i18next';
import type { StationReportView } from '../../contract/index';
import { Callout } from '../components/misc';

/**
 * Where the shift's reports are: the shift report (CSV) and, beside it, the commissioning report
 * of the configuration (PDF), or why that one could not be made and how to make it later.
 */
export function StationReports({ report }: { report: StationReportView }) {
  const { t } = useTranslation();
  const { commissioning } = report;
  return (
    <>
      <Callout
        tone="ok"
        title={commissioning?.path ? t('station:reports.bothWritten') : t('station:reports.shiftWritten')}
      >
        <dl className="station-reports">
          <dt>{t('station:reports.shift')}</dt>
          <dd>
            <span className="mono" data-testid="station-report" translate="no">
              {report.path}
            </span>{' '}
            {t('station:reports.rows', { count: report.rows })}
          </dd>
          {commissioning?.path ? (
            <>
              <dt>{t('station:reports.commissioning')}</dt>
              <dd>
                <span className="mono" data-testid="station-commissioning-report" translate="no">
                  {commissioning.path}
                </span>
              </dd>
            </>
          ) : null}
        </dl>
      </Callout>
      {commissioning?.error ? (
        <Callout tone="warn" title={t('station:reports.noCommissioning')}>
          {commissioning.error}
        </Callout>
      ) : null}
    </>
  );
}
