import type { CanMode, DeviceRole, InputConfiguration } from './enums';

/**
 * The interface's enum values as a technician reads them: the designer's dropdowns show these,
 * and every rule message that names a choice names it the same way ("CANopen", not "canopen"),
 * so the words in an error can be found in the list beside it.
 */

export const CAN_MODE_LABELS: Record<CanMode, string> = { canopen: 'CANopen', j1939: 'J1939', none: 'None' };

export const DEVICE_ROLE_LABELS: Record<DeviceRole, string> = { Sender: 'Sender', Receiver: 'Receiver', EStopSender: 'E-stop sender' };

export const INPUT_CONFIGURATION_LABELS: Record<InputConfiguration, string> = {
  NOT_USED: 'Not used',
  ESTOP_TYPE_SWITCH: 'E-stop switch',
  SOLID_STATE_SAFETY_DEVICE: 'Solid-state safety device',
  REMOTE_SAFETY_REQUEST: 'Remote safety request',
  REMOTE_SAFETY_REQUEST_WITH_AUTONOMY_SELECT: 'Remote safety request + autonomy select',
};

/** "A, B or C", for a message that lists choices. */
export function choiceList(labels: readonly string[]): string {
  return labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}
