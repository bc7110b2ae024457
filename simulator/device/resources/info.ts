import { CODE } from '../../../protocol/coap';
import { PROTOCOL_VERSION, RESOURCE } from '../../../protocol/constants';
import type { DeviceInfo } from '../../../protocol/payloads';
import type { DeviceContext, Resource } from '../context';
import { cborResponse } from '../errors';
import { hexToBytes } from '../../hex';
import { takesAnnounceExtensions } from './firmware';

export function deviceInfo(device: DeviceContext): DeviceInfo {
  const state = device.store.current;
  return {
    protocol: PROTOCOL_VERSION,
    serialNumber: state.serialNumber,
    deviceType: state.deviceType,
    model: state.model,
    firmwareVersion: state.firmwareVersion,
    configSyncId: state.config?.syncId ?? null,
    maxBlockSize: device.maxBlockSize,
    maxInFlight: device.maxInFlight,
    qBlock1: true,
    qBlock1MaxPayloads: device.qBlock1MaxPayloads,
    // Omitted, not empty, by a device without codings: exactly what devices sent before them.
    ...(device.firmware.codings.length > 0 ? { codings: [...device.firmware.codings] } : {}),
    ...(takesAnnounceExtensions(device) ? { manifestAnnounce: true, blocksBehindAnnounce: true } : {}),
    imageSha256: device.firmware.runningImageSha256 === null ? null : hexToBytes(device.firmware.runningImageSha256),
    bootId: state.bootId,
    state: device.firmware.status().state,
  };
}

export const infoResource: Resource = {
  path: RESOURCE.info,
  linkAttributes: ';rt="provisioner.info";ct=60',
  methods: {
    GET: async (_request, device) => cborResponse(CODE.CONTENT, deviceInfo(device)),
  },
};
