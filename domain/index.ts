/**
 * The device model shared by the service, the API client, the CLI and the renderer: enums,
 * payload schemas (which normalize the observed forms), record schemas, and the rules.
 * No I/O. docs/configuration-rules.md lists every rule; docs/domain-records.md every record.
 */
export * from './device-types';
export * from './enums';
export * from './violations';
export * from './parse';
export * from './comm-interface';
export * from './ipv4';
export { fieldLabel } from './field-labels';
export * from './configuration';
export * from './configuration-device';
export * from './configuration-record';
export * from './registered-device';
export * from './registered-device-record';
export * from './confirmations';
export * from './ip-network-template';
export * from './users';
export * from './api-keys';
export * from './queries';
export * from './records';
export * from './config-file-download';
export * from './device-capabilities';
export * from './defaults';
export * from './merge';
export * from './network-template-apply';
export * from './ip-assignment';
export * from './deploy-status';
export * from './rules/field-rules';
export { validateConfigurationSettings, type ConfigurationSettingsContext } from './rules/configuration-settings';
export { validateConfigurationDevice, type ConfigurationDeviceContext } from './rules/configuration-device';
export { validateConfiguration, devicePath, type ConfigurationContext } from './rules/configuration';
export { validateIpNetworkTemplate } from './rules/ip-network-template';
export { checkConfigurationCompleteness, configurationStatus, effectiveDevices } from './completeness';
export * from './rules/rule-sources';
