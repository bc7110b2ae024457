import type { Region } from '../enums';
import { isIpv4Address, isNetmask } from '../ipv4';
import { violation, type Violation } from '../violations';

/**
 * Rules on one value, independent of anything else. Payload schemas attach them (so parsePayload
 * reports them with their own code) and the rule functions run them again on stored or merged
 * settings. Each returns null when the value is fine.
 */
export type FieldRule<T> = (value: T, field: string) => Violation | null;

export const PGN_MIN = 0xff00;
export const PGN_MAX = 0xffff;
export const DEFAULT_DISPLAY_TEXT_PGN = 0xff01;
export const DEFAULT_SETTINGS_PGN = 0xff02;
export const NA_ISM_CHANNEL_MAX = 21;
export const EU_ISM_CHANNEL = 1;

export const checkConfigurationName: FieldRule<string> = (name, field) =>
  name.trim().length >= 1
    ? null
    : violation('NAME_TOO_SHORT', field, 'The configuration needs a name: enter at least one character.');

export const checkPgn: FieldRule<number> = (value, field) =>
  value >= PGN_MIN && value <= PGN_MAX
    ? null
    : violation(
        'PGN_OUT_OF_RANGE',
        field,
        `PGN ${value} is out of range: display text and settings PGNs must be between 65280 (0xFF00) and 65535 (0xFFFF).`,
      );

export const checkSourceAddress: FieldRule<number> = (value, field) =>
  value >= 0 && value <= 255
    ? null
    : violation(
        'SOURCE_ADDRESS_OUT_OF_RANGE',
        field,
        `Approved source address ${value} is not a CAN node id: each address must be between 0 and 255.`,
      );

export const checkReceiverOutputControl: FieldRule<number> = (value, field) =>
  value === 1 || value === 2
    ? null
    : violation(
        'RECEIVER_OUTPUT_CONTROL_INVALID',
        field,
        `Receiver output ${value} does not exist: the sender can control receiver output 1 or 2.`,
      );

export const checkIsmNetworkId: FieldRule<number> = (value, field) =>
  value >= 0
    ? null
    : violation(
        'ISM_NETWORK_ID_OUT_OF_RANGE',
        field,
        `ISM network id ${value} is negative: use 0 or a positive number.`,
      );

export function checkIsmChannel(value: number, region: Region, field: string): Violation | null {
  if (region === 'EU') {
    return value === EU_ISM_CHANNEL
      ? null
      : violation(
          'ISM_CHANNEL_NOT_ALLOWED_IN_REGION',
          field,
          `ISM channel ${value} is not allowed in Europe: European organizations must use channel 1.`,
        );
  }
  return value >= 1 && value <= NA_ISM_CHANNEL_MAX
    ? null
    : violation(
        'ISM_CHANNEL_OUT_OF_RANGE',
        field,
        `ISM channel ${value} does not exist in North America: choose a channel from 1 to 21.`,
      );
}

export const checkIpv4Address: FieldRule<string> = (value, field) =>
  isIpv4Address(value)
    ? null
    : violation(
        'INVALID_IPV4_ADDRESS',
        field,
        `'${value}' is not an IPv4 address: write four numbers from 0 to 255 separated by dots, e.g. 192.168.1.20.`,
      );

export const checkNetmask: FieldRule<string> = (value, field) =>
  isNetmask(value)
    ? null
    : violation(
        'INVALID_NETMASK',
        field,
        `'${value}' is not a netmask: use a dotted mask such as 255.255.255.0 (ones followed by zeros).`,
      );

export const checkCat1StopDelay: FieldRule<number> = (value, field) =>
  value >= 0
    ? null
    : violation('CAT1_STOP_DELAY_NEGATIVE', field, `The CAT1 stop delay ${value} is negative: use 0 or more.`);
