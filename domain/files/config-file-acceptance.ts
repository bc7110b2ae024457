import type { DecodedConfigFile } from './config-file';
import { FileFormatError } from './file-error';

/**
 * Whether a device takes a configuration file whose signatures checked out, given what it holds:
 * the rules against replaying a file and against moving a device to another organization. The
 * simulated device decides with this; the host asks the same question first, from what the device
 * reports in GET /config, so a technician hears the reason before anything is sent.
 */

/** The organization key a device trusts from the first file it accepted on ("claimed"). */
export interface DeviceClaim {
  orgId: string;
  keyId: string;
}

export interface HeldConfiguration {
  /** null while the device is unclaimed: new, or factory reset. */
  claim: DeviceClaim | null;
  /** The file applied last; null when no file with a sequence ever was. */
  applied: { sequence: number; syncId: string } | null;
}

/** 'apply': a newer file, take it. 'unchanged': the very file applied last; taking it again changes nothing. */
export type ConfigFileDecision = 'apply' | 'unchanged';

export function decideConfigFile(
  file: Pick<DecodedConfigFile, 'orgId' | 'keyId' | 'sequence' | 'syncId'>,
  held: HeldConfiguration,
): ConfigFileDecision {
  const { claim, applied } = held;
  if (claim && (claim.orgId !== file.orgId || claim.keyId !== file.keyId)) {
    const signer =
      claim.orgId === file.orgId
        ? `another key (${file.keyId}) of organization ${file.orgId}`
        : `organization ${file.orgId}`;
    throw new FileFormatError(
      'CONFIG_WRONG_ORGANIZATION',
      `The configuration file is signed by ${signer}; the device belongs to organization ${claim.orgId} and takes only files signed with its key (${claim.keyId}). ` +
        'A device changes organization only after a factory reset.',
    );
  }
  if (!applied || file.sequence > applied.sequence) return 'apply';
  if (file.sequence === applied.sequence && file.syncId.toLowerCase() === applied.syncId.toLowerCase())
    return 'unchanged';
  throw new FileFormatError(
    'CONFIG_SUPERSEDED',
    `The configuration file has sequence ${file.sequence}; the device applied a newer one (sequence ${applied.sequence}, syncId ${applied.syncId}). ` +
      'Download the current file of the device from the service.',
  );
}
