import { z } from 'zod';

/**
 * Every enumeration of the interface, in canonical spelling. Order is the order a technician sees
 * the values in (pickers, help texts), not necessarily the order of the interface's tables.
 */

export const DEVICE_ROLES = ['Sender', 'Receiver', 'EStopSender'] as const;
export const deviceRoleSchema = z.enum(DEVICE_ROLES);
export type DeviceRole = z.infer<typeof deviceRoleSchema>;
/** Roles that send safety messages: the interface counts an EStopSender as a sender. */
export const SENDER_ROLES: readonly DeviceRole[] = ['Sender', 'EStopSender'];

/** Also the canonical order of a combined commInterface string ('BLE,ISM,Wifi'). */
export const COMM_INTERFACE_FLAGS = ['None', 'BLE', 'ISM', 'Ethernet', 'Wifi'] as const;
export const commInterfaceFlagSchema = z.enum(COMM_INTERFACE_FLAGS);
export type CommInterfaceFlag = z.infer<typeof commInterfaceFlagSchema>;

export const ISM_TX_POWERS = ['Low', 'Medium', 'High'] as const;
export const ismTxPowerSchema = z.enum(ISM_TX_POWERS);
export type IsmTxPower = z.infer<typeof ismTxPowerSchema>;

export const CAN_MODES = ['canopen', 'j1939', 'none'] as const;
export const canModeSchema = z.enum(CAN_MODES);
export type CanMode = z.infer<typeof canModeSchema>;

export const CAN_K_BITRATES = [
  'BITRATE_10000',
  'BITRATE_20000',
  'BITRATE_50000',
  'BITRATE_125000',
  'BITRATE_250000',
  'BITRATE_500000',
  'BITRATE_800000',
  'BITRATE_1000000',
] as const;
export const canKBitrateSchema = z.enum(CAN_K_BITRATES);
export type CanKBitrate = z.infer<typeof canKBitrateSchema>;
/** What EPC and NSCP devices (endpoint controllers) accept. */
export const ENDPOINT_CONTROLLER_CAN_K_BITRATES: readonly CanKBitrate[] = ['BITRATE_250000', 'BITRATE_500000'];

export const TIMEOUT_CONFIGURATIONS = ['250ms', '500ms', '750ms', '1000ms', '3000ms', '5000ms'] as const;
export const timeoutConfigurationSchema = z.enum(TIMEOUT_CONFIGURATIONS);
export type TimeoutConfiguration = z.infer<typeof timeoutConfigurationSchema>;

export const INPUT_CONFIGURATIONS = [
  'NOT_USED',
  'ESTOP_TYPE_SWITCH',
  'SOLID_STATE_SAFETY_DEVICE',
  'REMOTE_SAFETY_REQUEST',
  'REMOTE_SAFETY_REQUEST_WITH_AUTONOMY_SELECT',
] as const;
export const inputConfigurationSchema = z.enum(INPUT_CONFIGURATIONS);
export type InputConfiguration = z.infer<typeof inputConfigurationSchema>;

export const VOLTAGES = ['VOLTAGE_5V', 'VOLTAGE_12V', 'VOLTAGE_24V'] as const;
export const voltageSchema = z.enum(VOLTAGES);
export type Voltage = z.infer<typeof voltageSchema>;

/** comms: the device SDK talks over this serial; control: data output control. */
export const SERIAL_USAGES = ['comms', 'control'] as const;
export const serialUsageSchema = z.enum(SERIAL_USAGES);
export type SerialUsage = z.infer<typeof serialUsageSchema>;

export const SERIAL_BAUDRATES = ['BAUDRATE_115200'] as const;
export const serialBaudrateSchema = z.enum(SERIAL_BAUDRATES);
export type SerialBaudrate = z.infer<typeof serialBaudrateSchema>;

export const STOP_CATEGORIES = ['CAT0', 'CAT1'] as const;
export const stopCategorySchema = z.enum(STOP_CATEGORIES);
export type StopCategory = z.infer<typeof stopCategorySchema>;

export const USER_ROLES = ['Operator', 'DeviceManager', 'ConfigManager', 'Admin'] as const;
export const userRoleSchema = z.enum(USER_ROLES);
export type UserRole = z.infer<typeof userRoleSchema>;

export const API_KEY_ROLES = ['DeviceManager', 'ConfigManager', 'Operator', 'Service', 'KeyManager', 'Admin'] as const;
export const apiKeyRoleSchema = z.enum(API_KEY_ROLES);
export type ApiKeyRole = z.infer<typeof apiKeyRoleSchema>;

/** NA: ISM channels 1 to 21; EU: channel 1 only. An organization has exactly one region. */
export const REGIONS = ['NA', 'EU'] as const;
export const regionSchema = z.enum(REGIONS);
export type Region = z.infer<typeof regionSchema>;

export const TEMPLATE_INTERFACES = ['None', 'Ethernet', 'Wifi'] as const;
export const templateInterfaceSchema = z.enum(TEMPLATE_INTERFACES);
export type TemplateInterface = z.infer<typeof templateInterfaceSchema>;

export const CONFIGURATION_SORT_OPTIONS = [
  'LastEditedASC',
  'LastEditedDESC',
  'ConfigNameASC',
  'ConfigNameDESC',
] as const;
export const configurationSortOptionSchema = z.enum(CONFIGURATION_SORT_OPTIONS);
export type ConfigurationSortOption = z.infer<typeof configurationSortOptionSchema>;

export const USER_SORT_OPTIONS = ['FirstNameASC', 'FirstNameDESC', 'LastActivityASC', 'LastActivityDESC'] as const;
export const userSortOptionSchema = z.enum(USER_SORT_OPTIONS);
export type UserSortOption = z.infer<typeof userSortOptionSchema>;

/** None: key hidden; Visible: the whole key; Masked: only the end of the key. */
export const KEY_FORMATS = ['None', 'Visible', 'Masked'] as const;
export const keyFormatSchema = z.enum(KEY_FORMATS);
export type KeyFormat = z.infer<typeof keyFormatSchema>;

export const TEMPLATE_SORT_BY = ['Name', 'LastEdited'] as const;
export const templateSortBySchema = z.enum(TEMPLATE_SORT_BY);
export type TemplateSortBy = z.infer<typeof templateSortBySchema>;

export const SORT_DIRECTIONS = ['Ascending', 'Descending'] as const;
export const sortDirectionSchema = z.enum(SORT_DIRECTIONS);
export type SortDirection = z.infer<typeof sortDirectionSchema>;

/**
 * Where a registered device stands with the configuration file of its configuration (the
 * interface names no states; see docs/domain-records.md and deriveDeployStatus):
 * - NotDeployed: no configuration file has been confirmed since the device joined.
 * - Outdated: a file was applied, but the configuration changed since (another syncId is current).
 * - Deployed: the last confirmation succeeded with the current syncId.
 * - Failed: the last confirmation reported a failure.
 */
export const DEPLOY_STATUSES = ['NotDeployed', 'Outdated', 'Deployed', 'Failed'] as const;
export const deployStatusSchema = z.enum(DEPLOY_STATUSES);
export type DeployStatus = z.infer<typeof deployStatusSchema>;
