import { parametersFromVendorReadings } from '../../../domain/vendor/running-parameters';
import { runningValues, RunningValuesError, type VendorFamily } from '../../../domain/vendor/running-values';
import type { Scm2Config } from '../../../domain/vendor/scm2';
import { JobFailure } from './failure';
import { decodeConfigData, decodeSecureConfig } from '../../../domain/vendor/secure-config';
import { contentFormatOption } from '../../../protocol/coap/codec';
import { CODE } from '../../../protocol/coap/parameters';
import { MAX_BLOCK_SIZE } from '../../../protocol/constants';
import { DeviceVerificationError, type DeviceSession } from '../../devices';
import { uploadBlock1 } from '../../devices/coap/block1';
import { isLinkLoss } from '../../devices/operations/link-loss';
import {
  componentsOf,
  identifyVendor,
  mismatchText,
  modelOf,
  readBackValues,
  resetVendorDevice,
  readHeldConfig,
  readValue,
  syncIdOf,
  updateEpcFirmware,
  uploadFile,
  waitForVendorDevice,
  type ReadBackValue,
  type VendorIdentity,
} from '../../devices/vendor';
import type { ProvisioningClient } from './context';
import type {
  DeviceConfigStatus,
  DeviceConnection,
  DeviceIdentity,
  FirmwareImage,
  TransferOptions,
} from './device-port';
import {
  intendedParameters,
  parameterChecksum,
  valuesInScope,
  type ParameterValues,
  type RunningParameters,
} from '../../../domain/running-parameters';
import type { DecodedConfigFile } from '../../../domain/files/config-file-content';
import type { DeviceType } from '../../../domain/device-types';
import { EPC_PATH, FRC_FILE, VENDOR_CONTENT_FORMAT, VENDOR_RESOURCE } from '../../../protocol/vendor';

/**
 * The running parameters (domain/running-parameters.ts) a vendor device reports through its cfg/…
 * resources whatever it was configured with: its device id and, on the EPC, the safety timeout.
 * Against a configuration file, more (readRunningParameters). The rest of its settings are read
 * back value by value by the configuration apply (running-values.ts), in the vendor's terms.
 */
const PARAMETER_SCOPE: Record<VendorFamily, readonly string[]> = {
  FRC: ['device.serialNumber'],
  EPC: ['device.serialNumber', 'safety.timeout'],
};

/** The vendor's configuration in a file's signed settings (layout 3's config-data); undefined for another layout. */
function scm2Of(settings: Uint8Array): Scm2Config | undefined {
  try {
    return decodeConfigData(settings).scm2;
  } catch {
    return undefined;
  }
}

/** The paths the device runs `scm2` at; none when its family cannot run it (then only the serial number is compared). */
function runningValuesOrNone(scm2: Scm2Config, family: VendorFamily): string[] {
  try {
    return runningValues(scm2, family).map((value) => value.path);
  } catch (error) {
    if (error instanceof RunningValuesError) return [];
    throw error;
  }
}

/**
 * The jobs' DeviceConnection for a device that speaks the vendor's protocol (docs/vendor-devices.md):
 * the same operations as for ours, made of the vendor's resources.
 *
 *  - identify: cfg/setup/serialNumber and the firmware version; the configuration it holds is read
 *    from the file it keeps (FRC: secureConfig.cbor by the fs transfer; EPC: GET cfg/all).
 *  - firmware: the component files by the fs transfer (FRC) or the package by its POST with the
 *    status observed (EPC); then systemReset and the version read back.
 *  - configuration: secureConfig.cbor by the fs transfer (FRC) or POST cfg/all (EPC); then every
 *    setting it sets is read back through cfg/… and compared with the file, value by value.
 *
 * The device checks no signature we know of, so the host's checks are the only ones: the job checks
 * the bundle's signature and the configuration file's before calling this.
 */
export class VendorConnection implements DeviceConnection {
  /** Boots seen by this connection: a vendor device has no boot id of its own. */
  private boots = 0;
  /** The settings read back after the last configuration apply (the job's report may show them). */
  lastReadBack: ReadBackValue[] = [];
  /** How the device's type was told (identify.ts); a record's type once takeRecordedType took it. */
  typeFrom: VendorIdentity['typeFrom'] = 'guessed';
  /** The type the service's record gives the serial number, once taken. */
  private recordedType: DeviceType | undefined;

  constructor(
    private readonly session: DeviceSession,
    readonly family: VendorFamily,
    public identity: DeviceIdentity,
    private readonly maxResumes: number,
  ) {}

  static async open(
    session: DeviceSession,
    family: VendorFamily,
    options: { maxResumes?: number; signal?: AbortSignal } = {},
  ): Promise<VendorConnection> {
    const vendor = await identifyVendor(session, family, { signal: options.signal });
    const connection = new VendorConnection(
      session,
      family,
      {
        serialNumber: '',
        deviceType: vendor.deviceType,
        model: '',
        firmwareVersion: '',
        configSyncId: null,
        bootId: 'vendor:0',
      },
      options.maxResumes ?? 3,
    );
    connection.identity = await connection.identityFrom(vendor, options.signal);
    return connection;
  }

  get link(): string {
    return this.session.link.description;
  }

  async identify(signal?: AbortSignal): Promise<DeviceIdentity> {
    this.identity = await this.identityFrom(
      await identifyVendor(this.session, this.family, {
        signal,
        ...(this.recordedType ? { knownType: this.recordedType } : {}),
      }),
      signal,
    );
    return this.identity;
  }

  /**
   * The FRC family does not say which product it is; the vendor's serial numbers do not either
   * (identify.ts). The type the service's manufacturing record gives its serial number is taken
   * over the one guessed or read from a serial prefix, so that firmware and configuration are those
   * of the product it is. An EPC is told by its transport, and a record of another family changes nothing.
   */
  takeRecordedType(type: DeviceType): void {
    if (this.family !== 'FRC' || type === 'EPC' || type === this.identity.deviceType) return;
    this.recordedType = type;
    this.typeFrom = 'known';
    this.identity = { ...this.identity, deviceType: type, model: modelOf(type) };
  }

  private async identityFrom(vendor: VendorIdentity, signal?: AbortSignal): Promise<DeviceIdentity> {
    this.typeFrom = vendor.typeFrom;
    const held = await this.readConfigStatus(signal);
    return {
      serialNumber: vendor.serialNumber,
      deviceType: vendor.deviceType,
      model: vendor.model,
      firmwareVersion: vendor.firmwareVersion,
      configSyncId: held.syncId,
      bootId: `vendor:${this.boots}`,
    };
  }

  /** Runs `step`; after a pulled cable or a silent device, waits for the same device on this link and runs it again. */
  private async resuming<T>(
    what: string,
    signal: AbortSignal | undefined,
    step: (attempt: number) => Promise<T>,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await step(attempt);
      } catch (error) {
        if (signal?.aborted || !isLinkLoss(error) || attempt >= this.maxResumes) throw error;
        await waitForVendorDevice(this.session, this.family, {
          step: `${what} (reconnecting)`,
          signal,
          knownType: this.identity.deviceType,
        });
      }
    }
  }

  async uploadFirmware(image: FirmwareImage, options: TransferOptions = {}): Promise<{ announcedOffsets: number[] }> {
    const { signal } = options;
    const components = componentsOf(image.bytes, this.family);
    const total = components.reduce((sum, c) => sum + c.bytes.length, 0);
    const announcedOffsets: number[] = [];
    if (this.family === 'EPC') {
      const only = components[0]!;
      await this.resuming('firmware upload', signal, async () => {
        announcedOffsets.push(0);
        options.onProgress?.({ bytes: 0, total, announced: true });
        await updateEpcFirmware(this.session, only.bytes, {
          signal,
          // The body is the package plus a few bytes of CBOR around it: shown as the package's share.
          onProgress: (acknowledged, bodyLength) =>
            options.onProgress?.({ bytes: Math.min(total, Math.floor((acknowledged / bodyLength) * total)), total }),
        });
      });
      return { announcedOffsets };
    }
    await this.resuming('firmware upload', signal, async () => {
      let done = 0;
      let announced = false;
      for (const component of components) {
        const before = done;
        const result = await uploadFile(this.session, component.name, component.bytes, {
          signal,
          onProgress: (acknowledged) => {
            if (!announced) {
              // The first figure of an attempt says where it (re)started: the files the device already holds.
              announced = true;
              announcedOffsets.push(before);
              options.onProgress?.({ bytes: before, total, announced: true });
            }
            options.onProgress?.({ bytes: before + acknowledged, total });
          },
        });
        done = before + component.bytes.length;
        if (result.alreadyThere && !announced) continue;
      }
      if (!announced) {
        announcedOffsets.push(done);
        options.onProgress?.({ bytes: done, total, announced: true });
      }
    });
    return { announcedOffsets };
  }

  async applyFirmware(version: string, options: { signal?: AbortSignal } = {}): Promise<DeviceIdentity> {
    const { signal } = options;
    // The EPC may restart by itself once it has installed (vendor spec §7.2 leaves it open): when it
    // already runs the version, no reset is asked for.
    if (this.family === 'EPC') {
      const now = await waitForVendorDevice(this.session, this.family, {
        step: 'firmware install',
        signal,
        knownType: this.identity.deviceType,
        until: (identity) => identity.firmwareVersion === version,
        timeoutMs: 10_000,
      }).catch(() => undefined);
      if (now) {
        this.boots++;
        this.identity = await this.identityFrom(now, signal);
        return this.identity;
      }
    }
    const after = await resetVendorDevice(this.session, this.family, {
      step: 'firmware install',
      signal,
      knownType: this.identity.deviceType,
      until: (identity) => identity.firmwareVersion === version,
    }).catch(async (error: unknown) => {
      // Came back, but with another version: the job says the install did not take.
      if (!(error instanceof Error) || !/come back/.test(error.message)) throw error;
      return identifyVendor(this.session, this.family, { signal, knownType: this.identity.deviceType });
    });
    this.boots++;
    this.identity = await this.identityFrom(after, signal);
    return this.identity;
  }

  async uploadConfiguration(
    file: Uint8Array,
    options: TransferOptions = {},
  ): Promise<{ syncId: string; identity: DeviceIdentity }> {
    const { signal } = options;
    const secure = decodeSecureConfig(file);
    const { scm2 } = decodeConfigData(secure.configData);
    // A configuration this family cannot run (an FRC told to use Ethernet) is refused before a byte is sent.
    try {
      runningValues(scm2, this.family);
    } catch (error) {
      if (!(error instanceof RunningValuesError)) throw error;
      throw new JobFailure(
        'CONFIG_WRONG_TYPE',
        `${error.message.replace(/\.$/, '')}; nothing was sent`,
        false,
        'give this device a radio it has (BLE or ISM) in Configurations',
      );
    }
    const syncId = syncIdOf(file);
    await this.resuming('configuration upload', signal, async () => {
      options.onProgress?.({ bytes: 0, total: file.length });
      if (this.family === 'FRC') {
        await uploadFile(this.session, FRC_FILE.secureConfig, file, {
          signal,
          onProgress: (acknowledged) => options.onProgress?.({ bytes: acknowledged, total: file.length }),
        });
      } else {
        await uploadBlock1(this.session.engine, {
          path: VENDOR_RESOURCE.cfgAll,
          method: CODE.POST,
          data: file,
          blockSize: MAX_BLOCK_SIZE,
          window: 1,
          what: 'configuration',
          options: [contentFormatOption(VENDOR_CONTENT_FORMAT.cbor)],
          signal,
          onProgress: (acknowledged) => options.onProgress?.({ bytes: acknowledged, total: file.length }),
        });
      }
    });
    // The parameter read-back, for these devices: every setting the file sets, as the device runs it.
    const values = await this.readBackSettings(file, signal);
    this.lastReadBack = values;
    const mismatches = values.filter((v) => !v.matches);
    if (mismatches.length > 0) {
      throw new DeviceVerificationError(
        'CONFIG_NOT_APPLIED',
        this.session.context('configuration read-back'),
        `the device does not run what the file sets: ${mismatchText(mismatches)}`,
      );
    }
    const vendor = await identifyVendor(this.session, this.family, { signal, knownType: this.identity.deviceType });
    this.identity = await this.identityFrom(vendor, signal);
    // The EPC cannot say which file it holds (no GET cfg/all): its settings, all read back equal, do.
    if (this.identity.configSyncId === null && syncId !== null)
      this.identity = { ...this.identity, configSyncId: syncId };
    return { syncId: syncId ?? this.identity.configSyncId ?? '', identity: this.identity };
  }

  /**
   * Every setting a configuration file sets, as the device runs it, compared with the file value by
   * value (the read-back after an apply; `device verify` of a device that names no file it holds).
   */
  async readBackSettings(file: Uint8Array, signal?: AbortSignal): Promise<ReadBackValue[]> {
    const { scm2 } = decodeConfigData(decodeSecureConfig(file).configData);
    return this.resuming('configuration read-back', signal, () =>
      readBackValues(this.session, this.family, scm2, signal),
    );
  }

  async readConfigStatus(signal?: AbortSignal): Promise<DeviceConfigStatus> {
    const held = await readHeldConfig(this.session, this.family, signal);
    return { ...held, claim: null };
  }

  /**
   * Read through cfg/…; the checksum is the host's, over what was read (the device computes none).
   * Against a configuration file of layout 3 (its settings are the vendor's config-data), every
   * setting that file sets is read and those that are our parameters one to one are taken
   * (domain/vendor/running-parameters.ts), where our content sets them: a value our configuration
   * leaves unset is one the vendor's map fills with a default of its own, not one to compare. The
   * scope is the serial number and those. Without a file, or against one that is not the vendor's
   * map, what the family always reports.
   */
  async readRunningParameters(
    signal?: AbortSignal,
    against?: Pick<DecodedConfigFile, 'settings' | 'content'>,
  ): Promise<RunningParameters> {
    const vendor = await identifyVendor(this.session, this.family, { signal, knownType: this.identity.deviceType });
    const values: ParameterValues = { 'device.serialNumber': vendor.serialNumber };
    const scm2 = against ? scm2Of(against.settings) : undefined;
    let runningKeys: string[];
    if (scm2) {
      const paths = runningValuesOrNone(scm2, this.family);
      const readings = [];
      for (const path of paths)
        readings.push({ path, actual: await readValue(this.session, this.family, path, signal) });
      const intended = intendedParameters(against!.content);
      const read = parametersFromVendorReadings(this.family, readings);
      runningKeys = Object.keys(read).filter(
        (key) => key !== 'device.serialNumber' && (intended[key] ?? null) !== null,
      );
      for (const key of runningKeys) values[key] = read[key]!;
    } else {
      if (this.family === 'EPC') {
        const timeout = await readValue(this.session, this.family, EPC_PATH.timeoutMs, signal);
        values['safety.timeout'] =
          typeof timeout === 'number'
            ? timeout
            : Number.isSafeInteger(Number(timeout))
              ? Number(timeout)
              : String(timeout);
      }
      runningKeys = PARAMETER_SCOPE[this.family].filter((key) => key !== 'device.serialNumber');
    }
    const scope = ['device.serialNumber', ...runningKeys];
    return { values, checksum: parameterChecksum(valuesInScope(values, scope)), checksumBy: 'host', scope };
  }

  close(): Promise<void> {
    return this.session.close();
  }
}

/**
 * Takes the type the service's record gives a vendor FRC's serial number (takeRecordedType), and
 * says whether there was one. The record cannot be read (no service, not registered): the device
 * keeps the type identify gave it, unless the caller knows it otherwise (job-opening.ts).
 */
export async function takeTypeFromRecord(
  connection: VendorConnection,
  devices: { list: ProvisioningClient['devices']['list'] },
  signal?: AbortSignal,
): Promise<boolean> {
  if (connection.family !== 'FRC') return false;
  const serialNumber = connection.identity.serialNumber;
  const record = await devices
    .list({ serial: serialNumber, limit: 1 }, { retry: false, ...(signal ? { signal } : {}) })
    .then((page) => page.items.find((item) => item.serialNumber === serialNumber))
    .catch(() => undefined);
  if (record) connection.takeRecordedType(record.deviceType);
  return record !== undefined;
}
