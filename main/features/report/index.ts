export { buildCommissioningReport, safetyParametersOf, type FirmwareFacts, type ReportSources } from './build-report';
export { renderReportPdf, type ReportPdfOptions } from './report-pdf';
export { ReportFontError } from './pdf-fonts';
export { REPORT_FORMAT, type CommissioningReport, type ReportDevice, type ReportSafetyParameter } from './report-model';
export { makeCommissioningReport, ReportRequestError, type ReportContext, type ReportRequest } from './make-report';
