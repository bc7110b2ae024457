import { englishWords, type Words } from './domain-words';

/**
 * Why a work package or a confirmations file cannot be made or used here, as a code and its
 * values: the core decides it (main/features/packages, `WorkPackageError.reason`), and keeps its
 * English sentence as the error's message (logs, the service's records); the CLI and the screens
 * say it in the reader's language from the core catalog (`core:package.*`).
 *
 * Values are data (names, keys, fingerprints, addresses) and stay as they are. A few carry another
 * part's own sentence (`serviceMessage`, `example`, `notice`, `detail`): those stay as that part
 * said them.
 */
export type WorkPackageRefusal =
  // Confirmations carried back (confirmations-transfer.ts).
  | { kind: 'nothingToExport' }
  | { kind: 'confirmationsSignerNotRequired'; signer: string; required: string }
  | { kind: 'confirmationsWrongOrganization'; theirs: Origin; ours: Origin }
  | { kind: 'enrolmentRefused'; key: string; workstation: string; serviceMessage: string }
  | { kind: 'signerNotEnrolled'; key: string; workstation: string }
  // Making a package (export-package.ts).
  | { kind: 'noSuchConfiguration'; name: string; orgId: string }
  | { kind: 'ambiguousConfiguration'; name: string; count: number }
  | { kind: 'emptyConfiguration'; name: string }
  /** `example`: the first problem's own words, or null when the service named none. */
  | { kind: 'configurationIncomplete'; name: string; problems: number; example: string | null }
  | { kind: 'patchNotAsListed'; deviceType: string; fromVersion: string }
  | { kind: 'configFileSyncIdDiffers'; serial: string }
  | { kind: 'configFileOtherOrganization'; serial: string; orgId: string; expectedOrgId: string }
  | { kind: 'firmwareUnreachable'; serial: string; notice: string }
  | {
      kind: 'organizationKeyNotCertified';
      keyId: string;
      orgId: string;
      certifiedKeyId: string;
      certifiedOrgId: string;
    }
  | { kind: 'packageSignatureBroken'; detail: string }
  // Opening a package (import-package.ts).
  | { kind: 'packageSignerNotRequired'; signer: string; required: string }
  | { kind: 'packageWrongOrganization'; theirs: Origin; ours: Origin }
  | { kind: 'fingerprintNotTrustedRoot'; given: string; serviceUrl: string; trusted: string }
  | { kind: 'noTrustedRoot'; serviceUrl: string; orgId: string }
  | { kind: 'carriedRootNotGiven'; carried: string; given: string }
  | { kind: 'otherRootKey'; keyId: string; serviceUrl: string };

/** An organization at a service, as a package or a workstation names it. */
export interface Origin {
  orgId: string;
  serviceUrl: string;
}

/** The stable code of each refusal (docs/errors.md): what `--json`, scripts and the catalogue know. */
const CODES = {
  nothingToExport: 'WP_NOTHING_TO_EXPORT',
  confirmationsSignerNotRequired: 'WP_UNTRUSTED_SIGNER',
  confirmationsWrongOrganization: 'WP_WRONG_ORGANIZATION',
  enrolmentRefused: 'WP_UNTRUSTED_SIGNER',
  signerNotEnrolled: 'WP_UNTRUSTED_SIGNER',
  noSuchConfiguration: 'WP_NO_SUCH_CONFIGURATION',
  ambiguousConfiguration: 'WP_AMBIGUOUS_CONFIGURATION',
  emptyConfiguration: 'WP_EMPTY_CONFIGURATION',
  configurationIncomplete: 'WP_CONFIGURATION_INCOMPLETE',
  patchNotAsListed: 'WP_SERVICE_INCONSISTENT',
  configFileSyncIdDiffers: 'WP_SERVICE_INCONSISTENT',
  configFileOtherOrganization: 'WP_SERVICE_INCONSISTENT',
  firmwareUnreachable: 'WP_SERVICE_UNREACHABLE',
  organizationKeyNotCertified: 'WP_SERVICE_INCONSISTENT',
  packageSignatureBroken: 'WP_SERVICE_INCONSISTENT',
  packageSignerNotRequired: 'WP_UNTRUSTED_SIGNER',
  packageWrongOrganization: 'WP_WRONG_ORGANIZATION',
  fingerprintNotTrustedRoot: 'WP_ROOT_KEY_MISMATCH',
  noTrustedRoot: 'WP_NO_TRUSTED_ROOT',
  carriedRootNotGiven: 'WP_ROOT_KEY_MISMATCH',
  otherRootKey: 'WP_ROOT_KEY_MISMATCH',
} as const satisfies Record<WorkPackageRefusal['kind'], `WP_${string}`>;

export type WorkPackageRefusalCode = (typeof CODES)[keyof typeof CODES];

/** Every kind of refusal, for tests that ask each one in every language. */
export const WORK_PACKAGE_REFUSAL_KINDS = Object.keys(CODES) as ReadonlyArray<WorkPackageRefusal['kind']>;

export function workPackageRefusalCode(reason: WorkPackageRefusal): WorkPackageRefusalCode {
  return CODES[reason.kind];
}

/**
 * The refusal in words: English by default, which is the sentence the core's error says. "This
 * work package is for organization plant-7 at https://…, but this workstation works for …"
 */
export function workPackageRefusalText(reason: WorkPackageRefusal, words: Words = englishWords()): string {
  switch (reason.kind) {
    case 'confirmationsWrongOrganization':
    case 'packageWrongOrganization':
      return words.t(`core:package.${reason.kind}`, {
        orgId: reason.theirs.orgId,
        serviceUrl: reason.theirs.serviceUrl,
        ourOrgId: reason.ours.orgId,
        ourServiceUrl: reason.ours.serviceUrl,
      });
    case 'configurationIncomplete':
      return words.t('core:package.configurationIncomplete', {
        name: reason.name,
        problems: reason.problems,
        hasExample: reason.example === null ? 'no' : 'yes',
        example: reason.example ?? '',
      });
    default: {
      const { kind, ...values } = reason;
      return words.t(`core:package.${kind}`, values);
    }
  }
}
