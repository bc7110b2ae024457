import { decodeCbor, isCborMap } from '../../../domain/files/cbor';
import type { VendorFamily } from '../../../domain/vendor/running-values';
import { decodeConfigData, decodeSecureConfig } from '../../../domain/vendor/secure-config';
import { CODE } from '../../../protocol/coap/parameters';
import { FRC_FILE, VENDOR_RESOURCE } from '../../../protocol/vendor';
import { isLinkLoss } from '../operations/link-loss';
import type { DeviceSession } from '../session';
import { downloadFile } from './fs-transfer';

/** What a vendor device says of the configuration file it keeps; nulls where it cannot say. */
export interface HeldConfig {
  syncId: string | null;
  sequence: number | null;
}

/**
 * The secure configuration the device keeps, when it lets it be read: the FRC's secureConfig.cbor
 * by the fs transfer; on the EPC a GET of cfg/all, which the vendor's tool never makes (a device
 * that refuses it holds, as far as the host can tell, no file it can name).
 */
export async function readHeldConfigFile(
  session: DeviceSession,
  family: VendorFamily,
  signal?: AbortSignal,
): Promise<Uint8Array | null> {
  try {
    if (family === 'FRC') return await downloadFile(session, FRC_FILE.secureConfig, { signal });
    const response = await session.engine.request({
      method: CODE.GET,
      path: VENDOR_RESOURCE.cfgAll,
      step: 'reading cfg/all',
      signal,
      acceptErrors: true,
    });
    return response.code === CODE.CONTENT && response.message.payload.length > 0 ? response.message.payload : null;
  } catch (error) {
    if (isLinkLoss(error) || signal?.aborted) throw error;
    return null;
  }
}

export async function readHeldConfig(
  session: DeviceSession,
  family: VendorFamily,
  signal?: AbortSignal,
): Promise<HeldConfig> {
  const file = await readHeldConfigFile(session, family, signal);
  return file ? { syncId: syncIdOf(file), sequence: sequenceOf(file) } : { syncId: null, sequence: null };
}

function mapOf(file: Uint8Array): Record<string, unknown> | null {
  try {
    const value = decodeCbor(file);
    return isCborMap(value) ? value : null;
  } catch {
    return null;
  }
}

/** The top-level `syncId` the service's files carry (configuration file layout 3, docs/decisions.md). */
export function syncIdOf(file: Uint8Array): string | null {
  const value = mapOf(file)?.['syncId'];
  return typeof value === 'string' ? value.toLowerCase() : null;
}

/** Our content's sequence, inside config-data's `provisioner`, when the file is one of ours. */
export function sequenceOf(file: Uint8Array): number | null {
  try {
    const { provisioner } = decodeConfigData(decodeSecureConfig(file).configData);
    const sequence = isCborMap(provisioner) ? provisioner['sequence'] : undefined;
    return typeof sequence === 'number' ? sequence : null;
  } catch {
    return null;
  }
}
