export {
  observeFunctionTest,
  type FunctionTestDevice,
  type FunctionTestEnd,
  type FunctionTestObservation,
  type ReceiverReaction,
} from './function-test';
export {
  describeReactions,
  failReasonsOf,
  functionTestRecord,
  notDoneText,
  recordFunctionTest,
  verdictOf,
  type FunctionTestResult,
  type FunctionTestVerdict,
} from './record';
export { watchSafety, type SafetyWatch } from './safety-watch';
