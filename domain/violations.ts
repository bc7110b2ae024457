/**
 * A broken rule, phrased for the technician who broke it. `code` is stable (clients branch on it,
 * docs/configuration-rules.md lists every one); `message` may be reworded; `field` is a dotted path
 * into the payload ('approvedSourceAddresses.2', 'devices.EPC000101.ipAddress'), '' for the payload
 * as a whole. `severity: 'warning'` marks a rule of ours that the interface does not state: it is
 * reported but refuses nothing (rules/rule-sources.ts); without it the violation is an error.
 */
export type Violation = { code: string; message: string; field: string; severity?: 'warning' };

/** Every code the domain emits. A code is never renamed once released; add, do not rename. */
export const VIOLATION_CODES = [
  // Payload shape (parsePayload)
  'REQUIRED',
  'INVALID_TYPE',
  'INVALID_INTEGER',
  'INTEGER_OUT_OF_RANGE',
  'INVALID_BOOLEAN',
  'INVALID_ENUM_VALUE',
  'INVALID_UUID',
  'INVALID_DATE_TIME',
  'INVALID_EMAIL',
  'INVALID_VALUE',
  'UNKNOWN_FIELD',
  'UPDATE_ONLY_FIELD',
  'SERIAL_NUMBER_IN_UPDATE',
  'INVALID_COMM_INTERFACE',
  'COMM_INTERFACE_NONE_COMBINED',
  'INVALID_IPV4_ADDRESS',
  'INVALID_NETMASK',
  'SERIAL_NUMBER_TOO_SHORT',
  'TEXT_TOO_LONG',
  // Configuration settings
  'NAME_TOO_SHORT',
  'ISM_CHANNEL_OUT_OF_RANGE',
  'ISM_CHANNEL_NOT_ALLOWED_IN_REGION',
  'ISM_NETWORK_ID_OUT_OF_RANGE',
  'PGN_REQUIRES_J1939',
  'PGN_OUT_OF_RANGE',
  'SOURCE_ADDRESS_OUT_OF_RANGE',
  'RECEIVER_OUTPUT_CONTROL_INVALID',
  'CAN_BITRATE_NOT_SUPPORTED',
  // Device in a configuration
  'INPUT_MUST_BE_NOT_USED',
  'INPUT2_NOT_APPLICABLE_WITH_CAT1',
  'SERIAL_USAGE_CONFLICT',
  'NSCP_ONLY_FIELD',
  'CAT1_STOP_DELAY_WITHOUT_CAT1',
  'CAT1_STOP_DELAY_NEGATIVE',
  'INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE',
  'IP_ADDRESS_WITHOUT_IP_INTERFACE',
  'ETHERNET_FIELD_WITHOUT_ETHERNET',
  'WIFI_FIELD_WITHOUT_WIFI',
  'IP_ADDRESS_NOT_A_HOST',
  'GATEWAY_OUTSIDE_SUBNET',
  'NETWORK_TEMPLATE_NOT_FOUND',
  'NETWORK_TEMPLATE_INTERFACE_MISMATCH',
  // Devices together
  'DUPLICATE_SERIAL_NUMBER',
  'DUPLICATE_IP_ADDRESS',
  // Completeness
  'NO_SENDER',
  'NO_RECEIVER',
  'DEVICE_ROLE_MISSING',
  'COMM_INTERFACE_MISSING',
  'SENDER_WITHOUT_RECEIVER_LINK',
  'RECEIVER_WITHOUT_SENDER_LINK',
  'TIMEOUT_CONFIGURATION_MISSING',
  'ISM_CHANNEL_MISSING',
  'ISM_TX_POWER_MISSING',
  'CAN_MODE_MISSING',
  'CAN_BITRATE_MISSING',
  'IP_ADDRESS_MISSING',
  'NETMASK_MISSING',
  'WIFI_SSID_MISSING',
  'STOP_CATEGORY_MISSING',
  'CAT1_STOP_DELAY_MISSING',
  // IP network template
  'TEMPLATE_NAME_TOO_SHORT',
  'TEMPLATE_NETMASK_TOO_SHORT',
  // Registered devices, confirmations, users
  'DEVICE_NAME_TOO_SHORT',
  'DEVICE_IMAGE_TOO_LARGE',
  'DELETE_IMAGE_WITH_IMAGE',
  'FIRMWARE_VERSION_REQUIRED',
  'APPLY_TIME_OUT_OF_RANGE',
  // List queries
  'LIMIT_TOO_LARGE',
  'LIMIT_TOO_SMALL',
  'PAGE_OUT_OF_RANGE',
  'OFFSET_OUT_OF_RANGE',
  'SEARCH_WITH_SERIAL',
] as const;
export type ViolationCode = (typeof VIOLATION_CODES)[number];

export function violation(code: ViolationCode, field: string, message: string): Violation {
  return { code, field, message };
}

/** Prefixes each violation's field, e.g. to place a device's violations under 'devices.EPC000101'. */
export function underField(prefix: string, violations: readonly Violation[]): Violation[] {
  return violations.map((v) => ({ ...v, field: v.field === '' ? prefix : `${prefix}.${v.field}` }));
}
