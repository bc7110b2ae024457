import { FileFormatError } from '../../../domain/files/file-error';
import { parseFirmwareImageHeader } from '../../../domain/files/firmware-image';
import { checkFirmwareManifest, readSignedFirmwareManifest } from '../../../domain/files/firmware-manifest';
import { sha256 } from '../../../domain/files/config-file';
import { encodeCbor } from '../../../domain/files/cbor';
import { uploadBlock1 } from '../coap/block1';
import { contentFormatOption, largestBlockSizeAtMost } from '../../../protocol/coap/codec';
import { observe } from '../coap/observe';
import { CODE } from '../../../protocol/coap/parameters';
import { abortReason, DeviceError, DeviceVerificationError } from '../errors';
import { CONTENT_FORMAT_CBOR, DEVICE_ERROR, MAX_BLOCK_SIZE, MAX_IN_FLIGHT_LIMIT } from '../../../protocol/constants';
import type { DeviceSession } from '../session';
import { RateMeter } from '../util/rate-meter';
import { identify } from './identify';
import { isLinkLoss } from './link-loss';
import { announceResponseSchema, firmwareStatusSchema, parsePayload, type DeviceInfo, type FirmwareStatus } from './payloads';
import { waitForDevice, waitForReboot } from './wait-for-device';

export interface UploadProgress {
  /** Bytes the device has acknowledged without a gap. */
  bytes: number;
  total: number;
  /** Bytes per second over the last two seconds. */
  rate: number;
}

export interface FirmwareUploadOptions {
  version: string;
  deviceType: string;
  /**
   * The signed firmware manifest of the image (docs/device-protocol.md 8.3), sent with the announce:
   * a device checks its signature before it takes a block.
   */
  signedManifest: Uint8Array;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** Largest block to use; default the largest the device takes (up to 1024). */
  blockSize?: number;
  /** Most blocks in flight; default the device's maxInFlight (up to 16). */
  window?: number;
  /** How often to reconnect and resume after the link drops or the device stops answering. Default 3. */
  maxResumes?: number;
}

export interface FirmwareUploadResult {
  sha256: Uint8Array;
  /** The offset the device gave at each announce: [0] fresh, [0, 37888] resumed once. */
  announcedOffsets: number[];
  blockSize: number;
  window: number;
}

/**
 * Announces the image (POST /fw) and uploads it (PUT /fw/data, Block1 with several blocks in
 * flight) from the offset the device acknowledges; after a disconnect or a stall it reconnects,
 * announces again and resumes from the device's offset. Resolves once the device has verified the
 * whole image (state `received`); applyFirmware() then installs it.
 */
export async function uploadFirmware(session: DeviceSession, image: Uint8Array, options: FirmwareUploadOptions): Promise<FirmwareUploadResult> {
  const header = parseFirmwareImageHeader(image);
  if (header.deviceType !== options.deviceType) {
    throw new FileFormatError(DEVICE_ERROR.fwWrongType, `The image is built for ${header.deviceType} devices, not ${options.deviceType}.`);
  }
  if (header.version !== options.version) {
    throw new FileFormatError(DEVICE_ERROR.fwBadHeader, `The image's header says version ${header.version}, not ${options.version}.`);
  }
  const digest = sha256(image);
  // A manifest for other bytes would only be refused by the device: say so before touching it.
  checkFirmwareManifest(readSignedFirmwareManifest(options.signedManifest).manifest, {
    image: { size: image.length, sha256: Buffer.from(digest).toString('hex'), deviceType: header.deviceType, version: header.version },
  });
  const announcedOffsets: number[] = [];
  const meter = new RateMeter();
  const maxResumes = options.maxResumes ?? 3;
  for (let attempt = 0; ; attempt++) {
    try {
      const info = attempt === 0 ? await identify(session, { signal: options.signal }) : await waitForDevice(session, { step: 'firmware upload resume', signal: options.signal });
      if (info.deviceType !== options.deviceType) {
        throw new DeviceVerificationError(DEVICE_ERROR.fwWrongType, session.context('firmware announce'), `is a ${info.deviceType}; this firmware is for ${options.deviceType} devices`);
      }
      const announced = await session.engine.request({
        method: CODE.POST,
        path: 'fw',
        options: [contentFormatOption(CONTENT_FORMAT_CBOR)],
        payload: encodeCbor({ size: image.length, sha256: digest, version: options.version, deviceType: options.deviceType, signedManifest: options.signedManifest }),
        step: 'firmware announce',
        signal: options.signal,
      });
      const { offset: deviceOffset, blockSize: deviceBlockSize } = parsePayload(announceResponseSchema, announced, session.context('firmware announce'));
      announcedOffsets.push(deviceOffset);
      const blockSize = largestBlockSizeAtMost(Math.min(info.maxBlockSize, deviceBlockSize, MAX_BLOCK_SIZE, options.blockSize ?? MAX_BLOCK_SIZE));
      const window = Math.max(1, Math.min(info.maxInFlight, MAX_IN_FLIGHT_LIMIT, options.window ?? MAX_IN_FLIGHT_LIMIT));
      const report = (bytes: number) => options.onProgress?.({ bytes, total: image.length, rate: meter.record(bytes) });
      if (deviceOffset > image.length) {
        throw new DeviceVerificationError('FW_BAD_OFFSET', session.context('firmware announce'), `offered to resume at ${deviceOffset}, beyond the ${image.length}-byte image`);
      }
      report(deviceOffset);
      if (deviceOffset < image.length) {
        // The protocol rounds the offset to the device's block size; a smaller host block divides it.
        const startOffset = deviceOffset - (deviceOffset % blockSize);
        const result = await uploadBlock1(session.engine, {
          path: 'fw/data',
          data: image,
          startOffset,
          blockSize,
          window,
          what: 'firmware',
          signal: options.signal,
          onProgress: report,
          qBlock1: info.qBlock1 === true,
        });
        report(image.length);
        return { sha256: digest, announcedOffsets, blockSize: result.blockSize, window };
      }
      return { sha256: digest, announcedOffsets, blockSize, window };
    } catch (error) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      if (!isLinkLoss(error) || attempt >= maxResumes) throw error;
    }
  }
}

export interface ApplyFirmwareOptions {
  /** The version the device must report after its reboot. */
  version: string;
  signal?: AbortSignal;
  /** How long the device may take to come back. Default the session's reconnect timeout. */
  timeoutMs?: number;
}

/**
 * POST /fw/apply, wait for the reboot (link drops and comes back, new bootId), and check that the
 * device runs `version`. A device that answered nothing because it was already rebooting is judged
 * by what it runs when it is back.
 */
export async function applyFirmware(session: DeviceSession, options: ApplyFirmwareOptions): Promise<DeviceInfo> {
  const step = 'firmware apply';
  const before = await identify(session, { signal: options.signal });
  const check = (after: DeviceInfo) => {
    if (after.firmwareVersion !== options.version) {
      throw new DeviceVerificationError('FW_APPLY_FAILED', session.context(step), `came back running ${after.firmwareVersion}, not ${options.version}`);
    }
    return after;
  };
  try {
    await session.engine.request({ method: CODE.POST, path: 'fw/apply', step, signal: options.signal });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (error instanceof DeviceError && error.code === DEVICE_ERROR.fwNotAnnounced) {
      // A retransmission that reached the device after it rebooted into the new image finds nothing staged.
      const now = await identify(session, { signal: options.signal }).catch(() => undefined);
      if (now === undefined || now.bootId === before.bootId) throw error;
      return check(now);
    }
    if (!isLinkLoss(error)) throw error;
  }
  return check(await waitForReboot(session, { previousBootId: before.bootId, step, timeoutMs: options.timeoutMs, signal: options.signal }));
}

/** GET /fw. */
export async function readFirmwareStatus(session: DeviceSession, signal?: AbortSignal): Promise<FirmwareStatus> {
  const response = await session.engine.request({ method: CODE.GET, path: 'fw', step: 'firmware status request', signal });
  return parsePayload(firmwareStatusSchema, response, session.context('firmware status request'));
}

/**
 * Observes GET /fw: the current status, then every change the device notifies, until the signal
 * aborts, the iteration is left, or the link drops (a rebooting device forgets its observers).
 */
export async function* observeFirmwareStatus(session: DeviceSession, signal?: AbortSignal): AsyncGenerator<FirmwareStatus> {
  const step = 'firmware status observation';
  const observation = await observe(session.engine, { path: 'fw', step, signal });
  try {
    for await (const response of observation) {
      yield parsePayload(firmwareStatusSchema, response, session.context(step));
    }
  } finally {
    await observation.cancel();
  }
}
