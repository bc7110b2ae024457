import { decodeCbor } from '../../../domain/files/cbor';
import { FileFormatError } from '../../../domain/files/file-error';
import { readSignedFirmwareManifest } from '../../../domain/files/firmware-manifest';
import { CODE } from '../../../protocol/coap';
import { DEVICE_ERROR, RESOURCE } from '../../../protocol/constants';
import type { ResourceResponse } from '../../coap/types';
import type { DeviceContext, Resource } from '../context';
import { cborResponse, DeviceError } from '../errors';
import { hexToBytes } from '../../hex';
import {
  firmwareAnnouncementSchema,
  shortFirmwareAnnouncementSchema,
  type FirmwareAnnouncement,
} from '../../../protocol/payloads';

/** The representation of GET /fw, also sent to observers. */
export function firmwareStatusResponse(device: DeviceContext): ResourceResponse {
  return cborResponse(CODE.CONTENT, device.firmware.status(), { observable: true });
}

const ANNOUNCEMENT_FIELDS =
  '"size" (a positive integer), "sha256" (32 bytes), "version" (1 to 32 characters), "deviceType" and "signedManifest" (bytes)';

/**
 * Whether this device takes the short announce and blocks behind it (GET /info `manifestAnnounce`,
 * `blocksBehindAnnounce`): the simulated device has them from the same firmware generation as
 * content codings, so a device started with no codings (one from before them) takes only the full
 * announce and handles a block as it comes, as such devices do.
 */
export function takesAnnounceExtensions(device: DeviceContext): boolean {
  return device.firmware.codings.length > 0;
}

/**
 * The short announce (docs/device-protocol.md 3.3) made whole: the plain fields are read from the
 * signed manifest, which the device verifies next as it does for every announce.
 */
function fromManifest(value: unknown): FirmwareAnnouncement | undefined {
  const short = shortFirmwareAnnouncementSchema.safeParse(value);
  if (!short.success || (value as Record<string, unknown>).size !== undefined) return undefined;
  try {
    const { manifest } = readSignedFirmwareManifest(short.data.signedManifest);
    return {
      size: manifest.imageSize,
      sha256: hexToBytes(manifest.imageSha256),
      version: manifest.version,
      deviceType: manifest.deviceType,
      signedManifest: short.data.signedManifest,
      ...(short.data.coding === undefined ? {} : { coding: short.data.coding }),
    };
  } catch (error) {
    if (error instanceof FileFormatError) throw new DeviceError(DEVICE_ERROR.fwBadSignature, error.message);
    throw error;
  }
}

function parseAnnouncement(payload: Uint8Array, device: DeviceContext): FirmwareAnnouncement {
  let value: unknown;
  try {
    value = decodeCbor(payload);
  } catch {
    throw new DeviceError(DEVICE_ERROR.badRequest, 'The announcement is not CBOR.');
  }
  const short = takesAnnounceExtensions(device) ? fromManifest(value) : undefined;
  if (short) return short;
  const parsed = firmwareAnnouncementSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DeviceError(
      DEVICE_ERROR.badRequest,
      `The announcement needs ${ANNOUNCEMENT_FIELDS}; ${issue?.path.join('.') || 'the payload'}: ${issue?.message ?? 'invalid'}.`,
    );
  }
  return parsed.data;
}

/**
 * The announce each device is deciding, if any. A device that says `blocksBehindAnnounce` handles
 * PUT /fw/data only once the announce before it is decided, as a device whose main loop takes one
 * request at a time does; the simulator takes requests as they come, so the blocks wait here.
 */
const deciding = new WeakMap<DeviceContext['firmware'], Promise<unknown>>();

/** Resolves once the announce `device` is deciding (if any) is decided, whatever its answer. */
export async function afterAnnounce(device: DeviceContext): Promise<void> {
  await deciding.get(device.firmware)?.catch(() => undefined);
}

export const firmwareResource: Resource = {
  path: RESOURCE.firmware,
  linkAttributes: ';rt="provisioner.fw";ct=60;obs',
  methods: {
    GET: async (_request, device) => firmwareStatusResponse(device),
    POST: async (request, device) => {
      const announced = device.firmware.announce(parseAnnouncement(request.message.payload, device));
      deciding.set(device.firmware, announced);
      try {
        return cborResponse(CODE.CREATED, await announced);
      } finally {
        if (deciding.get(device.firmware) === announced) deciding.delete(device.firmware);
      }
    },
  },
};
