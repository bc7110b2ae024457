import { FileFormatError } from '../../domain/files/file-error';
import { FIRMWARE_IMAGE_HEADER_SIZE, parseFirmwareImageHeader, type FirmwareImageHeader } from '../../domain/files/firmware-image';
import { checkFirmwareManifest, readSignedFirmwareManifest, verifySignedFirmwareManifest, type FirmwareManifest } from '../../domain/files/firmware-manifest';
import type { ReleaseKey } from '../../domain/files/firmware-release-key';
import { DEVICE_ERROR, DEVICE_ERROR_RESPONSE_CODE, type AnyDeviceErrorCode, type FirmwareState } from '../../protocol/constants';
import { bytesToHex, hexToBytes } from '../hex';
import type { FlashModel } from '../wire/flash';
import { busyError } from './busy';
import { DeviceError } from './errors';
import { ReceivedRanges } from './received-ranges';
import type { AnnounceResponse, FirmwareAnnouncement, FirmwareStatus } from '../../protocol/payloads';
import { StagedImage } from './staged-image';
import type { PersistedUpload, StateStore } from './state';

export interface FirmwareUpdateOptions {
  store: StateStore;
  deviceType: string;
  /** The release keys provisioned at manufacture: the only signers whose images the device takes. */
  releaseKeys: readonly ReleaseKey[];
  /** The device's maxBlockSize: the block size it offers, and with maxInFlight its receive window. */
  blockSize: number;
  maxInFlight: number;
  maxImageSize: number;
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

  constructor(private readonly options: FirmwareUpdateOptions) {
    this.staged = new StagedImage(options.store.stagedImagePath);
    this.ranges = new ReceivedRanges(this.upload?.ackedOffset ?? 0);
  }

  private get upload(): PersistedUpload | null {
    return this.options.store.current.upload;
  }

  status(): FirmwareStatus {
    const upload = this.upload;
    if (upload === null) return { state: this.transient ?? 'idle', size: null, received: 0, sha256: null, version: null, error: null };
    return {
      state: this.transient ?? upload.state,
      size: upload.size,
      received: upload.ackedOffset,
      sha256: hexToBytes(upload.sha256),
      version: upload.version,
      error: upload.error,
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
      throw new DeviceError(DEVICE_ERROR.fwUnsigned, 'The announcement carries no signed firmware manifest; this device takes only signed firmware.');
    }
    const manifest = this.checkSignedManifest(announcement.signedManifest);
    if (manifest.imageSize !== size || manifest.imageSha256 !== sha256 || manifest.version !== version || manifest.deviceType !== deviceType) {
      throw new DeviceError(DEVICE_ERROR.badRequest, 'The announced size, sha256, version or deviceType differ from the signed manifest.');
    }
    if (size < FIRMWARE_IMAGE_HEADER_SIZE) {
      throw new DeviceError(DEVICE_ERROR.badRequest, `The image is ${size} bytes, smaller than the ${FIRMWARE_IMAGE_HEADER_SIZE}-byte image header.`);
    }
    if (size > this.options.maxImageSize) {
      throw new DeviceError(DEVICE_ERROR.fwTooLarge, `The image is ${size} bytes; this device's image slot holds ${this.options.maxImageSize}.`, {
        maxSize: this.options.maxImageSize,
      });
    }
    const blockSize = this.options.blockSize;
    const current = this.upload;
    const signedManifest = bytesToHex(announcement.signedManifest);
    if (current !== null && current.state !== 'failed' && current.sha256 === sha256 && current.size === size) {
      if (current.signedManifest !== signedManifest) {
        // The same image under another signature (re-signed by a newer key): the bytes stay, the newer manifest counts.
        current.signedManifest = signedManifest;
        await this.options.store.save();
      }
      // A resume. Rounded down to our block size, which every smaller block size divides.
      const offset = current.state === 'received' ? size : Math.floor(current.ackedOffset / blockSize) * blockSize;
      return { offset, blockSize };
    }
    await this.staged.erase();
    this.ranges = new ReceivedRanges();
    this.options.store.current.upload = { size, sha256, version, deviceType, signedManifest, ackedOffset: 0, state: 'receiving', error: null };
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
      throw new DeviceError(DEVICE_ERROR.fwNotAnnounced, 'No firmware upload is announced: POST /fw with size, sha256, version and deviceType first.');
    }
    this.refuseWhileBusy();
    if (upload.state === 'received') return this.completion(upload);
    const end = offset + bytes.length;
    const contiguous = this.ranges.contiguous;
    const windowEnd = contiguous + this.options.maxInFlight * this.options.blockSize;
    if (offset >= upload.size || offset >= windowEnd) {
      throw new DeviceError(
        DEVICE_ERROR.fwOutOfWindow,
        `A block at byte ${offset} is outside the receive window (${contiguous} to ${Math.min(windowEnd, upload.size)}); continue from ${contiguous}.`,
        { offset: contiguous },
      );
    }
    if (end > upload.size || (!more && end !== upload.size)) {
      throw new DeviceError(DEVICE_ERROR.badRequest, `A block ending at byte ${end} disagrees with the announced size ${upload.size}.`);
    }
    // A retransmission the message-id cache no longer remembers: answered again, not written again.
    if (this.ranges.has(offset, end)) return 'continue';
    await this.options.flash.write(bytes.length);
    await this.staged.write(offset, bytes);
    const grown = this.ranges.add(offset, end);
    if (contiguous < FIRMWARE_IMAGE_HEADER_SIZE && grown >= FIRMWARE_IMAGE_HEADER_SIZE) await this.checkHeaderEarly(upload);
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
      throw await this.fail(upload, new DeviceError(DEVICE_ERROR.fwBadSignature, 'The staged upload is not the image its signed manifest names.'));
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
    state.upload = null;
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
    this.ranges = new ReceivedRanges(this.upload?.ackedOffset ?? 0);
    await this.staged.close();
  }

  async close(): Promise<void> {
    await this.staged.close();
  }

  private keyring() {
    return { keys: this.options.releaseKeys, retiredKeyIds: this.options.store.current.retiredReleaseKeyIds };
  }

  /** The manifest, once its signature, key, type and counter are all acceptable; a DeviceError otherwise. */
  private checkSignedManifest(signedManifest: Uint8Array): FirmwareManifest {
    try {
      const { manifest } = verifySignedFirmwareManifest(signedManifest, this.keyring());
      checkFirmwareManifest(manifest, { deviceType: this.options.deviceType, securityCounterFloor: this.options.store.current.securityCounter });
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
    return new DeviceError(DEVICE_ERROR.fwWrongType, `${what}; this device is a ${this.options.deviceType}.`, { deviceType: this.options.deviceType });
  }

  /** Section 3.5: once the header is in, refuse an image for another type before storing the rest. */
  private async checkHeaderEarly(upload: PersistedUpload): Promise<void> {
    const header = await this.readHeader(upload);
    if (header.deviceType !== this.options.deviceType) throw await this.fail(upload, this.wrongType(`The image header says ${header.deviceType}`));
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
      if (header.deviceType !== this.options.deviceType) throw await this.fail(upload, this.wrongType(`The image header says ${header.deviceType}`));
      if (header.version !== upload.version || header.bodyLength + FIRMWARE_IMAGE_HEADER_SIZE !== upload.size) {
        const message = `The image header (version ${header.version}, ${header.bodyLength + FIRMWARE_IMAGE_HEADER_SIZE} bytes) does not match the announcement (version ${upload.version}, ${upload.size} bytes).`;
        throw await this.fail(upload, new DeviceError(DEVICE_ERROR.fwBadHeader, message));
      }
      if ((await this.staged.sha256(upload.size)) !== upload.sha256) {
        const message = 'The stored image does not match the announced SHA-256; it was discarded. Announce and send it again.';
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
    this.ranges = new ReceivedRanges();
    this.transient = null;
    await this.staged.erase();
    await this.options.store.save();
    this.options.onChange(true);
    return error;
  }
}
