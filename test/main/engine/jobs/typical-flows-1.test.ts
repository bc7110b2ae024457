import { expect, it } from 'vitest';
import { TYPICAL_FLOWS } from '../../../fixtures/typical-flows';
import { describeTypicalFlows, TYPICAL_FLOW_FILES } from './helpers/typical-flow-tests';

// The typical flows of file 1 of TYPICAL_FLOW_FILES (helpers/typical-flow-tests.ts says how each is tested).
describeTypicalFlows(1);

it('the three files together take every typical flow once', () => {
  expect(TYPICAL_FLOW_FILES.flat().sort((a, b) => a - b)).toEqual(TYPICAL_FLOWS.map((_flow, i) => i));
});
