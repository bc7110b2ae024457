import { z } from 'zod';
import type { DeviceType } from '../../../domain/device-types';
import { firmwarePatchRecordSchema } from '../../../domain/files/firmware-patch-record';
import { collectBody } from '../download';
import { encodePathSegment as seg, type CallOptions, type Transport } from '../http';

/** A firmware patch as fetched, with the hashes the service states for it. */
export interface FetchedFirmwarePatch {
  bytes: Uint8Array;
  /** The version it builds (X-Firmware-Version). */
  toVersion: string | undefined;
  headers: Headers;
}

/** Patches between firmware releases (ours, an extension of the firmware operations; docs/service-api.md). */
export function firmwarePatchOperations(t: Transport) {
  const base = (deviceType: DeviceType) => `/devices/types/${seg(deviceType)}/firmware/patches`;
  return {
    firmwarePatches: {
      /** GET devices/types/{deviceType}/firmware/patches: the patches to the type's latest firmware. */
      list: (deviceType: DeviceType, call?: CallOptions) =>
        t.json({ method: 'GET', path: base(deviceType), safeToRepeat: true }, z.array(firmwarePatchRecordSchema), call),
      /** GET devices/types/{deviceType}/firmware/patches/{fromVersion}: the patch from that release to the latest, in memory. */
      fetch: (deviceType: DeviceType, fromVersion: string, call: CallOptions = {}): Promise<FetchedFirmwarePatch> =>
        t.stream(
          {
            method: 'GET',
            path: `${base(deviceType)}/${seg(fromVersion)}`,
            safeToRepeat: true,
            headers: { accept: 'application/octet-stream' },
          },
          call,
          async (body) => {
            const { bytes, headers } = await collectBody(body);
            return { bytes, headers, toVersion: headers.get('x-firmware-version') ?? undefined };
          },
        ),
    },
  };
}
