import {
  applyFirmware,
  createLink,
  DeviceSession,
  identify,
  parseLinkSpec,
  readConfigStatus,
  readRunningParameters,
  uploadConfiguration,
  uploadFirmware,
  type LinkFactoryDeps,
} from '../../devices';
import {
  DeviceNotFoundError,
  type DeviceConfigStatus,
  type DeviceConnector,
  type DeviceFinder,
  type DeviceIdentity,
  type DeviceConnection,
  type DeviceTarget,
  type FirmwareImage,
  type RunningParameters,
  type TransferOptions,
} from './device-port';
import { identityOf } from './identity';
import { createVendorLink, detectProtocol, forgetProtocol, vendorFamilyOf } from '../../devices/vendor';
import { VendorConnection } from './vendor-connection';

/**
 * The jobs' DeviceConnector over main/devices: a link from the spec (or from discovery for a serial
 * number), a protocol session on it, and the device operations. Resuming after a pulled cable and
 * waiting for restarts happen inside the operations, on the same link.
 */

export interface DeviceConnectorOptions {
  /** Serial port opener and BLE central (tests pass simulated ones). */
  linkDeps?: LinkFactoryDeps;
  /** Finds a device named by serial number. */
  finder?: DeviceFinder;
  /** How long a device may take to come back after a pulled cable or a restart. Default 60 s. */
  reconnectTimeoutMs?: number;
  /** How long opening a link may take (a BLE device out of range scans forever otherwise). Default 15 s. */
  openTimeoutMs?: number;
  /** Resumes of one firmware upload on the same link. Default 3. */
  maxResumes?: number;
}

export function createDeviceConnector(options: DeviceConnectorOptions = {}): DeviceConnector {
  return {
    async connect(target: DeviceTarget, call: { signal?: AbortSignal } = {}): Promise<DeviceConnection> {
      const spec =
        target.kind === 'link' ? target.spec : await locate(options.finder, target.serialNumber, call.signal);
      const opening = AbortSignal.any([
        ...(call.signal ? [call.signal] : []),
        AbortSignal.timeout(options.openTimeoutMs ?? 15_000),
      ]);
      // Which protocol the device speaks (asked once per port for the session): the vendor's gets its own connection.
      if (
        (await detectProtocol(spec, { linkDeps: options.linkDeps, signal: opening }).catch(() => null)) === 'vendor'
      ) {
        return openVendorConnection(spec, target.serialNumber, options, call.signal, opening);
      }
      const link = createLink(parseLinkSpec(spec), options.linkDeps);
      await link.open(opening);
      const session = new DeviceSession(link, {
        reconnectTimeoutMs: options.reconnectTimeoutMs,
        expectedSerialNumber: target.serialNumber,
      });
      try {
        const identity = identityOf(await identify(session, { signal: call.signal }));
        return new SessionAdapter(session, identity, options.maxResumes ?? 3);
      } catch (error) {
        await session.close().catch(() => undefined);
        throw error;
      }
    },
  };
}

async function openVendorConnection(
  spec: string,
  expectedSerialNumber: string | undefined,
  options: DeviceConnectorOptions,
  signal: AbortSignal | undefined,
  opening: AbortSignal,
): Promise<DeviceConnection> {
  const parsed = parseLinkSpec(spec);
  const link = createVendorLink(parsed, options.linkDeps);
  await link.open(opening);
  const session = new DeviceSession(link, { reconnectTimeoutMs: options.reconnectTimeoutMs, expectedSerialNumber });
  try {
    return await VendorConnection.open(session, vendorFamilyOf(parsed), { maxResumes: options.maxResumes, signal });
  } catch (error) {
    await session.close().catch(() => undefined);
    // Perhaps another device is on the port now: ask it again next time.
    forgetProtocol(spec);
    throw error;
  }
}

async function locate(
  finder: DeviceFinder | undefined,
  serialNumber: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  if (!finder) throw new DeviceNotFoundError(serialNumber, []);
  const attached = await finder.list({ signal });
  const found = attached.find((d) => d.identity?.serialNumber === serialNumber);
  if (!found)
    throw new DeviceNotFoundError(
      serialNumber,
      attached.map((d) => d.identity?.serialNumber ?? d.link),
    );
  return found.link;
}

class SessionAdapter implements DeviceConnection {
  constructor(
    private readonly session: DeviceSession,
    public identity: DeviceIdentity,
    private readonly maxResumes: number,
  ) {}

  get link(): string {
    return this.session.link.description;
  }

  async identify(signal?: AbortSignal): Promise<DeviceIdentity> {
    this.identity = identityOf(await identify(this.session, { signal }));
    return this.identity;
  }

  async uploadFirmware(image: FirmwareImage, options: TransferOptions = {}): Promise<{ announcedOffsets: number[] }> {
    const result = await uploadFirmware(this.session, image.bytes, {
      version: image.version,
      deviceType: image.deviceType,
      signedManifest: image.signedManifest,
      patches: image.patches,
      deflated: image.deflated,
      // Read when this connection was opened (or by the identify before this upload).
      info: this.session.info,
      signal: options.signal,
      maxResumes: this.maxResumes,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    if (this.session.info) this.identity = identityOf(this.session.info);
    return { announcedOffsets: result.announcedOffsets };
  }

  async applyFirmware(version: string, options: { signal?: AbortSignal } = {}): Promise<DeviceIdentity> {
    this.identity = identityOf(await applyFirmware(this.session, { version, signal: options.signal }));
    return this.identity;
  }

  async uploadConfiguration(
    file: Uint8Array,
    options: TransferOptions = {},
  ): Promise<{ syncId: string; identity: DeviceIdentity }> {
    const result = await uploadConfiguration(this.session, file, {
      signal: options.signal,
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    this.identity = identityOf(result.info);
    return { syncId: result.syncId, identity: this.identity };
  }

  async readConfigStatus(signal?: AbortSignal): Promise<DeviceConfigStatus> {
    const status = await readConfigStatus(this.session, signal);
    return {
      syncId: status.syncId,
      sequence: status.sequence ?? null,
      claim: status.orgId && status.orgKeyId ? { orgId: status.orgId, keyId: status.orgKeyId } : null,
    };
  }

  async readRunningParameters(signal?: AbortSignal): Promise<RunningParameters> {
    const payload = await readRunningParameters(this.session, { signal });
    return { values: payload.values, checksum: Buffer.from(payload.checksum).toString('hex'), checksumBy: 'device' };
  }

  close(): Promise<void> {
    return this.session.close();
  }
}
