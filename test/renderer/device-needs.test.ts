import { describe, expect, it } from 'vitest';
import type { DeviceNeeds } from '../../contract/index';
import { needsText } from '../../renderer/format/device-needs';

function needs(
  change: { firmware?: Partial<DeviceNeeds['firmware']>; configuration?: Partial<DeviceNeeds['configuration']> } = {},
): DeviceNeeds {
  return {
    firmware: { needed: false, latestVersion: '1.1.0', reason: 'Runs the latest firmware, 1.1.0.', ...change.firmware },
    configuration: {
      needed: false,
      syncId: 'abc',
      reason: 'Holds the current configuration “Press cell”.',
      blocked: null,
      ...change.configuration,
    },
  };
}

describe('needsText', () => {
  it('names what is needed', () => {
    expect(needsText(needs({ firmware: { needed: true }, configuration: { needed: true } }))).toBe(
      'Firmware 1.1.0 + configuration',
    );
    expect(needsText(needs())).toBe('Up to date');
    expect(needsText(null)).toBe('Unknown');
  });

  it('leaves a blocked configuration to the line under it, which gives the reason once', () => {
    const blocked = {
      code: 'DEVICE_NOT_IN_CONFIGURATION',
      reason: 'EPC000101 is in no configuration: add it in Configurations',
    };
    expect(needsText(needs({ configuration: { syncId: null, reason: 'In no configuration.', blocked } }))).toBe(
      'Firmware up to date',
    );
    expect(
      needsText(
        needs({ configuration: { syncId: null, reason: 'Configuration state unknown: the service did not answer' } }),
      ),
    ).toBe('Firmware up to date · Configuration state unknown: the service did not answer');
  });
});
