import type { StationReportView } from '../../contract/index';
import { Callout } from '../components/misc';

/**
 * Where the shift's reports are: the shift report (CSV) and, beside it, the commissioning report
 * of the configuration (PDF), or why that one could not be made and how to make it later.
 */
export function StationReports({ report }: { report: StationReportView }) {
  const { commissioning } = report;
  return (
    <>
      <Callout tone="ok" title={commissioning?.path ? 'Shift report and commissioning report written' : 'Shift report written'}>
        <dl className="station-reports">
          <dt>Shift report</dt>
          <dd>
            <span className="mono" data-testid="station-report">
              {report.path}
            </span>{' '}
            ({report.rows} row{report.rows === 1 ? '' : 's'})
          </dd>
          {commissioning?.path ? (
            <>
              <dt>Commissioning report</dt>
              <dd>
                <span className="mono" data-testid="station-commissioning-report">
                  {commissioning.path}
                </span>
              </dd>
            </>
          ) : null}
        </dl>
      </Callout>
      {commissioning?.error ? (
        <Callout tone="warn" title="No commissioning report">
          {commissioning.error}
        </Callout>
      ) : null}
    </>
  );
}
