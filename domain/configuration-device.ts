import { z } from 'zod';
import type { CommInterface } from './comm-interface';
import type { DeviceType } from './device-types';
import {
  deviceRoleSchema,
  inputConfigurationSchema,
  serialBaudrateSchema,
  serialUsageSchema,
  stopCategorySchema,
  voltageSchema,
  type DeviceRole,
  type InputConfiguration,
  type SerialBaudrate,
  type SerialUsage,
  type StopCategory,
  type Voltage,
} from './enums';
import {
  anyInput,
  commInterfaceField,
  forbiddenField,
  int32Field,
  ipv4Field,
  nameserversField,
  netmaskField,
  optionalField,
  pushViolation,
  uuidField,
  withRule,
} from './fields';
import { checkCat1StopDelay } from './rules/field-rules';

const deviceSettingsFields = {
  ipAddress: optionalField(ipv4Field),
  deviceConfigurationType: optionalField(deviceRoleSchema),
  commInterface: optionalField(commInterfaceField),
  inputConfiguration1: optionalField(inputConfigurationSchema),
  inputConfiguration2: optionalField(inputConfigurationSchema),
  inputConfiguration3: optionalField(inputConfigurationSchema),
  can0Id: optionalField(int32Field),
  serial0Usage: optionalField(serialUsageSchema),
  serial1Usage: optionalField(serialUsageSchema),
  stopCategory: optionalField(stopCategorySchema),
  cat1StopDelay: optionalField(withRule(z.number(), checkCat1StopDelay)),
  ossdEnabled: optionalField(z.boolean()),
  ethNetmask: optionalField(netmaskField),
  ethGateway: optionalField(ipv4Field),
  ethNameservers: optionalField(nameserversField),
  wifiNetmask: optionalField(netmaskField),
  wifiGateway: optionalField(ipv4Field),
  wifiNameservers: optionalField(nameserversField),
  wifiSsid: optionalField(z.string()),
  wifiPassword: optionalField(z.string()),
  networkTemplateId: optionalField(uuidField),
};

const updateOnly = (field: string) =>
  forbiddenField(
    'UPDATE_ONLY_FIELD',
    `${field} cannot be set while adding a device: add the device first, then update it with ${field}.`,
  );

const serialNumberField = anyInput<string>().transform((input, ctx): string => {
  if (input === undefined || input === null) {
    pushViolation(ctx, input, 'REQUIRED', 'The serial number of the device to add is required (e.g. EPC000101).');
    return z.NEVER;
  }
  if (typeof input !== 'string') {
    pushViolation(ctx, input, 'INVALID_TYPE', 'The serial number must be text (e.g. EPC000101).');
    return z.NEVER;
  }
  const serial = input.trim();
  if (serial.length === 0) {
    pushViolation(ctx, input, 'SERIAL_NUMBER_TOO_SHORT', 'The serial number is empty: enter the serial number printed on the device.');
    return z.NEVER;
  }
  return serial;
});

/** POST configurations/{id}/devices. */
export const deviceAddSchema = z.strictObject({
  serialNumber: serialNumberField,
  ...deviceSettingsFields,
  can1Id: updateOnly('can1Id'),
  voltage: updateOnly('voltage'),
  serial0Baudrate: updateOnly('serial0Baudrate'),
  serial1Baudrate: updateOnly('serial1Baudrate'),
});
export type DeviceAddInput = z.input<typeof deviceAddSchema>;

/** PATCH configurations/{id}/devices/{serialNumber}. null means "leave as is" (see mergeDevicePatch). */
export const deviceUpdateSchema = z.strictObject({
  serialNumber: forbiddenField(
    'SERIAL_NUMBER_IN_UPDATE',
    'The serial number cannot be changed: remove the device from the configuration and add the other one.',
  ),
  ...deviceSettingsFields,
  can1Id: optionalField(int32Field),
  voltage: optionalField(voltageSchema),
  serial0Baudrate: optionalField(serialBaudrateSchema),
  serial1Baudrate: optionalField(serialBaudrateSchema),
});
export type DeviceUpdate = z.output<typeof deviceUpdateSchema>;
export type DeviceUpdateInput = z.input<typeof deviceUpdateSchema>;

/**
 * The settings the device rules look at: an add or update payload, a merged update or a stored
 * record. A record never has wifiPassword, only wifiPasswordSet.
 */
export type ConfigurationDeviceSettings = {
  serialNumber?: string | null | undefined;
  ipAddress?: string | null | undefined;
  deviceConfigurationType?: DeviceRole | null | undefined;
  commInterface?: CommInterface | null | undefined;
  inputConfiguration1?: InputConfiguration | null | undefined;
  inputConfiguration2?: InputConfiguration | null | undefined;
  inputConfiguration3?: InputConfiguration | null | undefined;
  can0Id?: number | null | undefined;
  can1Id?: number | null | undefined;
  voltage?: Voltage | null | undefined;
  serial0Usage?: SerialUsage | null | undefined;
  serial1Usage?: SerialUsage | null | undefined;
  serial0Baudrate?: SerialBaudrate | null | undefined;
  serial1Baudrate?: SerialBaudrate | null | undefined;
  stopCategory?: StopCategory | null | undefined;
  cat1StopDelay?: number | null | undefined;
  ossdEnabled?: boolean | null | undefined;
  ethNetmask?: string | null | undefined;
  ethGateway?: string | null | undefined;
  ethNameservers?: readonly string[] | null | undefined;
  wifiNetmask?: string | null | undefined;
  wifiGateway?: string | null | undefined;
  wifiNameservers?: readonly string[] | null | undefined;
  wifiSsid?: string | null | undefined;
  wifiPassword?: string | null | undefined;
  wifiPasswordSet?: boolean | null | undefined;
  networkTemplateId?: string | null | undefined;
};

/** A device as a member of a configuration: its settings plus what the service knows of it. */
export type ConfigurationMember = ConfigurationDeviceSettings & { serialNumber: string; deviceType: DeviceType };

export const ETHERNET_FIELDS = ['ethNetmask', 'ethGateway', 'ethNameservers'] as const;
export const WIFI_FIELDS = [
  'wifiNetmask',
  'wifiGateway',
  'wifiNameservers',
  'wifiSsid',
  'wifiPassword',
] as const;
export const NSCP_ONLY_FIELDS = ['serial0Usage', 'serial1Usage', 'stopCategory', 'cat1StopDelay', 'ossdEnabled'] as const;
