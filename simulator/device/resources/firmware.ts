import { decodeCbor } from '../../../domain/files/cbor';
import { CODE } from '../../../protocol/coap';
import { DEVICE_ERROR, RESOURCE } from '../../../protocol/constants';
import type { CoapResponse } from '../../coap/types';
import type { DeviceContext, Resource } from '../context';
import { cborResponse, DeviceError } from '../errors';
import { firmwareAnnouncementSchema, type FirmwareAnnouncement } from '../../../protocol/payloads';

/** The representation of GET /fw, also sent to observers. */
export function firmwareStatusResponse(device: DeviceContext): CoapResponse {
  return cborResponse(CODE.CONTENT, device.firmware.status(), { observable: true });
}

const ANNOUNCEMENT_FIELDS = '"size" (a positive integer), "sha256" (32 bytes), "version" (1 to 32 characters), "deviceType" and "signedManifest" (bytes)';

function parseAnnouncement(payload: Uint8Array): FirmwareAnnouncement {
  let value: unknown;
  try {
    value = decodeCbor(payload);
  } catch {
    throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement is not CBOR.');
  }
  const parsed = firmwareAnnouncementSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DeviceError(DEVICE_ERROR.badRequest, `The announcement needs ${ANNOUNCEMENT_FIELDS}; ${issue?.path.join('.') || 'the payload'}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data;
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
