import {
  checkConfigurationCompleteness,
  configurationCreateSchema,
  deviceAddSchema,
  parsePayload,
  underField,
  type ConfigurationCreate,
  type ConfigurationMember,
  type Violation,
} from '../../domain';
import type { TypicalFlow } from '../fixtures/typical-flows';

/** Parses a flow's payloads as the service would, then reports everything its status would. */
export function evaluateFlow(flow: TypicalFlow): Violation[] {
  const violations: Violation[] = [];
  const configuration = parsePayload(configurationCreateSchema, flow.configuration);
  if (!configuration.ok) violations.push(...configuration.violations);
  const members: ConfigurationMember[] = [];
  for (const device of flow.devices) {
    const parsed = parsePayload(deviceAddSchema, device.payload);
    if (parsed.ok) members.push({ ...parsed.value, deviceType: device.deviceType });
    else violations.push(...underField(`devices.${device.payload.serialNumber}`, parsed.violations));
  }
  if (!configuration.ok) return violations;
  return [
    ...violations,
    ...checkConfigurationCompleteness(configuration.value as ConfigurationCreate, members, { region: flow.region }),
  ];
}

export function codesAndFields(violations: readonly Violation[]): { code: string; field: string }[] {
  return violations.map(({ code, field }) => ({ code, field }));
}
