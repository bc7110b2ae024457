import { decodeConfigFile, type DecodedConfigFile } from '../../../domain/files/config-file';
import { verifyConfigFile } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import { uploadBlock1 } from '../coap/block1';
import { largestBlockSizeAtMost } from '../../../protocol/coap/codec';
import { CODE } from '../../../protocol/coap/parameters';
import { abortReason, DeviceVerificationError } from '../errors';
import { DEVICE_ERROR, MAX_BLOCK_SIZE, MAX_IN_FLIGHT_LIMIT } from '../../../protocol/constants';
import type { DeviceSession } from '../session';
import type { UploadProgress } from './firmware';
import { identify } from './identify';
import { isLinkLoss } from './link-loss';
import {
  configAppliedSchema,
  configStatusSchema,
  decodeResponse,
  type ConfigStatus,
  type DeviceInfo,
} from './payloads';
import { waitForDevice, waitForReboot } from './wait-for-device';

export interface ConfigUploadOptions {
  signal?: AbortSignal;
  onProgress?: (progress: UploadProgress) => void;
  /** The service's root key: the host checks the file's signatures with it before touching the device. */
  publicKeyPem?: string;
  /**
   * Check the file (structure, checksum, serial number, and signatures with publicKeyPem) before
   * sending. Default true; tests turn it off to see the device's own checks.
   */
  checkFile?: boolean;
  /** Uploads to try when the link drops or the device stops answering. Default 3. */
  maxAttempts?: number;
  /** How long the device may take to come back from its reboot. */
  timeoutMs?: number;
}

export interface ConfigUploadResult {
  /** The syncId the device reports it applied (the file's). */
  syncId: string;
  /** GET /info after the reboot. */
  info: DeviceInfo;
}

function checkedFile(file: Uint8Array, options: ConfigUploadOptions): DecodedConfigFile | undefined {
  if (options.checkFile === false) {
    try {
      return decodeConfigFile(file);
    } catch {
      return undefined;
    }
  }
  return options.publicKeyPem ? verifyConfigFile(file, { rootKeyPem: options.publicKeyPem }) : decodeConfigFile(file);
}

/**
 * PUT /config (Block1, Size1 in block 0); the device checks format, checksum, signature and serial
 * number, answers the syncId it applied, and reboots. Resolves once the device is back and
 * reports that syncId in GET /info. If the link drops mid-way the upload starts again (files are
 * small); if the answer was lost to the reboot, the syncId read back decides.
 */
export async function uploadConfiguration(
  session: DeviceSession,
  file: Uint8Array,
  options: ConfigUploadOptions = {},
): Promise<ConfigUploadResult> {
  const decoded = checkedFile(file, options);
  const step = 'configuration apply';
  const maxAttempts = options.maxAttempts ?? 3;
  const first = await identify(session, { signal: options.signal });
  for (let attempt = 1; ; attempt++) {
    const before = attempt === 1 ? first : await waitForDevice(session, { step, signal: options.signal });
    // The device rebooted into this file although its answer never reached us.
    if (attempt > 1 && decoded && before.configSyncId === decoded.syncId && before.bootId !== first.bootId) {
      return { syncId: decoded.syncId, info: before };
    }
    if (options.checkFile !== false && decoded && decoded.serialNumber !== before.serialNumber) {
      throw new FileFormatError(
        DEVICE_ERROR.configWrongDevice,
        `The configuration file is for device ${decoded.serialNumber}, not for ${before.serialNumber}. Download the file of ${before.serialNumber}.`,
      );
    }
    try {
      const blockSize = largestBlockSizeAtMost(Math.min(before.maxBlockSize, MAX_BLOCK_SIZE));
      const result = await uploadBlock1(session.engine, {
        path: 'config',
        data: file,
        blockSize,
        window: Math.min(before.maxInFlight, MAX_IN_FLIGHT_LIMIT),
        what: 'configuration',
        size1: true,
        method: CODE.PUT,
        signal: options.signal,
        onProgress: (bytes) => options.onProgress?.({ bytes, total: file.length }),
      });
      const applied = decodeResponse(configAppliedSchema, result.response, session.context(step));
      if (decoded && applied.syncId !== decoded.syncId) {
        throw new DeviceVerificationError(
          'CONFIG_NOT_APPLIED',
          session.context(step),
          `reports syncId ${applied.syncId}, not the file's ${decoded.syncId}`,
        );
      }
      // The device holds this very file already: it changed nothing and does not restart.
      if (applied.unchanged === true) return { syncId: applied.syncId, info: before };
      const after = await waitForReboot(session, {
        previousBootId: before.bootId,
        step,
        timeoutMs: options.timeoutMs,
        signal: options.signal,
      });
      if (after.configSyncId !== applied.syncId) {
        throw new DeviceVerificationError(
          'CONFIG_NOT_APPLIED',
          session.context(step),
          `came back with configuration ${after.configSyncId ?? 'none'}, not ${applied.syncId}`,
        );
      }
      return { syncId: applied.syncId, info: after };
    } catch (error) {
      if (options.signal?.aborted) throw abortReason(options.signal);
      if (!isLinkLoss(error) || attempt >= maxAttempts) throw error;
    }
  }
}

/** GET /config: what the device holds, and (devices that report them) its sequence and the organization it is claimed by. */
export async function readConfigStatus(session: DeviceSession, signal?: AbortSignal): Promise<ConfigStatus> {
  const response = await session.engine.request({
    method: CODE.GET,
    path: 'config',
    step: 'configuration status request',
    signal,
  });
  return decodeResponse(configStatusSchema, response, session.context('configuration status request'));
}
