import { describe, expect, it } from 'vitest';
import { cloneFlow, TYPICAL_FLOWS } from '../fixtures/typical-flows';
import { codesAndFields, evaluateFlow } from './flow-helpers';

describe('the six typical flows of the interface', () => {
  it('are six, each with at least one likely mistake', () => {
    expect(TYPICAL_FLOWS).toHaveLength(6);
    for (const flow of TYPICAL_FLOWS) expect(flow.mistakes.length).toBeGreaterThan(0);
  });

  for (const flow of TYPICAL_FLOWS) {
    describe(flow.title, () => {
      it('validates clean and is complete', () => {
        expect(codesAndFields(evaluateFlow(cloneFlow(flow)))).toEqual([]);
      });

      for (const mistake of flow.mistakes) {
        it(`catches ${mistake.description}`, () => {
          const broken = cloneFlow(flow);
          mistake.apply(broken);
          expect(codesAndFields(evaluateFlow(broken))).toContainEqual(mistake.expected);
        });
      }

      it('leaves the fixture untouched when a mistake is applied to a clone', () => {
        const before = JSON.stringify(flow.configuration) + JSON.stringify(flow.devices);
        for (const mistake of flow.mistakes) mistake.apply(cloneFlow(flow));
        expect(JSON.stringify(flow.configuration) + JSON.stringify(flow.devices)).toBe(before);
      });
    });
  }
});
