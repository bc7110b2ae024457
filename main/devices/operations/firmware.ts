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
import {
  CONTENT_FORMAT_CBOR,
  DEVICE_ERROR,
  DEVICE_ERROR_CODING,
  MAX_BLOCK_SIZE,
  MAX_IN_FLIGHT_LIMIT,
} from '../../../protocol/constants';
import type { ContentCoding, PrecodedStream } from '../../../domain/files/content-coding';
import { wireImageFor, type CodingPreference, type FirmwarePatchOffer, type WireImage } from './firmware-coding';
import type { DeviceSession } from '../session';
import { identify } from './identify';
import { isLinkLoss } from './link-loss';
import {
  announceResponseSchema,
  firmwareStatusSchema,
  decodeResponse,
  type DeviceInfo,
  type FirmwareStatus,
} from './payloads';
import { waitForDevice, waitForReboot } from './wait-for-device';

export interface UploadProgress {
  /** Image bytes the device has (for a coded upload: its share of the coded bytes acknowledged). */
  bytes: number;
  total: number;
  /** How the image travels, and its coded length (equal to `total` for identity). */
  coding?: ContentCoding;
  wireTotal?: number;
  /**
   * True on the figure where an announce put the upload: 0 for a fresh start, the device's offset
   * for a resume. Only these say where an upload resumed; the other figures only grow.
   */
  announced?: boolean;
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
  /** Patches to this image from images a device may run: used when the device runs one's base. */
  patches?: readonly FirmwarePatchOffer[];
  /** Default 'auto', the best coding both sides have; 'identity' sends the image as it is. */
  coding?: CodingPreference;
  /**
   * The image deflated ahead of time (the firmware cache keeps a zopfli stream of each image): sent
   * to a device that takes deflate with a window this large. Absent: zlib deflates it now.
   */
  deflated?: PrecodedStream;
  /**
   * What GET /info answered on this session just before (a job identifies the device when it opens
   * it): the upload then starts with the announce instead of asking again, one round trip and the
   * answer's few hundred bytes less. A reading that has gone stale costs nothing unsafe: the device
   * checks the announce against what it is and runs (a patch for another base is refused, and the
   * full image goes). Resumes after a reconnect always ask again.
   */
  info?: DeviceInfo;
}

export interface FirmwareUploadResult {
  sha256: Uint8Array;
  /** The offset the device gave at each announce: [0] fresh, [0, 37888] resumed once. */
  announcedOffsets: number[];
  blockSize: number;
  window: number;
  /** How the image went, and its bytes on the wire (the last attempt's). */
  coding: ContentCoding;
  wireBytes: number;
  /** What the host decided on its own, e.g. the full image after a patch's base did not match. */
  notes: string[];
}

/**
 * Announces the image (POST /fw) and uploads it (PUT /fw/data, Block1 with several blocks in
 * flight) from the offset the device acknowledges; after a disconnect or a stall it reconnects,
 * announces again and resumes from the device's offset. Resolves once the device has verified the
 * whole image (state `received`); applyFirmware() then installs it.
 */
export async function uploadFirmware(
  session: DeviceSession,
  image: Uint8Array,
  options: FirmwareUploadOptions,
): Promise<FirmwareUploadResult> {
  const header = parseFirmwareImageHeader(image);
  if (header.deviceType !== options.deviceType) {
    throw new FileFormatError(
      DEVICE_ERROR.fwWrongType,
      `The image is built for ${header.deviceType} devices, not ${options.deviceType}.`,
    );
  }
  if (header.version !== options.version) {
    throw new FileFormatError(
      DEVICE_ERROR.fwBadHeader,
      `The image's header says version ${header.version}, not ${options.version}.`,
    );
  }
  const digest = sha256(image);
  // A manifest for other bytes would only be refused by the device: say so before touching it.
  checkFirmwareManifest(readSignedFirmwareManifest(options.signedManifest).manifest, {
    image: {
      size: image.length,
      sha256: Buffer.from(digest).toString('hex'),
      deviceType: header.deviceType,
      version: header.version,
    },
  });
  const announcedOffsets: number[] = [];
  const notes: string[] = [];
  /** Codings the device refused during this upload: not offered again. */
  const excluded = new Set<ContentCoding>();
  /** The coding of the stream being sent: a patch the device could not use is dropped, not fatal. */
  let sending: ContentCoding | undefined;
  const maxResumes = options.maxResumes ?? 3;
  /** Coded bytes acknowledged, shown as the share of the image they carry. */
  const reporter = (wire: WireImage) => (acknowledged: number, announced?: 'announced') => {
    const bytes =
      acknowledged >= wire.bytes.length ? image.length : Math.floor((acknowledged / wire.bytes.length) * image.length);
    options.onProgress?.({
      bytes,
      total: image.length,
      coding: wire.coding,
      wireTotal: wire.bytes.length,
      ...(announced ? { announced: true } : {}),
    });
  };
  const windowFor = (info: DeviceInfo) =>
    Math.max(1, Math.min(info.maxInFlight, MAX_IN_FLIGHT_LIMIT, options.window ?? MAX_IN_FLIGHT_LIMIT));
  /** The blocks go behind the announce once per upload at most; after a give-way, as before. */
  let triedBehindAnnounce = false;
  for (let attempt = 0; ; attempt++) {
    try {
      const info =
        attempt === 0
          ? (fresh(session, options.info) ?? (await identify(session, { signal: options.signal })))
          : await waitForDevice(session, { step: 'firmware upload resume', signal: options.signal });
      if (info.deviceType !== options.deviceType) {
        throw new DeviceVerificationError(
          DEVICE_ERROR.fwWrongType,
          session.context('firmware announce'),
          `is a ${info.deviceType}; this firmware is for ${options.deviceType} devices`,
        );
      }
      if (attempt === 0 && !triedBehindAnnounce && takesBlocksBehindAnnounce(session, info)) {
        triedBehindAnnounce = true;
        const wire = wireImageFor(image, info, {
          patches: options.patches,
          deflated: options.deflated,
          preference: options.coding,
          excluded,
        });
        sending = wire.coding;
        const blockSize = largestBlockSizeAtMost(
          Math.min(info.maxBlockSize, MAX_BLOCK_SIZE, options.blockSize ?? MAX_BLOCK_SIZE),
        );
        const report = reporter(wire);
        // Sent as a fresh start; an announce answered otherwise is made again below, with its offset.
        report(0, 'announced');
        const sent = await uploadBehindAnnounce(session, announcement(image, digest, info, options, wire), wire, {
          blockSize,
          window: windowFor(info),
          signal: options.signal,
          onProgress: report,
          onFreshStart: () => announcedOffsets.push(0),
        });
        if (sent !== undefined) {
          report(wire.bytes.length);
          return {
            sha256: digest,
            announcedOffsets,
            blockSize: sent.blockSize,
            window: windowFor(info),
            coding: wire.coding,
            wireBytes: wire.bytes.length,
            notes,
          };
        }
        // The announce was refused or answered other than a fresh start: announced again below,
        // which names the refusal or resumes from the device's offset.
      }
      const { wire, deviceOffset, deviceBlockSize } = await announceCoded(
        session,
        image,
        digest,
        info,
        options,
        excluded,
        notes,
      );
      announcedOffsets.push(deviceOffset);
      sending = wire.coding;
      const blockSize = largestBlockSizeAtMost(
        Math.min(info.maxBlockSize, deviceBlockSize, MAX_BLOCK_SIZE, options.blockSize ?? MAX_BLOCK_SIZE),
      );
      const window = windowFor(info);
      const data = wire.bytes;
      const report = reporter(wire);
      const done = (size: number): FirmwareUploadResult => ({
        sha256: digest,
        announcedOffsets,
        blockSize: size,
        window,
        coding: wire.coding,
        wireBytes: data.length,
        notes,
      });
      if (deviceOffset > data.length) {
        throw new DeviceVerificationError(
          'FW_BAD_OFFSET',
          session.context('firmware announce'),
          `offered to resume at ${deviceOffset}, beyond the ${data.length}-byte ${wire.coding} stream`,
        );
      }
      report(deviceOffset, 'announced');
      if (deviceOffset < data.length) {
        // The protocol rounds the offset to the device's block size; a smaller host block divides it.
        const startOffset = deviceOffset - (deviceOffset % blockSize);
        const result = await uploadBlock1(session.engine, {
          path: 'fw/data',
          data,
          startOffset,
          blockSize,
          window,
          what: wire.coding === 'identity' ? 'firmware' : `firmware (${wire.coding})`,
          signal: options.signal,
          onProgress: report,
          qBlock1: info.qBlock1 === true,
          qBlock1MaxPayloads: info.qBlock1MaxPayloads,
        });
        report(data.length);
        return done(result.blockSize);
      }
      return done(blockSize);
    } catch (error) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      const patchFailed =
        error instanceof DeviceError &&
        sending === 'delta' &&
        (error.code === DEVICE_ERROR_CODING.baseMismatch ||
          error.code === DEVICE_ERROR_CODING.codingCorrupt ||
          error.code === DEVICE_ERROR.fwHashMismatch);
      if (patchFailed && !excluded.has('delta')) {
        // The patch named another base than the device runs (a stale offer), or did not build the
        // signed image (patches carry no signature of their own): the device discarded it and the
        // full image goes instead, from its first byte.
        excluded.add('delta');
        const device = session.info?.serialNumber ?? 'The device';
        notes.push(
          error.code === DEVICE_ERROR_CODING.baseMismatch
            ? `${device} does not run the image the patch applies to; the full image was sent instead.`
            : `The patch did not build the signed image on ${device} (${error.code}); the full image was sent instead.`,
        );
        attempt--;
        continue;
      }
      if (!isLinkLoss(error) || attempt >= maxResumes) throw error;
    }
  }
}

/** The caller's /info reading when it is of the device this session speaks to, else undefined. */
function fresh(session: DeviceSession, info: DeviceInfo | undefined): DeviceInfo | undefined {
  if (info === undefined || session.info === undefined) return undefined;
  return info.serialNumber === session.info.serialNumber && info.bootId === session.info.bootId ? info : undefined;
}

/**
 * The announce's payload (docs/device-protocol.md 3.3): the short one, the signed manifest and the
 * coding, to a device that says it reads the rest from the manifest; else the full one, whose plain
 * fields repeat the manifest's.
 */
function announcement(
  image: Uint8Array,
  digest: Uint8Array,
  info: DeviceInfo,
  options: FirmwareUploadOptions,
  wire: WireImage,
): Record<string, unknown> {
  const coding = wire.announced === undefined ? {} : { coding: wire.announced };
  if (info.manifestAnnounce === true) return { signedManifest: options.signedManifest, ...coding };
  return {
    size: image.length,
    sha256: digest,
    version: options.version,
    deviceType: options.deviceType,
    signedManifest: options.signedManifest,
    ...coding,
  };
}

/**
 * Whether the first blocks may go right behind the announce, before its answer, so that the
 * device's work on the announce (the signature check, two fsyncs) overlaps their time on the line:
 * only to a device that says it handles them after the announce is decided (`blocksBehindAnnounce`),
 * that has nothing staged (so a fresh start at offset 0 is the only answer that keeps them), on a
 * serial or BLE link (UDP's round trip is 2 ms, and its payload sets are hundreds of blocks).
 */
function takesBlocksBehindAnnounce(session: DeviceSession, info: DeviceInfo): boolean {
  return (
    info.blocksBehindAnnounce === true &&
    (info.state === 'idle' || info.state === 'failed') &&
    session.engine.link.kind !== 'udp'
  );
}

/**
 * POST /fw and, without waiting for its answer, the first window of PUT /fw/data. Resolves with
 * the upload's result when the device started afresh at offset 0 and took every block; undefined
 * when the announce was refused or answered another offset or block size, or the device took a
 * block as not announced: the blocks in flight are then abandoned (the device keeps nothing of a
 * refused announce, and a block it refused changed nothing) and the caller announces again as
 * before. Other errors of the blocks (a lost link, a corrupt stream) are the upload's.
 */
async function uploadBehindAnnounce(
  session: DeviceSession,
  payload: Record<string, unknown>,
  wire: WireImage,
  upload: {
    blockSize: number;
    window: number;
    signal: AbortSignal | undefined;
    onProgress: (acknowledged: number) => void;
    onFreshStart: () => void;
  },
): Promise<{ blockSize: number } | undefined> {
  const early = new AbortController();
  const abandon = () => early.abort(upload.signal?.reason);
  upload.signal?.addEventListener('abort', abandon, { once: true });
  try {
    const announced = session.engine.request({
      method: CODE.POST,
      path: 'fw',
      options: [contentFormatOption(CONTENT_FORMAT_CBOR)],
      payload: encodeCbor(payload),
      step: 'firmware announce',
      signal: upload.signal,
    });
    const blocks = uploadBlock1(session.engine, {
      path: 'fw/data',
      data: wire.bytes,
      startOffset: 0,
      blockSize: upload.blockSize,
      window: upload.window,
      what: wire.coding === 'identity' ? 'firmware' : `firmware (${wire.coding})`,
      signal: early.signal,
      onProgress: upload.onProgress,
    });
    // Observed below; a rejection before then must not go unhandled.
    blocks.catch(() => undefined);
    try {
      const answer = decodeResponse(announceResponseSchema, await announced, session.context('firmware announce'));
      if (answer.offset !== 0 || answer.blockSize < upload.blockSize) throw new Error('not a fresh start');
      upload.onFreshStart();
    } catch (error) {
      early.abort(error);
      await blocks.catch(() => undefined);
      if (upload.signal?.aborted) throw abortReason(upload.signal);
      return undefined;
    }
    try {
      return { blockSize: (await blocks).blockSize };
    } catch (error) {
      if (error instanceof DeviceError && error.code === DEVICE_ERROR.fwNotAnnounced) return undefined;
      throw error;
    }
  } finally {
    upload.signal?.removeEventListener('abort', abandon);
  }
}

/**
 * POST /fw with the best coding the device takes. A patch whose base the device no longer runs
 * (FW_BASE_MISMATCH), or a coding it refuses, is dropped with a note and the announce repeated with
 * the next best, down to identity: the image gets there whole in any case.
 */
async function announceCoded(
  session: DeviceSession,
  image: Uint8Array,
  digest: Uint8Array,
  info: DeviceInfo,
  options: FirmwareUploadOptions,
  excluded: Set<ContentCoding>,
  notes: string[],
): Promise<{ wire: WireImage; deviceOffset: number; deviceBlockSize: number }> {
  let preference = options.coding;
  for (;;) {
    const wire = wireImageFor(image, info, {
      patches: options.patches,
      deflated: options.deflated,
      preference,
      excluded,
    });
    try {
      const announced = await session.engine.request({
        method: CODE.POST,
        path: 'fw',
        options: [contentFormatOption(CONTENT_FORMAT_CBOR)],
        payload: encodeCbor(announcement(image, digest, info, options, wire)),
        step: 'firmware announce',
        signal: options.signal,
      });
      const { offset, blockSize } = decodeResponse(
        announceResponseSchema,
        announced,
        session.context('firmware announce'),
      );
      return { wire, deviceOffset: offset, deviceBlockSize: blockSize };
    } catch (error) {
      const refused =
        error instanceof DeviceError &&
        (error.code === DEVICE_ERROR_CODING.baseMismatch || error.code === DEVICE_ERROR_CODING.codingUnsupported);
      if (!refused || wire.coding === 'identity') throw error;
      excluded.add(wire.coding);
      // A coding asked for by name gives way to the best of the rest.
      preference = 'auto';
      const device = session.info?.serialNumber ?? 'The device';
      notes.push(
        error.code === DEVICE_ERROR_CODING.baseMismatch
          ? `${device} does not run the image the patch applies to; the full image was sent instead.`
          : `${device} refused ${wire.coding}; the image was sent without it.`,
      );
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
      throw new DeviceVerificationError(
        'FW_APPLY_FAILED',
        session.context(step),
        `came back running ${after.firmwareVersion}, not ${options.version}`,
      );
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
  return check(
    await waitForReboot(session, {
      previousBootId: before.bootId,
      step,
      timeoutMs: options.timeoutMs,
      signal: options.signal,
    }),
  );
}

/** GET /fw. */
export async function readFirmwareStatus(session: DeviceSession, signal?: AbortSignal): Promise<FirmwareStatus> {
  const response = await session.engine.request({
    method: CODE.GET,
    path: 'fw',
    step: 'firmware status request',
    signal,
  });
  return decodeResponse(firmwareStatusSchema, response, session.context('firmware status request'));
}

/**
 * Observes GET /fw: the current status, then every change the device notifies, until the signal
 * aborts, the iteration is left, or the link drops (a rebooting device forgets its observers).
 */
export async function* observeFirmwareStatus(
  session: DeviceSession,
  signal?: AbortSignal,
): AsyncGenerator<FirmwareStatus> {
  const step = 'firmware status observation';
  const observation = await observe(session.engine, { path: 'fw', step, signal });
  try {
    for await (const response of observation) {
      yield decodeResponse(firmwareStatusSchema, response, session.context(step));
    }
  } finally {
    await observation.cancel();
  }
}
