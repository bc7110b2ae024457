import { describeTypicalFlows } from './helpers/typical-flow-tests';

// The typical flows of file 2 of TYPICAL_FLOW_FILES (helpers/typical-flow-tests.ts says how each is tested).
describeTypicalFlows(2);
