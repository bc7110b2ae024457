import { describe, expect, it } from 'vitest';
import { validateConfigurationSettings } from '../../domain/rules/configuration-settings';
import { validateConfigurationDevice } from '../../domain/rules/configuration-device';
import { CAN_MODE_OPTIONS, INPUT_OPTIONS } from '../../renderer/designer/options';

const labels = (options: readonly { label: string }[]) => options.map((o) => o.label);

describe('rule messages name choices as the dropdowns do', () => {
  it('a PGN without J1939 says which CAN mode to choose, as the CAN mode list names it', () => {
    const [found] = validateConfigurationSettings(
      { canMode: 'canopen', displayTextPgn: 0xff10 },
      { region: 'NA', deviceTypes: [] },
    );
    expect(found?.message).toContain('CAN mode is CANopen');
    expect(found?.message).toContain('set CAN mode to J1939');
    expect(labels(CAN_MODE_OPTIONS)).toEqual(expect.arrayContaining(['CANopen', 'J1939']));
    expect(found?.message).not.toMatch(/canopen|j1939/);
  });

  it('an input that must not be used says "Not used", the input list\'s own word', () => {
    const found = validateConfigurationDevice(
      { deviceConfigurationType: 'Sender', commInterface: 'ISM', inputConfiguration1: 'ESTOP_TYPE_SWITCH' },
      {
        deviceType: 'SRCP',
        configuration: { name: 'x' },
        region: 'NA',
      },
    ).find((v) => v.code === 'INPUT_MUST_BE_NOT_USED');
    expect(found?.message).toContain(`to ${labels(INPUT_OPTIONS)[0]}.`);
    expect(found?.message).not.toContain('NOT_USED');
  });
});
