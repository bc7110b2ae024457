import type { ConfigurationSettings } from '../configuration';
import { CAN_MODE_LABELS } from '../choice-labels';
import { ENDPOINT_CONTROLLER_TYPES, type DeviceType } from '../device-types';
import { ENDPOINT_CONTROLLER_CAN_K_BITRATES, type CanKBitrate, type CanMode, type Region } from '../enums';
import { violation, type Violation } from '../violations';
import { withSeverity } from './rule-sources';
import {
  checkConfigurationName,
  checkIpv4Address,
  checkIsmChannel,
  checkIsmNetworkId,
  checkPgn,
  checkReceiverOutputControl,
  checkSourceAddress,
} from './field-rules';

export type ConfigurationSettingsContext = {
  region: Region;
  /** Types of the devices in the configuration (or about to be): they decide the allowed CAN bitrates. */
  deviceTypes: readonly DeviceType[];
};

/**
 * Every rule on a configuration's own settings, ours marked as warnings. Unset settings break no
 * rule here (see completeness).
 */
export function validateConfigurationSettings(
  settings: ConfigurationSettings,
  ctx: ConfigurationSettingsContext,
): Violation[] {
  const found: (Violation | null)[] = [];
  if (typeof settings.name === 'string') found.push(checkConfigurationName(settings.name, 'name'));
  if (settings.startingIpAddress != null) found.push(checkIpv4Address(settings.startingIpAddress, 'startingIpAddress'));
  if (settings.ismTxChannel != null) found.push(checkIsmChannel(settings.ismTxChannel, ctx.region, 'ismTxChannel'));
  if (settings.ismNetworkId != null) found.push(checkIsmNetworkId(settings.ismNetworkId, 'ismNetworkId'));
  for (const field of ['displayTextPgn', 'settingsPgn'] as const) {
    const pgn = settings[field];
    if (pgn == null) continue;
    found.push(settings.canMode === 'j1939' ? checkPgn(pgn, field) : pgnWithoutJ1939(field, settings.canMode));
  }
  (settings.approvedSourceAddresses ?? []).forEach((address, index) =>
    found.push(checkSourceAddress(address, `approvedSourceAddresses.${index}`)),
  );
  if (settings.receiverOutputControl != null) {
    found.push(checkReceiverOutputControl(settings.receiverOutputControl, 'receiverOutputControl'));
  }
  if (settings.canKBitrate != null)
    found.push(checkCanBitrateForTypes(settings.canKBitrate, ctx.deviceTypes, 'canKBitrate'));
  return withSeverity(found.filter((v): v is Violation => v !== null));
}

export function checkCanBitrateForTypes(
  bitrate: CanKBitrate,
  deviceTypes: readonly DeviceType[],
  field: string,
): Violation | null {
  if (ENDPOINT_CONTROLLER_CAN_K_BITRATES.includes(bitrate)) return null;
  const controllers = ENDPOINT_CONTROLLER_TYPES.filter((t) => deviceTypes.includes(t));
  if (controllers.length === 0) return null;
  return violation(
    'CAN_BITRATE_NOT_SUPPORTED',
    field,
    `CAN bitrate ${describeBitrate(bitrate)} is not supported by ${controllers.join(' and ')} devices: use 250 kbit/s or 500 kbit/s.`,
  );
}

function pgnWithoutJ1939(field: 'displayTextPgn' | 'settingsPgn', canMode: string | null | undefined): Violation {
  const label = field === 'displayTextPgn' ? 'Display text PGN' : 'Settings PGN';
  const mode = canMode ? `CAN mode is ${CAN_MODE_LABELS[canMode as CanMode] ?? canMode}` : 'no CAN mode is set';
  return violation(
    'PGN_REQUIRES_J1939',
    field,
    `${label} only applies to J1939, but ${mode}: set CAN mode to ${CAN_MODE_LABELS.j1939} or remove the PGN.`,
  );
}

function describeBitrate(bitrate: CanKBitrate): string {
  const bits = Number(bitrate.replace('BITRATE_', ''));
  return `${bits / 1000} kbit/s (${bitrate})`;
}
