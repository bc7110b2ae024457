import type { ServiceClient } from '../../cloud';
import type { DeviceType } from '../../../domain/device-types';

/** The configuration a station works for: which serial numbers belong on this line. */
export interface StationRoster {
  configurationId: string;
  configurationName: string;
  /** Serial number → device type, as the configuration lists them. */
  devices: ReadonlyMap<string, DeviceType>;
}

/** No configuration of that name: says which there are. */
export class StationSetupError extends Error {
  override readonly name = 'StationSetupError';
}

/**
 * Finds the configuration by name (exactly, ignoring case and surrounding spaces) and lists its
 * devices. A name that matches none, or several, is refused with the names there are, so the
 * person at the station can pick the right one.
 */
export async function loadStationRoster(
  client: Pick<ServiceClient, 'configurations'>,
  name: string,
  signal?: AbortSignal,
): Promise<StationRoster> {
  const wanted = name.trim().toLowerCase();
  if (wanted === '')
    throw new StationSetupError(
      'Name the configuration the station provisions, e.g. --configuration "Loader 7 remote (ISM)".',
    );
  const all: { id: string; name: string; devices: { serialNumber: string; deviceType: DeviceType }[] }[] = [];
  for await (const record of client.configurations.listAll({}, signal ? { signal } : {})) all.push(record);
  const matches = all.filter((c) => c.name.trim().toLowerCase() === wanted);
  if (matches.length === 0) {
    const names = all.map((c) => `"${c.name}"`).join(', ');
    throw new StationSetupError(
      `No configuration is named "${name}". ${all.length > 0 ? `There are: ${names}.` : 'This organization has no configuration yet: design one first.'}`,
    );
  }
  if (matches.length > 1)
    throw new StationSetupError(
      `${matches.length} configurations are named "${name}": rename all but one so the station knows which to provision.`,
    );
  const match = matches[0]!;
  if (match.devices.length === 0)
    throw new StationSetupError(`The configuration "${match.name}" holds no device: add its devices first.`);
  return {
    configurationId: match.id,
    configurationName: match.name,
    devices: new Map(match.devices.map((d) => [d.serialNumber, d.deviceType])),
  };
}
