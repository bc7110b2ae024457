import type { ServiceClient } from '../../cloud';
import { FileFormatError } from '../../../domain/files/file-error';
import { sha256Hex } from '../../../domain/files/firmware-bundle';
import { keepLatestFirmware } from '../../engine/cache/keep-latest-firmware';
import type { FirmwareCache } from '../../engine/cache/firmware-cache';
import { downloadCheckedConfigFile } from '../../engine/jobs/config-file-download';
import type { ConfigFileStore } from '../../engine/jobs/config-file-store';
import type { SigningKeyStore } from '../../engine/jobs/signing-key-store';
import type { DownloadChannel, DownloadRefused } from '../../../contract/index';
import type { HandlerGroup } from './types';

/** The account files are downloaded for, with its kept root key and configuration files. */
export interface DownloadAccount {
  client: ServiceClient;
  orgId: string;
  stores(): { signingKeys: SigningKeyStore; configFiles: ConfigFileStore };
}

export interface DownloadHandlerDeps {
  cache: () => FirmwareCache;
  /** Throws for an account whose role may not download files. */
  account: () => Promise<DownloadAccount>;
}

/** A check's refusal as the answer the host says in its language; any other failure is thrown on. */
async function refusedUnlessChecked<T>(check: () => Promise<T>): Promise<T | DownloadRefused> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof FileFormatError) return { outcome: 'refused', code: error.code, message: error.message };
    throw error;
  }
}

/**
 * Files downloaded for a person to carry, checked as a job checks them before sending and kept for
 * offline use (the CLI's `device firmware download` and `device configuration download`).
 */
export function downloadHandlers(deps: DownloadHandlerDeps): HandlerGroup<DownloadChannel> {
  return {
    'downloads.firmware': async (input) => {
      const { client } = await deps.account();
      return refusedUnlessChecked(async () => {
        // The input names exactly one of the two (contract/downloads.ts).
        const target =
          input.serialNumber !== undefined ? { serialNumber: input.serialNumber } : { deviceType: input.deviceType! };
        const { bytes, bundle, signer, entry } = await keepLatestFirmware(deps.cache(), client, target);
        return {
          outcome: 'checked' as const,
          bytes,
          deviceType: bundle.deviceType,
          version: bundle.version,
          size: bytes.length,
          sha256: entry.sha256,
          signedBy: { keyId: signer.keyId, name: signer.name },
        };
      });
    },
    'downloads.configurationFile': async (input) => {
      const account = await deps.account();
      return refusedUnlessChecked(async () => {
        const checked = await downloadCheckedConfigFile(account, account.stores(), input.serialNumber);
        if (checked.outcome === 'rootKeyUnknown') return checked;
        const { bytes, decoded, syncId } = checked;
        return {
          outcome: 'checked' as const,
          bytes,
          serialNumber: decoded.serialNumber,
          syncId,
          blank: decoded.content.blank,
          size: bytes.length,
          sha256: sha256Hex(bytes),
        };
      });
    },
  };
}
