export { observeFunctionTest, type FunctionTestDevice, type FunctionTestObservation, type ReceiverReaction } from './function-test';
export { describeReactions, functionTestRecord, recordFunctionTest, verdictOf, type FunctionTestResult, type FunctionTestVerdict } from './record';
export { watchSafety, type SafetyWatch } from './safety-watch';
