import { z } from 'zod';
import type { DeviceType } from './device-types';
import {
  deviceRoleSchema,
  inputConfigurationSchema,
  serialBaudrateSchema,
  serialUsageSchema,
  stopCategorySchema,
  voltageSchema,
} from './enums';
import {
  anyInput,
  commInterfaceField,
  forbiddenField,
  int32Field,
  ipv4Field,
  mapFields,
  nameserversField,
  netmaskField,
  optionalField,
  pushViolation,
  uuidField,
} from './fields';
import { boundedText, TEXT_LIMITS } from './text-limits';

/**
 * Every setting of a device in a configuration, with its value as the service records it: the one
 * list of device settings. The record (configuration-record.ts), the settings type below, the
 * labels (field-labels.ts), the contract's input and the designer's draft are made from it; the
 * payload schemas below are checked against it.
 */
export const DEVICE_SETTING_VALUES = {
  ipAddress: z.string(),
  deviceConfigurationType: deviceRoleSchema,
  commInterface: z.string(),
  inputConfiguration1: inputConfigurationSchema,
  inputConfiguration2: inputConfigurationSchema,
  inputConfiguration3: inputConfigurationSchema,
  can0Id: z.int(),
  can1Id: z.int(),
  voltage: voltageSchema,
  serial0Usage: serialUsageSchema,
  serial1Usage: serialUsageSchema,
  serial0Baudrate: serialBaudrateSchema,
  serial1Baudrate: serialBaudrateSchema,
  stopCategory: stopCategorySchema,
  cat1StopDelay: z.number(),
  /** NSCP: true unless turned off (the interface: enabled by default). Other types: null. */
  ossdEnabled: z.boolean(),
  ethNetmask: z.string(),
  ethGateway: z.string(),
  ethNameservers: z.array(z.string()),
  wifiNetmask: z.string(),
  wifiGateway: z.string(),
  wifiNameservers: z.array(z.string()),
  wifiSsid: z.string(),
  /** Written, never read back: a record says only whether one is stored (wifiPasswordSet). */
  wifiPassword: z.string(),
  networkTemplateId: uuidField,
};
export type DeviceSettingKey = keyof typeof DEVICE_SETTING_VALUES;
export const DEVICE_SETTING_KEYS = Object.keys(DEVICE_SETTING_VALUES) as DeviceSettingKey[];

/** Settings a device takes only once it is in a configuration: an add payload must not carry them. */
export const UPDATE_ONLY_DEVICE_SETTINGS = [
  'can1Id',
  'voltage',
  'serial0Baudrate',
  'serial1Baudrate',
] as const satisfies readonly DeviceSettingKey[];
type UpdateOnlySetting = (typeof UPDATE_ONLY_DEVICE_SETTINGS)[number];

/** How add and update payloads read each setting: the observed forms, normalized, with the field rules. */
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
  // Its range is ours: the device rules warn of a negative delay, the payload does not refuse it.
  cat1StopDelay: optionalField(z.number()),
  ossdEnabled: optionalField(z.boolean()),
  ethNetmask: optionalField(netmaskField),
  ethGateway: optionalField(ipv4Field),
  ethNameservers: optionalField(nameserversField),
  wifiNetmask: optionalField(netmaskField),
  wifiGateway: optionalField(ipv4Field),
  wifiNameservers: optionalField(nameserversField),
  wifiSsid: optionalField(boundedText(TEXT_LIMITS.wifiSsid)),
  wifiPassword: optionalField(boundedText(TEXT_LIMITS.wifiPassword)),
  networkTemplateId: optionalField(uuidField),
} satisfies Record<Exclude<DeviceSettingKey, UpdateOnlySetting>, z.ZodType>;

const updateOnlyFields = {
  can1Id: optionalField(int32Field),
  voltage: optionalField(voltageSchema),
  serial0Baudrate: optionalField(serialBaudrateSchema),
  serial1Baudrate: optionalField(serialBaudrateSchema),
} satisfies Record<UpdateOnlySetting, z.ZodType>;

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
    pushViolation(
      ctx,
      input,
      'SERIAL_NUMBER_TOO_SHORT',
      'The serial number is empty: enter the serial number printed on the device.',
    );
    return z.NEVER;
  }
  return serial;
});

/** POST configurations/{id}/devices. */
export const deviceAddSchema = z.strictObject({
  serialNumber: serialNumberField,
  ...deviceSettingsFields,
  ...mapFields(updateOnlyFields, (_field, name) => updateOnly(name)),
});
export type DeviceAddInput = z.input<typeof deviceAddSchema>;

/** PATCH configurations/{id}/devices/{serialNumber}. null means "leave as is" (see mergeDevicePatch). */
export const deviceUpdateSchema = z.strictObject({
  serialNumber: forbiddenField(
    'SERIAL_NUMBER_IN_UPDATE',
    'The serial number cannot be changed: remove the device from the configuration and add the other one.',
  ),
  ...deviceSettingsFields,
  ...updateOnlyFields,
});
export type DeviceUpdate = z.output<typeof deviceUpdateSchema>;
export type DeviceUpdateInput = z.input<typeof deviceUpdateSchema>;

/** A list may arrive read-only (a merged update keeps the stored one). */
type Settable<V> = V extends (infer E)[] ? readonly E[] : V;

/**
 * The settings the device rules look at: an add or update payload, a merged update or a stored
 * record. Absent and null both mean "not set". A record never has wifiPassword, only wifiPasswordSet.
 */
export type ConfigurationDeviceSettings = {
  [K in DeviceSettingKey]?: Settable<z.output<(typeof DEVICE_SETTING_VALUES)[K]>> | null | undefined;
} & {
  serialNumber?: string | null | undefined;
  wifiPasswordSet?: boolean | null | undefined;
};

/** A device as a member of a configuration: its settings plus what the service knows of it. */
export type ConfigurationMember = ConfigurationDeviceSettings & { serialNumber: string; deviceType: DeviceType };

export const ETHERNET_FIELDS = ['ethNetmask', 'ethGateway', 'ethNameservers'] as const;
export const WIFI_FIELDS = ['wifiNetmask', 'wifiGateway', 'wifiNameservers', 'wifiSsid', 'wifiPassword'] as const;
export const NSCP_ONLY_FIELDS = [
  'serial0Usage',
  'serial1Usage',
  'stopCategory',
  'cat1StopDelay',
  'ossdEnabled',
] as const;
