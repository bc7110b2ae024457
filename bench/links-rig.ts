/**
 * What bench/links.ts (the 1 MiB table, --legacy) and bench/links-coded.ts (real firmware) share:
 * the keys, one simulated device per link with a session to it, and one timed upload.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningKeyPair } from '../domain/files/config-file-signature';
import { signFirmwareImage } from '../domain/files/firmware-bundle';
import { generateReleaseKeyPair } from '../domain/files/firmware-release-key';
import {
  uploadFirmware,
  type FirmwareUploadOptions,
  type FirmwareUploadResult,
} from '../main/devices/operations/firmware';
import { DeviceSession } from '../main/devices/session';
import { encodeFrame } from '../protocol/framing';
import { startSimulatedDevice, type SimulatedDevice, type SimulatedDeviceOptions } from '../simulator';
import type { LinkCase } from './link-cases';

export interface BenchDevice {
  device: SimulatedDevice;
  session: DeviceSession;
  deviceType: string;
  stop(): Promise<void>;
}

export interface TimedUpload {
  result: FirmwareUploadResult;
  seconds: number;
  /** Image bytes ÷ seconds ÷ the wire model's rate host to device. */
  ratio: number;
  /** Image bytes per second. */
  rate: number;
  /** The wire model's rate host to device, bytes per second. */
  wireRate: number;
  /** CoAP retransmissions during this upload: a row with any is slowed by a timeout, not by its coding. */
  retransmissions: number;
  /**
   * Bytes the host put on the line to the device during the upload: every message of it (identify,
   * announce, blocks) as the link carries it (serial and BLE: the SLIP frame with its CRC; UDP: the
   * datagram).
   */
  lineBytes: number;
  /**
   * Image bytes ÷ lineBytes: the ratio the upload would reach if the line to the device never
   * waited (no round trip, no processing on either side). What separates it from `ratio` is time;
   * what separates it from the coding's factor is the protocol's bytes (headers, framing, escapes).
   */
  ceiling: number;
}

/** Counts what the host sends on `session`'s link as it crosses the line, until the returned function is called. */
function countLineBytes(session: DeviceSession): () => number {
  const link = session.engine.link;
  const framed = link.kind === 'serial' || link.kind === 'ble';
  const send = link.send;
  let bytes = 0;
  link.send = (message, hint) => {
    bytes += framed ? encodeFrame(message).length : message.length;
    send.call(link, message, hint);
  };
  return () => {
    link.send = send;
    return bytes;
  };
}

/** A scratch directory, the service's and a release key, and the devices started under them. */
export class LinksRig {
  private readonly releaseKey = generateReleaseKeyPair();
  private readonly publicKeyPem = generateSigningKeyPair().publicKeyPem;
  private started = 0;

  private constructor(private readonly scratch: string) {}

  static async create(prefix: string): Promise<LinksRig> {
    return new LinksRig(await mkdtemp(join(tmpdir(), prefix)));
  }

  /** The signed manifest of `image`, as the bundle carries it: made before any clock starts. */
  sign(image: Uint8Array): Uint8Array {
    return signFirmwareImage(image, { releaseKeyPem: this.releaseKey.privateKeyPem });
  }

  /** A simulated device on `linkCase`'s link, trusting this rig's keys, and a session to it. */
  async start(linkCase: LinkCase, options: Partial<SimulatedDeviceOptions> = {}): Promise<BenchDevice> {
    const deviceType = linkCase.device.deviceType ?? 'EPC';
    const serialNumber = `BENCH${(this.started++).toString().padStart(3, '0')}`;
    const device = await startSimulatedDevice({
      deviceType,
      serialNumber,
      link: 'pty',
      stateDir: join(this.scratch, serialNumber),
      ptyDir: join(this.scratch, 'sim'),
      publicKeyPem: this.publicKeyPem,
      releaseKeysPem: [this.releaseKey.publicKeyPem],
      ...options,
      ...linkCase.device,
    });
    let session: DeviceSession;
    try {
      session = await DeviceSession.open(await linkCase.connect(device), { reconnectTimeoutMs: 30_000 });
    } catch (error) {
      await device.stop();
      throw error;
    }
    return {
      device,
      session,
      deviceType,
      stop: async () => {
        await session.close().catch(() => undefined);
        await device.stop();
      },
    };
  }

  async dispose(): Promise<void> {
    await rm(this.scratch, { recursive: true, force: true });
  }
}

/**
 * One `uploadFirmware` on the clock, until the device has verified the image. The manifest is
 * signed before the clock starts: a job takes it ready-made from the bundle.
 */
export async function timedUpload(
  bench: BenchDevice,
  image: Uint8Array,
  options: FirmwareUploadOptions,
  what: string,
): Promise<TimedUpload> {
  const { device, session } = bench;
  const retransmitted = session.engine.stats.retransmissions;
  const stopCounting = countLineBytes(session);
  const started = performance.now();
  let result: FirmwareUploadResult;
  let lineBytes: number;
  try {
    result = await uploadFirmware(session, image, options);
  } finally {
    lineBytes = stopCounting();
  }
  const seconds = (performance.now() - started) / 1000;
  if (device.state().upload?.state !== 'received') throw new Error(`${what}: the device did not receive the image`);
  const wireRate = device.wire.inbound.bytesPerSecond;
  const rate = image.length / seconds;
  return {
    result,
    seconds,
    rate,
    wireRate,
    ratio: rate / wireRate,
    retransmissions: session.engine.stats.retransmissions - retransmitted,
    lineBytes,
    ceiling: image.length / lineBytes,
  };
}
