import type { CommissioningState, CommissioningStep } from '../../../domain/ledger-commissioning';
import type { ReportParameters } from './report-parameters';

/**
 * The commissioning report: what was done to each device of a configuration, and what proves it.
 * Made from the service's records and this workstation's ledger; rendered as JSON or PDF. Every
 * ledger hash in it can be looked up later with `provisioner ledger verify`.
 */
export const REPORT_FORMAT = 'provisioner-commissioning-report/1';

export interface ReportSafetyParameter {
  field: string;
  label: string;
  value: string;
}

export interface ReportDevice {
  serialNumber: string;
  name: string;
  deviceType: string;
  model: string | null;
  firmware: {
    version: string | null;
    /** SHA-256 of the image the version is made of, from the ledger entry of its install, else the verified bundle in the cache; null when neither says. */
    imageSha256: string | null;
    /** The release key that signed the image: "name (key id)". */
    signedBy: string | null;
    installedAt: string | null;
    /** Who was signed in when it was installed (the ledger entry's actor: the API key's name). */
    installedBy: string | null;
  };
  configuration: {
    syncId: string | null;
    /** The service's deploy status: Deployed, Outdated, Failed, … */
    deployStatus: string;
    appliedAt: string | null;
    appliedBy: string | null;
    workstation: string | null;
  };
  functionTest: {
    result: 'pass' | 'fail' | null;
    at: string | null;
    note: string | null;
    reactions: string | null;
    maxReactionMs: number | null;
    workstation: string | null;
    /** Who was signed in when it was recorded (the ledger entry's actor). */
    by: string | null;
  };
  commissioning: CommissioningState;
  /** The steps it still needs, in order; empty when commissioned. */
  missingSteps: CommissioningStep[];
  /** The parameters verified after the apply (issue 26); null when none were read back since. */
  parameters: ReportParameters | null;
  /** The ledger entries this device's lines come from. */
  ledgerHashes: { firmwareInstall: string | null; configurationApply: string | null; functionTest: string | null };
  /** The same entries with the parameter verification, each with its number in the ledger: what the appendix lists for `ledger verify --entry`. */
  ledgerEntries: ReportLedgerEntry[];
}

/** One ledger entry a device's lines come from. */
export interface ReportLedgerEntry {
  step: 'firmware install' | 'configuration apply' | 'parameter verification' | 'function test';
  seq: number;
  hash: string;
  at: string;
}

/** A person named in the ledger entries the report is made from, and what they did. */
export interface ReportPerson {
  name: string;
  /** "confirmed the parameters", or "signed in" for the key's name an action was done under. */
  role: 'confirmed the parameters' | 'signed in';
  serialNumbers: string[];
}

export interface CommissioningReport {
  format: typeof REPORT_FORMAT;
  generatedAt: string;
  /** The IANA time zone the PDF states times in: the workstation's, where the work was done. */
  timeZone: string;
  /** The workstation that made the report. */
  workstation: string;
  service: string;
  orgId: string;
  configuration: { id: string; name: string };
  safetyParameters: ReportSafetyParameter[];
  devices: ReportDevice[];
  /** Who did the work, from the ledger: the persons who confirmed parameters first, then the keys signed in. */
  people: ReportPerson[];
  /**
   * The ledger as the report read it, from its head back (issue 30): `headSeq` and `head` are the
   * head it was made from (the last entry's number and hash), `fromSeq` the oldest entry it read
   * (entry K), `entries` how many of this workstation's entries it read. `intact`: every link from
   * entry K to the head holds and the head is the one the last append sealed; what lies before K
   * was not read (`ledger verify` checks the whole ledger). `broken`: the newest link that does not.
   */
  ledger: { entries: number; fromSeq: number; intact: boolean; headSeq: number; head: string; broken: string | null };
}
