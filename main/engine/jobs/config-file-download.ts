import type { DecodedConfigFile } from '../../../domain/files/config-file-content';
import { verifyConfigFile } from '../../../domain/files/config-file-signature';
import { FileFormatError } from '../../../domain/files/file-error';
import type { CallOptions } from '../../cloud';
import type { ConfigFileSource, ConfigFileStore } from './config-file-store';
import type { SigningKeySource, SigningKeyStore } from './signing-key-store';

export type CheckedConfigFile =
  | { outcome: 'checked'; bytes: Uint8Array; decoded: DecodedConfigFile; syncId: string }
  /** The service's root key is neither to be had from it nor kept: the signature cannot be checked. */
  | { outcome: 'rootKeyUnknown' };

/**
 * A device's configuration file for a person to carry: checked as a configuration job checks it
 * before sending (the root key's certificate for the organization key, the signature, for this
 * device, of the organization signed in to), and only then kept for offline use (`configuration
 * update` works from the kept copy when the service is unreachable). Throws the check's
 * FileFormatError, and then nothing is kept.
 */
export async function downloadCheckedConfigFile(
  account: { client: SigningKeySource & { devices: ConfigFileSource }; orgId: string },
  stores: { signingKeys: SigningKeyStore; configFiles: ConfigFileStore },
  serialNumber: string,
  call: CallOptions = {},
): Promise<CheckedConfigFile> {
  const fetched = await account.client.devices.fetchConfigurationFile(serialNumber, call);
  const { bytes } = fetched;
  const rootKey = (await stores.signingKeys.get(account.client, call)).key;
  if (!rootKey) return { outcome: 'rootKeyUnknown' };
  const decoded = verifyConfigFile(bytes, { rootKeyPem: rootKey.publicKeyPem, expectedSerialNumber: serialNumber });
  if (decoded.orgId !== account.orgId)
    throw new FileFormatError(
      'CONFIG_WRONG_ORGANIZATION',
      `It is a file of organization ${decoded.orgId}, not of ${account.orgId} (signed in)`,
    );
  await stores.configFiles.put(serialNumber, bytes, decoded.syncId);
  return { outcome: 'checked', bytes, decoded, syncId: fetched.syncId ?? decoded.syncId };
}
