import type { ServiceClient } from '../../cloud';
import type { StationFirmwarePolicy } from '../../../contract/station';
import type { DeviceType } from '../../../domain/device-types';
import type { DeviceRecord } from '../../../domain/registered-device-record';
import { deviceSync, latestFirmwareByType, type DeviceSync } from '../../engine/jobs/device-sync';

/** What a plugged device reports of itself (the discovery's GET /info). */
export interface PluggedReading {
  serialNumber: string;
  deviceType: DeviceType | string;
  firmwareVersion: string;
  configSyncId: string | null;
}

export type SyncCheck = (device: PluggedReading, signal?: AbortSignal) => Promise<DeviceSync>;

/**
 * How a plugged device stands against the service, judged as `device verify` judges it
 * (deviceSync). With the firmware policy `keep` the firmware is not judged: only the configuration
 * decides whether the device is left alone.
 */
export function serviceSyncCheck(client: Pick<ServiceClient, 'devices'>, firmware: StationFirmwarePolicy): SyncCheck {
  return async (device, signal) => {
    let record: DeviceRecord | null | undefined;
    try {
      const page = await client.devices.list(
        { serial: device.serialNumber, limit: 1 },
        { retry: false, ...(signal ? { signal } : {}) },
      );
      record = page.items.find((r) => r.serialNumber === device.serialNumber) ?? null;
    } catch {
      record = undefined;
    }
    const latest =
      firmware === 'keep'
        ? null
        : (await latestFirmwareByType(client, [device.deviceType as DeviceType], signal)).get(
            device.deviceType as DeviceType,
          );
    return deviceSync({ firmwareVersion: device.firmwareVersion, configSyncId: device.configSyncId }, record, latest);
  };
}
