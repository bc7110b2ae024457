import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AdvertisedCoding } from '../../domain/files/content-coding';
import { FileFormatError } from '../../domain/files/file-error';
import {
  FIRMWARE_IMAGE_HEADER_SIZE,
  parseFirmwareImageHeader,
  type FirmwareImageHeader,
} from '../../domain/files/firmware-image';
import {
  checkFirmwareManifest,
  readSignedFirmwareManifest,
  verifySignedFirmwareManifest,
  type FirmwareManifest,
} from '../../domain/files/firmware-manifest';
import type { ReleaseKey } from '../../domain/files/firmware-release-key';
import {
  DEVICE_ERROR,
  DEVICE_ERROR_CODING,
  DEVICE_ERROR_RESPONSE_CODE,
  type AnyDeviceErrorCode,
  type FirmwareState,
} from '../../protocol/constants';
import { writeFileAtomic } from '../../platform/durable-file';
import { bytesToHex, hexToBytes } from '../hex';
import type { FlashModel } from '../wire/flash';
import { busyError } from './busy';
import { CodedStream } from './coded-stream';
import { DeviceError } from './errors';
import { ReceivedRanges } from './received-ranges';
import type { AnnounceResponse, AnnouncedCoding, FirmwareAnnouncement, FirmwareStatus } from '../../protocol/payloads';
import { StagedImage } from './staged-image';
import type { PersistedCoding, PersistedUpload, StateStore } from './state';

/** The running slot: the image the device boots, which a patch reads as its base. */
export const RUNNING_IMAGE_FILE = 'running.bin';

export interface FirmwareUpdateOptions {
  store: StateStore;
  deviceType: string;
  /** The release keys provisioned at manufacture: the only signers whose images the device takes. */
  releaseKeys: readonly ReleaseKey[];
  /** The device's maxBlockSize: the block size it offers, and with maxInFlight its receive window. */
  blockSize: number;
  maxInFlight: number;
  maxImageSize: number;
  /** The content codings the device decodes besides identity (GET /info `codings`). */
  codings: readonly AdvertisedCoding[];
  flash: FlashModel;
  /** Called on every change; `stateChanged` when the state (not only the byte count) moved. */
  onChange(stateChanged: boolean): void;
}

/** The 2.04 payload of the block that completes an upload. */
export interface UploadComplete {
  received: number;
  sha256: Uint8Array;
}

/**
 * The firmware update state machine (docs/device-protocol.md 3.3 to 3.6): announce (only with a
 * manifest signed by a provisioned release key), offset-addressed blocks into the staged bank within
 * the receive window, verification (header, size, SHA-256) and what survives a reboot. An image
 * never counts as received unless every byte is stored and its hash matches the signed one.
 */
export class FirmwareUpdate {
  private readonly staged: StagedImage;
  private ranges: ReceivedRanges;
  /** States that exist only while the device is running (a reboot ends them). */
  private transient: Extract<FirmwareState, 'verifying' | 'applying'> | null = null;
  /** A coded upload's decoder: RAM only, so a reboot loses it and the stream starts again. */
  private coded: CodedStream | null = null;
  /** Coded blocks that arrived ahead of a gap, by offset; decoding is strictly in order. */
  private codedAhead = new Map<number, Uint8Array>();
  /** Coded blocks are decoded one request at a time. */
  private codedChain: Promise<unknown> = Promise.resolve();
  private readonly runningPath: string;
  private runningSha256: string | null;
  /** The most memory a finished coded upload's decoder held (window, blocks, their output). */
  private peakOfFinished = 0;

  constructor(private readonly options: FirmwareUpdateOptions) {
    this.staged = new StagedImage(options.store.stagedImagePath);
    this.runningPath = join(dirname(options.store.stagedImagePath), RUNNING_IMAGE_FILE);
    this.runningSha256 = hashOfFile(this.runningPath);
    this.ranges = new ReceivedRanges(this.upload?.ackedOffset ?? 0);
  }

  /** The most memory any coded upload's decoder has held since the device started. */
  get decoderPeakBytes(): number {
    return Math.max(this.peakOfFinished, this.coded?.peakBytes ?? 0);
  }

  /** What GET /info advertises. */
  get codings(): readonly AdvertisedCoding[] {
    return this.options.codings;
  }

  /** Hex SHA-256 of the running image; null for a device that has not been updated since it was made. */
  get runningImageSha256(): string | null {
    return this.runningSha256;
  }

  private get upload(): PersistedUpload | null {
    return this.options.store.current.upload;
  }

  status(): FirmwareStatus {
    const upload = this.upload;
    if (upload === null)
      return { state: this.transient ?? 'idle', size: null, received: 0, sha256: null, version: null, error: null };
    return {
      state: this.transient ?? upload.state,
      size: upload.size,
      received:
        upload.coding === undefined
          ? upload.ackedOffset
          : upload.state === 'received'
            ? upload.size
            : upload.coding.decoded,
      sha256: hexToBytes(upload.sha256),
      version: upload.version,
      error: upload.error,
      ...(upload.coding === undefined ? {} : { coding: upload.coding.name, wireReceived: upload.ackedOffset }),
    };
  }

  /**
   * POST /fw: where the host starts sending. Nothing is erased or stored until the signed manifest
   * has verified with a provisioned, unretired key and names this type and a counter not below the
   * floor (docs/device-protocol.md 3.3).
   */
  async announce(announcement: FirmwareAnnouncement): Promise<AnnounceResponse> {
    const { size, version, deviceType } = announcement;
    const sha256 = bytesToHex(announcement.sha256);
    this.refuseWhileBusy();
    if (announcement.signedManifest === undefined) {
      throw new DeviceError(
        DEVICE_ERROR.fwUnsigned,
        'The announcement carries no signed firmware manifest; this device takes only signed firmware.',
      );
    }
    const manifest = this.checkSignedManifest(announcement.signedManifest);
    if (
      manifest.imageSize !== size ||
      manifest.imageSha256 !== sha256 ||
      manifest.version !== version ||
      manifest.deviceType !== deviceType
    ) {
      throw new DeviceError(
        DEVICE_ERROR.badRequest,
        'The announced size, sha256, version or deviceType differ from the signed manifest.',
      );
    }
    if (size < FIRMWARE_IMAGE_HEADER_SIZE) {
      throw new DeviceError(
        DEVICE_ERROR.badRequest,
        `The image is ${size} bytes, smaller than the ${FIRMWARE_IMAGE_HEADER_SIZE}-byte image header.`,
      );
    }
    if (size > this.options.maxImageSize) {
      throw new DeviceError(
        DEVICE_ERROR.fwTooLarge,
        `The image is ${size} bytes; this device's image slot holds ${this.options.maxImageSize}.`,
        {
          maxSize: this.options.maxImageSize,
        },
      );
    }
    const coding = announcement.coding === undefined ? undefined : this.checkCoding(announcement.coding, size);
    const blockSize = this.options.blockSize;
    const current = this.upload;
    const signedManifest = bytesToHex(announcement.signedManifest);
    if (
      current !== null &&
      current.state !== 'failed' &&
      current.sha256 === sha256 &&
      current.size === size &&
      this.canResume(current, coding)
    ) {
      if (current.signedManifest !== signedManifest) {
        // The same image under another signature (re-signed by a newer key): the bytes stay, the newer manifest counts.
        current.signedManifest = signedManifest;
        await this.options.store.save();
      }
      // A resume. Rounded down to our block size, which every smaller block size divides.
      const end = current.coding?.size ?? size;
      const offset = current.state === 'received' ? end : Math.floor(current.ackedOffset / blockSize) * blockSize;
      return { offset, blockSize };
    }
    await this.staged.erase();
    this.ranges = new ReceivedRanges();
    this.startDecoder(coding, size);
    this.options.store.current.upload = {
      size,
      sha256,
      version,
      deviceType,
      signedManifest,
      ackedOffset: 0,
      state: 'receiving',
      error: null,
      ...(coding === undefined ? {} : { coding }),
    };
    await this.options.store.save();
    this.options.onChange(true);
    return { offset: 0, blockSize };
  }

  /**
   * PUT /fw/data: one block at `offset`. Returns the completion payload once every byte is in and
   * verified, 'continue' otherwise; throws DeviceError (refused block or failed upload).
   */
  async writeBlock(offset: number, bytes: Uint8Array, more: boolean): Promise<'continue' | UploadComplete> {
    const upload = this.upload;
    if (upload === null || upload.state === 'failed') {
      throw new DeviceError(
        DEVICE_ERROR.fwNotAnnounced,
        'No firmware upload is announced: POST /fw with size, sha256, version and deviceType first.',
      );
    }
    this.refuseWhileBusy();
    if (upload.state === 'received') return this.completion(upload);
    if (upload.coding !== undefined) return this.writeCodedBlock(upload, upload.coding, offset, bytes, more);
    const contiguous = this.ranges.contiguous;
    const end = this.refuseMisplacedBlock(offset, bytes.length, more, contiguous, upload.size, 'size');
    // A retransmission the message-id cache no longer remembers: answered again, not written again.
    if (this.ranges.has(offset, end)) return 'continue';
    await this.options.flash.write(bytes.length);
    await this.staged.write(offset, bytes);
    const grown = this.ranges.add(offset, end);
    if (contiguous < FIRMWARE_IMAGE_HEADER_SIZE && grown >= FIRMWARE_IMAGE_HEADER_SIZE)
      await this.checkHeaderEarly(upload);
    if (grown === contiguous) return 'continue';
    upload.ackedOffset = grown;
    if (grown < upload.size) {
      // Not awaited: the contiguous offset need only be durable before a power cut, and a power
      // cycle flushes pending saves before it "loses power".
      void this.options.store.save().catch(() => undefined);
      this.options.onChange(false);
      return 'continue';
    }
    await this.verifyStaged(upload);
    upload.state = 'received';
    await this.options.store.save();
    this.options.onChange(true);
    return this.completion(upload);
  }

  /**
   * POST /fw/apply, before the device answers: everything is checked again from the bank, the
   * signed manifest included (a key may have been retired since the announce).
   */
  async verifyForApply(): Promise<FirmwareImageHeader> {
    const upload = this.upload;
    if (upload === null) throw new DeviceError(DEVICE_ERROR.fwNotAnnounced, 'No firmware upload is announced.');
    this.refuseWhileBusy();
    if (upload.state !== 'received') {
      throw new DeviceError(
        DEVICE_ERROR.fwIncomplete,
        upload.state === 'failed'
          ? `The last upload failed (${upload.error ?? 'unknown'}); announce and send the image again.`
          : `Only ${upload.ackedOffset} of ${upload.size} bytes are in; send the rest first.`,
        { received: upload.ackedOffset },
      );
    }
    let manifest: FirmwareManifest;
    try {
      manifest = this.checkSignedManifest(hexToBytes(upload.signedManifest));
    } catch (error) {
      if (!(error instanceof DeviceError)) throw error;
      throw await this.fail(upload, error);
    }
    if (manifest.imageSha256 !== upload.sha256 || manifest.imageSize !== upload.size) {
      throw await this.fail(
        upload,
        new DeviceError(DEVICE_ERROR.fwBadSignature, 'The staged upload is not the image its signed manifest names.'),
      );
    }
    return this.verifyStaged(upload);
  }

  markApplying(): void {
    this.transient = 'applying';
    this.options.onChange(true);
  }

  /**
   * The new image runs: the staged bank is free again, the anti-rollback floor rises to the
   * image's counter and the keys its manifest retires are refused from now on.
   */
  async applied(header: FirmwareImageHeader): Promise<void> {
    const state = this.options.store.current;
    const upload = this.upload;
    if (upload !== null) {
      // verifyForApply checked it a moment ago; what it says now takes effect.
      const { manifest } = readSignedFirmwareManifest(hexToBytes(upload.signedManifest));
      state.securityCounter = Math.max(state.securityCounter, manifest.securityCounter);
      state.retiredReleaseKeyIds = [...new Set([...state.retiredReleaseKeyIds, ...manifest.retires])];
    }
    state.firmwareVersion = header.version;
    // The staged bank becomes the running slot: what a later patch reads as its base.
    const image = await this.staged.read(0, header.bodyLength + FIRMWARE_IMAGE_HEADER_SIZE);
    await writeFileAtomic(this.runningPath, image);
    this.runningSha256 = createHash('sha256').update(image).digest('hex');
    state.upload = null;
    this.dropDecoder();
    this.ranges = new ReceivedRanges();
    await this.options.store.save();
    await this.staged.erase();
  }

  /**
   * After a reboot or power cut: what was saved is what counts. An apply cut short leaves the
   * verified image `received` (the old bank still boots), so the host can apply it again.
   */
  async rebooted(): Promise<void> {
    this.transient = null;
    this.dropDecoder();
    const upload = this.upload;
    if (upload?.coding !== undefined && upload.state === 'receiving') {
      // The decoder's window was in RAM: the coded stream starts again from its first byte.
      upload.ackedOffset = 0;
      upload.coding.decoded = 0;
      await this.options.store.save();
    }
    this.ranges = new ReceivedRanges(this.upload?.ackedOffset ?? 0);
    await this.staged.close();
  }

  async close(): Promise<void> {
    await this.staged.close();
  }

  /** The announce's coding, if this device advertised it with at least that window; the base, if delta. */
  private checkCoding(announced: AnnouncedCoding, size: number): PersistedCoding {
    const advertised = this.options.codings.find((coding) => coding.name === announced.name);
    if (
      advertised === undefined ||
      advertised.windowBits === undefined ||
      announced.windowBits > advertised.windowBits
    ) {
      const offered =
        this.options.codings.map((c) => `${c.name} (window 2^${c.windowBits ?? '?'})`).join(', ') || 'identity only';
      throw new DeviceError(
        DEVICE_ERROR_CODING.codingUnsupported,
        `This device does not decode ${announced.name} with a 2^${announced.windowBits}-byte window; it decodes ${offered}.`,
        {
          codings: this.options.codings,
        },
      );
    }
    let baseSha256: string | null = null;
    if (announced.name === 'delta') {
      if (announced.baseSha256 === undefined)
        throw new DeviceError(
          DEVICE_ERROR.badRequest,
          'A delta announce needs "baseSha256", the image the patch applies to.',
        );
      baseSha256 = bytesToHex(announced.baseSha256);
      if (baseSha256 !== this.runningSha256) {
        throw new DeviceError(
          DEVICE_ERROR_CODING.baseMismatch,
          'The patch applies to another image than the one this device runs; send the full image.',
          {
            imageSha256: this.runningSha256,
          },
        );
      }
    }
    if (announced.size > Math.max(size * 2, size + 4096)) {
      throw new DeviceError(
        DEVICE_ERROR.badRequest,
        `A ${announced.size}-byte coded stream for a ${size}-byte image is not plausible.`,
      );
    }
    return { name: announced.name, size: announced.size, windowBits: announced.windowBits, baseSha256, decoded: 0 };
  }

  /**
   * A staged upload continues only as it was sent: the same coding, stream length and base, and for
   * a coded one only while its decoder is still in RAM (docs/device-protocol.md 3.3).
   */
  private canResume(current: PersistedUpload, coding: PersistedCoding | undefined): boolean {
    const was = current.coding;
    if (was === undefined || coding === undefined) return was === coding;
    if (
      was.name !== coding.name ||
      was.size !== coding.size ||
      was.windowBits !== coding.windowBits ||
      was.baseSha256 !== coding.baseSha256
    )
      return false;
    return current.state === 'received' || this.coded !== null;
  }

  private startDecoder(coding: PersistedCoding | undefined, imageSize: number): void {
    this.dropDecoder();
    if (coding === undefined) return;
    this.coded = new CodedStream({
      coding: coding.name,
      windowBits: coding.windowBits,
      imageSize,
      write: (offset, bytes) => this.staged.write(offset, bytes),
      readRunning: (offset, length) => readSlice(this.runningPath, offset, length),
      runningSha256: this.runningSha256,
      baseSha256: coding.baseSha256,
    });
  }

  private dropDecoder(): void {
    if (this.coded !== null) this.peakOfFinished = Math.max(this.peakOfFinished, this.coded.peakBytes);
    this.coded = null;
    this.codedAhead = new Map();
  }

  /**
   * Refuses a block outside the receive window (from `contiguous`, the bytes held without a gap)
   * or one that disagrees with the announced size; returns the offset where the block ends. Plain
   * and coded uploads count their own bytes, so each passes its own `contiguous` and size.
   */
  private refuseMisplacedBlock(
    offset: number,
    length: number,
    more: boolean,
    contiguous: number,
    size: number,
    sizeName: 'size' | 'coded size',
  ): number {
    const end = offset + length;
    const windowEnd = contiguous + this.options.maxInFlight * this.options.blockSize;
    if (offset >= size || offset >= windowEnd) {
      throw new DeviceError(
        DEVICE_ERROR.fwOutOfWindow,
        `A block at byte ${offset} is outside the receive window (${contiguous} to ${Math.min(windowEnd, size)}); continue from ${contiguous}.`,
        { offset: contiguous },
      );
    }
    if (end > size || (!more && end !== size)) {
      throw new DeviceError(
        DEVICE_ERROR.badRequest,
        `A block ending at byte ${end} disagrees with the announced ${sizeName} ${size}.`,
      );
    }
    return end;
  }

  /**
   * PUT /fw/data of a coded upload: offsets count coded bytes; blocks are decoded strictly in
   * order, those ahead of a gap wait (within the receive window) for it.
   */
  private writeCodedBlock(
    upload: PersistedUpload,
    coding: PersistedCoding,
    offset: number,
    bytes: Uint8Array,
    more: boolean,
  ): Promise<'continue' | UploadComplete> {
    const contiguous = upload.ackedOffset;
    const end = this.refuseMisplacedBlock(offset, bytes.length, more, contiguous, coding.size, 'coded size');
    if (this.coded === null) {
      throw new DeviceError(
        DEVICE_ERROR.fwNotAnnounced,
        'The coded upload was interrupted by a restart: announce it again (it starts from byte 0).',
      );
    }
    if (end <= contiguous) return Promise.resolve('continue');
    this.codedAhead.set(offset, bytes);
    const run = this.codedChain.then(() => this.decodeInOrder(upload, coding));
    this.codedChain = run.catch(() => undefined);
    return run;
  }

  private async decodeInOrder(upload: PersistedUpload, coding: PersistedCoding): Promise<'continue' | UploadComplete> {
    const stream = this.coded;
    if (stream === null || this.upload !== upload || upload.state !== 'receiving') {
      return upload.state === 'received' ? this.completion(upload) : 'continue';
    }
    const before = upload.ackedOffset;
    try {
      for (;;) {
        const at = upload.ackedOffset;
        const next = [...this.codedAhead].find(([start, bytes]) => start <= at && start + bytes.length > at);
        if (next === undefined) break;
        const [start, bytes] = next;
        this.codedAhead.delete(start);
        const held = [...this.codedAhead.values()].reduce((n, b) => n + b.length, 0);
        const decodedBefore = stream.decodedBytes;
        const end = start + bytes.length;
        await stream.push(bytes.subarray(at - start), end === coding.size, held);
        await this.options.flash.write(stream.decodedBytes - decodedBefore);
        upload.ackedOffset = end;
        coding.decoded = stream.decodedBytes;
        if (decodedBefore < FIRMWARE_IMAGE_HEADER_SIZE && coding.decoded >= FIRMWARE_IMAGE_HEADER_SIZE)
          await this.checkHeaderEarly(upload);
      }
    } catch (error) {
      // A check that failed the upload itself (the early header check) has already discarded it.
      if (!(error instanceof DeviceError) || (upload.state as PersistedUpload['state']) === 'failed') throw error;
      throw await this.fail(upload, error);
    }
    if (upload.ackedOffset === before) return 'continue';
    if (upload.ackedOffset < coding.size) {
      void this.options.store.save().catch(() => undefined);
      this.options.onChange(false);
      return 'continue';
    }
    this.dropDecoder();
    await this.verifyStaged(upload);
    upload.state = 'received';
    await this.options.store.save();
    this.options.onChange(true);
    return this.completion(upload);
  }

  private keyring() {
    return { keys: this.options.releaseKeys, retiredKeyIds: this.options.store.current.retiredReleaseKeyIds };
  }

  /** The manifest, once its signature, key, type and counter are all acceptable; a DeviceError otherwise. */
  private checkSignedManifest(signedManifest: Uint8Array): FirmwareManifest {
    try {
      const { manifest } = verifySignedFirmwareManifest(signedManifest, this.keyring());
      checkFirmwareManifest(manifest, {
        deviceType: this.options.deviceType,
        securityCounterFloor: this.options.store.current.securityCounter,
      });
      return manifest;
    } catch (error) {
      if (!(error instanceof FileFormatError) || !(error.code in DEVICE_ERROR_RESPONSE_CODE)) throw error;
      // The fields section 6 lists with these codes: what the device is, and its floor.
      const fields =
        error.code === DEVICE_ERROR.fwWrongType
          ? { deviceType: this.options.deviceType }
          : error.code === DEVICE_ERROR.fwRollback
            ? { securityCounter: this.options.store.current.securityCounter }
            : {};
      throw new DeviceError(error.code as AnyDeviceErrorCode, error.message, fields);
    }
  }

  private refuseWhileBusy(): void {
    if (this.transient !== null) throw busyError(`${this.transient} an image`, 1);
  }

  private completion(upload: PersistedUpload): UploadComplete {
    return { received: upload.size, sha256: hexToBytes(upload.sha256) };
  }

  private wrongType(what: string): DeviceError {
    return new DeviceError(DEVICE_ERROR.fwWrongType, `${what}; this device is a ${this.options.deviceType}.`, {
      deviceType: this.options.deviceType,
    });
  }

  /** Section 3.5: once the header is in, refuse an image for another type before storing the rest. */
  private async checkHeaderEarly(upload: PersistedUpload): Promise<void> {
    const header = await this.readHeader(upload);
    if (header.deviceType !== this.options.deviceType)
      throw await this.fail(upload, this.wrongType(`The image header says ${header.deviceType}`));
  }

  private async readHeader(upload: PersistedUpload): Promise<FirmwareImageHeader> {
    try {
      return parseFirmwareImageHeader(await this.staged.read(0, FIRMWARE_IMAGE_HEADER_SIZE));
    } catch (error) {
      throw await this.fail(upload, new DeviceError(DEVICE_ERROR.fwBadHeader, (error as Error).message));
    }
  }

  private async verifyStaged(upload: PersistedUpload): Promise<FirmwareImageHeader> {
    this.transient = 'verifying';
    this.options.onChange(true);
    try {
      const header = await this.readHeader(upload);
      if (header.deviceType !== this.options.deviceType)
        throw await this.fail(upload, this.wrongType(`The image header says ${header.deviceType}`));
      if (header.version !== upload.version || header.bodyLength + FIRMWARE_IMAGE_HEADER_SIZE !== upload.size) {
        const message = `The image header (version ${header.version}, ${header.bodyLength + FIRMWARE_IMAGE_HEADER_SIZE} bytes) does not match the announcement (version ${upload.version}, ${upload.size} bytes).`;
        throw await this.fail(upload, new DeviceError(DEVICE_ERROR.fwBadHeader, message));
      }
      if ((await this.staged.sha256(upload.size)) !== upload.sha256) {
        const message =
          'The stored image does not match the announced SHA-256; it was discarded. Announce and send it again.';
        throw await this.fail(upload, new DeviceError(DEVICE_ERROR.fwHashMismatch, message));
      }
      return header;
    } finally {
      this.transient = null;
    }
  }

  /** Marks the upload failed and discards the bank; returns the error for the caller to throw. */
  private async fail(upload: PersistedUpload, error: DeviceError): Promise<DeviceError> {
    upload.state = 'failed';
    upload.error = error.code as AnyDeviceErrorCode;
    upload.ackedOffset = 0;
    if (upload.coding !== undefined) upload.coding.decoded = 0;
    this.dropDecoder();
    this.ranges = new ReceivedRanges();
    this.transient = null;
    await this.staged.erase();
    await this.options.store.save();
    this.options.onChange(true);
    return error;
  }
}

function hashOfFile(path: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Reads a slice of the running slot, as a device reads its own flash. */
async function readSlice(path: string, offset: number, length: number): Promise<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const out = new Uint8Array(length);
    const { bytesRead } = await handle.read(out, 0, length, offset);
    return out.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
