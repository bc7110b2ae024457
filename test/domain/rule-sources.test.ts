import { describe, expect, it } from 'vitest';
import {
  configurationRuleSource,
  errorsOf,
  OUR_CONFIGURATION_RULES,
  warningsOf,
  withSeverity,
  type Violation,
} from '../../domain';

describe('rule sources', () => {
  it("the interface's rules are errors and ours warnings", () => {
    const found: Violation[] = [
      { code: 'ISM_CHANNEL_OUT_OF_RANGE', field: 'ismTxChannel', message: 'm' },
      { code: 'GATEWAY_OUTSIDE_SUBNET', field: 'devices.EPC000101.ethGateway', message: 'm' },
    ];
    const judged = withSeverity(found);
    expect(errorsOf(judged).map((v) => v.code)).toEqual(['ISM_CHANNEL_OUT_OF_RANGE']);
    expect(warningsOf(judged)).toEqual([{ ...found[1], severity: 'warning' }]);
    expect(configurationRuleSource('GATEWAY_OUTSIDE_SUBNET')).toBe('ours');
    expect(configurationRuleSource('INPUT_MUST_BE_NOT_USED')).toBe('interface');
  });

  it('judges once: judging again changes nothing', () => {
    const once = withSeverity([{ code: 'DUPLICATE_IP_ADDRESS', field: 'devices.A.ipAddress', message: 'm' }]);
    expect(withSeverity(once)).toEqual(once);
  });

  it('names each of our rules once', () => {
    expect(new Set(OUR_CONFIGURATION_RULES).size).toBe(OUR_CONFIGURATION_RULES.length);
  });
});
