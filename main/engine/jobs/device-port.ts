import type { DeviceType } from '../../../domain/device-types';
import type { DeviceIdentityView } from '../../../contract/readback';
import type { LinkKind } from '../../../domain/link-kind';
import type { UploadProgress } from '../../devices';
import type { PrecodedStream } from '../../../domain/files/content-coding';
import type { RunningParameters } from '../../../domain/running-parameters';
import type { DecodedConfigFile } from '../../../domain/files/config-file-content';

export type { RunningParameters } from '../../../domain/running-parameters';

/**
 * What the jobs need from a device, and nothing more. main/devices implements the protocol;
 * connector.ts adapts it to these interfaces, and the job tests use fakes of them.
 */

/** What a device says of itself; its `bootId` changes at every boot, which is how a reboot is recognised (compared for equality only). */
export type DeviceIdentity = DeviceIdentityView;

/**
 * The configuration a device holds (GET /config). `sequence` and `claim` are null when the device
 * does not report them (made before files carried them) or holds none.
 */
export interface DeviceConfigStatus {
  syncId: string | null;
  /** The applied file's sequence: the device refuses any older file. */
  sequence: number | null;
  /** The organization key the device is claimed by: it refuses files signed by any other. */
  claim: { orgId: string; keyId: string } | null;
}

export interface FirmwareImage {
  bytes: Uint8Array;
  /** SHA-256 of `bytes`, hex. */
  sha256: string;
  version: string;
  deviceType: DeviceType;
  /** The signed firmware manifest that vouches for `bytes`: the device takes nothing without it. */
  signedManifest: Uint8Array;
  /** Patches to `bytes` from images a device may run (the firmware cache's): a device running a base gets the patch. */
  patches?: readonly { baseSha256: string; patch: Uint8Array; deflated?: PrecodedStream }[];
  /** `bytes` deflated once, when they entered the firmware cache (zopfli): sent to a device that takes deflate. */
  deflated?: PrecodedStream;
}

export interface TransferOptions {
  signal?: AbortSignal;
  /**
   * One progress record from the device operation up to the job (issue 27): the bytes the device
   * has (for a compressed or delta upload, image bytes carried), the total, how the image travels
   * and its coded length, and `announced` on the figure where an announce put a firmware upload.
   */
  onProgress?: (progress: UploadProgress) => void;
}

/** One open connection to one identified device. */
export interface DeviceConnection {
  /** The link in use, as a person reads it: 'serial:/dev/pts/4', 'udp:127.0.0.1:5683', 'ble:…'. */
  readonly link: string;
  /** What the device said when the connection opened. */
  readonly identity: DeviceIdentity;
  identify(signal?: AbortSignal): Promise<DeviceIdentity>;
  /**
   * Announces the image and uploads it from the offset the device reports (a resume when it holds
   * part of the same image), reconnecting and announcing again when the link drops. Resolves once
   * the device has verified the whole image, with the offset the device gave at each announce.
   */
  uploadFirmware(image: FirmwareImage, options?: TransferOptions): Promise<{ announcedOffsets: number[] }>;
  /**
   * Asks the device to install the verified image and waits for it to restart; resolves with what
   * it runs then. The version check is the job's (a device that came back with its old image).
   */
  applyFirmware(version: string, options?: { signal?: AbortSignal }): Promise<DeviceIdentity>;
  /**
   * Uploads a configuration file; the device checks it, reports the syncId it applied and restarts.
   * Resolves once it is back, with that syncId and what the device reports then.
   */
  uploadConfiguration(
    file: Uint8Array,
    options?: TransferOptions,
  ): Promise<{ syncId: string; identity: DeviceIdentity }>;
  /** What configuration the device holds, as it reports it. */
  readConfigStatus(signal?: AbortSignal): Promise<DeviceConfigStatus>;
  /**
   * The safety and link parameters the device runs, read back from it, and their checksum: the
   * device's own where it computes one, else the host's over the values read (domain/running-parameters.ts).
   * `against`: the configuration file the values will be compared with; a device that can report
   * only some parameters (the vendor's) reads those that file sets. Ours ignore it.
   */
  readRunningParameters(
    signal?: AbortSignal,
    against?: Pick<DecodedConfigFile, 'settings' | 'content'>,
  ): Promise<RunningParameters>;
  close(): Promise<void>;
}

/**
 * How a technician names a device: where it is attached (and, when known, who must answer there),
 * or which one it is (found by discovery).
 */
export type DeviceTarget =
  { kind: 'link'; spec: string; serialNumber?: string } | { kind: 'serialNumber'; serialNumber: string };

export function targetLabel(target: DeviceTarget): string {
  return target.kind === 'link' ? target.spec : `sn:${target.serialNumber}`;
}

export interface DeviceConnector {
  /** Opens the link (finding the device by serial number first when so targeted) and identifies it. */
  connect(target: DeviceTarget, options?: { signal?: AbortSignal }): Promise<DeviceConnection>;
}

/** A device seen attached, identified or not. */
export interface AttachedDevice {
  /** A link spec that reaches it again: 'serial:/dev/pts/4', 'udp:127.0.0.1:5683', 'ble:…'. */
  link: string;
  linkKind: LinkKind;
  identity: DeviceIdentity | null;
  /** Why it could not be identified. */
  error: string | null;
  /** Which protocol it speaks: ours, or the vendor's (docs/vendor-devices.md); absent when unknown. */
  protocol?: 'provisioner' | 'vendor';
}

export interface DeviceFinder {
  /** Every device attached now (serial ports, BLE in range, and the given extra links). */
  list(options?: { signal?: AbortSignal; extraLinks?: readonly string[] }): Promise<AttachedDevice[]>;
}

/** No device with this serial number answered on any link. */
export class DeviceNotFoundError extends Error {
  override readonly name = 'DeviceNotFoundError';
  constructor(
    readonly serialNumber: string,
    seen: readonly string[],
  ) {
    super(
      `No attached device answers as ${serialNumber}` +
        (seen.length > 0 ? ` (attached: ${seen.join(', ')})` : ' (no devices found)') +
        '. Check the cable, or name the device by where it is attached: --link serial:/dev/ttyACM0, udp:ADDRESS or ble:ADDRESS.',
    );
  }
}
