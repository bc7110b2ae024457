/**
 * Station mode: provision every device of one configuration that is plugged in, several lanes at
 * once, through the jobs engine; counts, yield and a shift report at the end.
 */
export {
  Station,
  type StationDevices,
  type StationJobs,
  type StationOptions,
  type StationParameterCheck,
} from './station';
export { loadStationRoster, StationSetupError, type StationRoster } from './roster';
export { serviceSyncCheck, type SyncCheck, type PluggedReading } from './sync-check';
export { tileText, type TileText } from './tile-text';
export { PARAMETERS_DIFFER_ADVICE, SHIFT_DEPARTURE_ADVICE, stationAdvice } from './failure-advice';
export { stationCounts, yieldPercent } from './counts';
export {
  shiftReportCsv,
  shiftReportPath,
  shiftReportRows,
  writeShiftReport,
  SHIFT_REPORT_COLUMNS,
} from './shift-report';
export {
  commissioningReportPath,
  commissioningReportWriter,
  type CommissioningReportWriter,
  type ShiftCommissioningReport,
} from './commissioning-report';
export {
  loadShiftParameters,
  shiftConfirmationRecord,
  shiftParametersView,
  shiftSubject,
  shiftVerificationRecorder,
  type ShiftRecordContext,
  type ShiftVerificationRecorder,
} from './shift-parameters';
