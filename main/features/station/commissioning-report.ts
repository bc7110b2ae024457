import type { CatalogLanguage } from '../../../domain/i18n/index.js';
import { writeFileAtomic } from '../../../platform/durable-file';
import { makeCommissioningReport, renderReportPdf, type ReportContext } from '../report';

/** What writing the commissioning report at the end of a shift came to: where it is, or why there is none. */
export type ShiftCommissioningReport = { path: string; error: null } | { path: null; error: string };

/** Writes the configuration's commissioning report for a shift; never throws (the shift's work stands without it). */
export type CommissioningReportWriter = (shiftReportPath: string) => Promise<ShiftCommissioningReport>;

/** Beside the shift report `<shift>.csv`: `<shift>-commissioning.pdf`, as `provisioner station` names it. */
export function commissioningReportPath(shiftReportPath: string): string {
  return `${shiftReportPath.replace(/\.csv$/i, '')}-commissioning.pdf`;
}

/**
 * The commissioning report of the station's configuration (every device, its firmware and signer,
 * its syncId, its function test, the ledger hashes), made as `provisioner report` makes it and
 * written beside the shift report, in the language the station was started in (the app's, or the
 * CLI's --lang). A report that cannot be made is said, with how to make it later.
 */
export function commissioningReportWriter(
  context: () => Promise<ReportContext>,
  configurationId: string,
  configurationName: string,
  language: CatalogLanguage = 'en',
): CommissioningReportWriter {
  return async (shiftReportPath) => {
    const path = commissioningReportPath(shiftReportPath);
    try {
      const report = await makeCommissioningReport(await context(), { configurationId });
      // A report is for handing on: readable like any document the user saves.
      await writeFileAtomic(path, await renderReportPdf(report, { language }), 0o644);
      return { path, error: null };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        path: null,
        error: `The commissioning report of "${configurationName}" could not be made (${why}). Make it later from the Configurations screen's Report button, or with provisioner report --configuration "${configurationName}" --out FILE.pdf.`,
      };
    }
  };
}
