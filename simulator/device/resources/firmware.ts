import { decodeCbor, isByteString } from '../../../domain/files/cbor';
import { CODE } from '../../../protocol/coap';
import { DEVICE_ERROR, RESOURCE } from '../../../protocol/constants';
import type { CoapResponse } from '../../coap/types';
import type { DeviceContext, Resource } from '../context';
import { cborResponse, DeviceError } from '../errors';
import type { Announcement } from '../firmware-update';

/** The representation of GET /fw, also sent to observers. */
export function firmwareStatusResponse(device: DeviceContext): CoapResponse {
  return cborResponse(CODE.CONTENT, device.firmware.status(), { observable: true });
}

function parseAnnouncement(payload: Uint8Array): Announcement {
  let value: unknown;
  try {
    value = decodeCbor(payload);
  } catch {
    throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement is not CBOR.');
  }
  const map = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { size, sha256, version, deviceType } = map;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) {
    throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement needs "size", a positive integer.');
  }
  if (!isByteString(sha256) || sha256.length !== 32) throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement needs "sha256", 32 bytes.');
  if (typeof version !== 'string' || version.length === 0 || version.length > 32) {
    throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement needs "version", 1 to 32 characters.');
  }
  if (typeof deviceType !== 'string') throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement needs "deviceType".');
  return { size, sha256, version, deviceType };
}

export const firmwareResource: Resource = {
  path: RESOURCE.firmware,
  linkAttributes: ';rt="provisioner.fw";ct=60;obs',
  methods: {
    GET: async (_request, device) => firmwareStatusResponse(device),
    POST: async (request, device) => {
      const start = await device.firmware.announce(parseAnnouncement(request.message.payload));
      return cborResponse(CODE.CREATED, start);
    },
  },
};
