import { FileFormatError } from '../../../domain/files/file-error';
import { verifyFirmwareBundleSignature, type FirmwareBundle } from '../../../domain/files/firmware-bundle';
import type { CallOptions } from '../../cloud';
import type { ReleaseKeySource, ReleaseKeyStore } from './release-key-store';

/** Who signed the firmware a job installs: shown in its result. */
export interface FirmwareSigner {
  keyId: string;
  /** The name the service gave the key. */
  name: string;
}

export interface CheckedSignature {
  signer: FirmwareSigner;
  /** What the device is sent with the announce. */
  signedManifest: Uint8Array;
}

/**
 * What the device will check, checked first on the host so that nobody waits for a refusal: the
 * bundle's manifest is signed by a release key the service trusts (its current list, or the copy
 * kept from it when it is unreachable), and the signature verifies. Throws FileFormatError with the
 * device's codes (FW_UNSIGNED, FW_UNTRUSTED_KEY, FW_BAD_SIGNATURE), or FW_RELEASE_KEYS_UNKNOWN
 * when the service was never reached for its keys. Nothing, `--force` included, skips it.
 */
export async function checkFirmwareSignature(
  bundle: FirmwareBundle,
  releaseKeys: ReleaseKeyStore,
  source: ReleaseKeySource,
  call: CallOptions = {},
): Promise<CheckedSignature> {
  const known = await releaseKeys.get(source, call);
  if (known === undefined) {
    throw new FileFormatError(
      'FW_RELEASE_KEYS_UNKNOWN',
      `The service's firmware release keys are not known yet, so the firmware cannot be checked before it is sent. Connect to ${source.baseUrl} once (provisioner cache prefetch), then installs work offline.`,
    );
  }
  const { key, bytes } = verifyFirmwareBundleSignature(bundle, { keys: known.keys, retiredKeyIds: [] });
  return { signer: { keyId: key.keyId, name: key.name }, signedManifest: bytes };
}
