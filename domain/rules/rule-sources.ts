import type { Violation, ViolationCode } from '../violations';

/**
 * Where a configuration rule comes from. The interface's rules (its types, enums, ranges, the
 * fields it marks required, update only or NSCP only, its numbered device rules, and the
 * conditions it sets for a file) refuse a write. Ours add to them what a working plant needs in
 * our judgement; the interface accepts what they find, so they only warn: a warning refuses no
 * write and holds back no file, and the technician reads it in the configuration's status and in
 * the designer before applying. docs/configuration-rules.md names the source of every rule.
 */
export type RuleSource = 'interface' | 'ours';

/** The configuration rules the interface does not state. Every other configuration rule is the interface's. */
export const OUR_CONFIGURATION_RULES = [
  // The interface gives ismNetworkId no range (it is not even in its table) and cat1StopDelay none.
  'ISM_NETWORK_ID_OUT_OF_RANGE',
  'CAT1_STOP_DELAY_NEGATIVE',
  // It says what cat1StopDelay is for, not that it is refused without CAT1.
  'CAT1_STOP_DELAY_WITHOUT_CAT1',
  // It does not list which interfaces each device type has.
  'INTERFACE_NOT_SUPPORTED_BY_DEVICE_TYPE',
  // "Only used when ... communications are used" / "only required when ... IP": unused, not refused.
  'IP_ADDRESS_WITHOUT_IP_INTERFACE',
  'ETHERNET_FIELD_WITHOUT_ETHERNET',
  'WIFI_FIELD_WITHOUT_WIFI',
  // Network sanity: the interface says nothing of subnets, gateways or one address per device.
  'IP_ADDRESS_NOT_A_HOST',
  'GATEWAY_OUTSIDE_SUBNET',
  'DUPLICATE_IP_ADDRESS',
  'NETWORK_TEMPLATE_INTERFACE_MISMATCH',
  // Which devices can hear each other is our reading of the links (Ethernet and Wifi as one).
  'SENDER_WITHOUT_RECEIVER_LINK',
  'RECEIVER_WITHOUT_SENDER_LINK',
] as const satisfies readonly ViolationCode[];

const OURS: ReadonlySet<string> = new Set(OUR_CONFIGURATION_RULES);

export function configurationRuleSource(code: string): RuleSource {
  return OURS.has(code) ? 'ours' : 'interface';
}

/** Marks the violations of our own rules as warnings; the interface's stay errors. */
export function withSeverity(violations: readonly Violation[]): Violation[] {
  return violations.map((v) => (OURS.has(v.code) ? { ...v, severity: 'warning' as const } : v));
}

export function isWarning(violation: Violation): boolean {
  return violation.severity === 'warning';
}

/** What refuses a write or holds back a file: the errors, never the warnings. */
export function errorsOf(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => !isWarning(v));
}

export function warningsOf(violations: readonly Violation[]): Violation[] {
  return violations.filter(isWarning);
}
