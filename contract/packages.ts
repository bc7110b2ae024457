import { z } from 'zod';
import type { WorkPackageBody } from '../domain/files/work-package';
import type { CarriedConfirmation, WorkConfirmationsBody } from '../domain/files/work-package-confirmations';
import { command, noInput, query } from './channel-spec';

/** A work package made for the renderer to save (docs/work-packages.md). */
export interface WorkPackageFileView {
  /** What to name the file when saved, e.g. `Loader-7-remote-ISM-2026-03-02.provisioner-package`. */
  fileName: string;
  /** The signed file, base64: the renderer saves it as it is. */
  contentBase64: string;
  sizeBytes: number;
  packageId: string;
  configurationName: string;
  deviceCount: number;
  firmwareCount: number;
  expiresAt: string;
  /** The id of the organization's key that signed it (on the service). */
  signerKeyId: string;
  /**
   * The fingerprint of the service's root key: what a laptop never signed in there is given with
   * the package, by another road than the package (package import --root-fingerprint).
   */
  rootFingerprint: string;
}

/** Work packages for plants without network. */
export const PACKAGE_CHANNELS = {
  'packages.export': command(
    z
      .object({
        configurationId: z.string().min(1),
        expiresInDays: z.number().int().min(1).max(365).default(30),
      })
      .strict(),
  ).returns<WorkPackageFileView>(),
} as const;
export type PackageChannel = keyof typeof PACKAGE_CHANNELS;

/**
 * A work package made for a host that writes the file itself and prints what it holds (the CLI's
 * `package export`): the signed bytes and the body whole.
 */
export interface WorkPackageExportView {
  /** The signed file, base64, to be written as it is. */
  contentBase64: string;
  body: WorkPackageBody;
  /** The id of the organization's key that signed it (on the service). */
  signerKeyId: string;
}

/** A work package checked and kept (`package import`): what it brought and where it was kept. */
export interface WorkPackageImportView {
  body: WorkPackageBody;
  /** The organization key that signed it. */
  signerKeyId: string;
  /** Whether this laptop took its root key from the package now (by the fingerprint given). */
  rootAdopted: boolean;
  firmware: Array<{ deviceType: string; version: string; sha256: string }>;
  /** Patches the package carries, and how many of them the cache's patch store kept. */
  patches: { carried: number; kept: number };
  configFiles: Array<{ serialNumber: string; syncId: string; kept: 'imported' | 'newer-already-kept' }>;
  /** The account whose caches hold the files: the login's, or (not signed in) the package's origin. */
  account: { serviceUrl: string; orgId: string };
  /** Whether a service login was kept here when it was imported. */
  signedIn: boolean;
}

/** The confirmations waiting in the outbox, signed into a file to carry to a workstation online. */
export interface ConfirmationsExportView {
  /** The signed file, base64, to be written as it is. */
  contentBase64: string;
  body: WorkConfirmationsBody;
  /** The id of this workstation's ledger key that signed it. */
  signerKeyId: string;
}

export type DeliveryOutcome =
  /** The service has it: recorded now, or recorded before (a replay of this file, or the laptop's outbox got there first). */
  | { id: string; serialNumber: string; kind: CarriedConfirmation['kind']; outcome: 'delivered' }
  /** The service said no for good (e.g. the device is no longer registered); the message says why. */
  | { id: string; serialNumber: string; kind: CarriedConfirmation['kind']; outcome: 'refused'; message: string }
  /** Not sent: the service could not be reached (or is failing for now). Import the file again later. */
  | { id: string; serialNumber: string; kind: CarriedConfirmation['kind']; outcome: 'not-sent'; message: string }
  /** For another service or organization than this workstation's: left for a workstation of that one. */
  | { id: string; serialNumber: string; kind: CarriedConfirmation['kind']; outcome: 'other-organization' };

/** What importing a confirmations file delivered (`package import-confirmations`). */
export interface DeliveryReport {
  exportId: string;
  workstation: string;
  signerKeyId: string;
  ledgerEntries: number;
  /**
   * The carried ledger entries of this organization, sent to its chain on the service: how many it
   * took, how many it had, how many were withheld as changed (their hash or signature fails); or
   * why they could not be sent. Undefined when the file carries none or the service was unreachable.
   */
  ledger?: { received: number; known: number; withheld: number } | { error: string };
  /**
   * The head the file carries (the laptop's ledger when it exported), and why the carried ledger
   * does not reach it, when it does not (entries cut from its end); null when the file carries none.
   */
  ledgerHead: { seq: number; hash: string; fault?: string } | null;
  outcomes: DeliveryOutcome[];
}

/** The fingerprint of the service root key this workstation trusts for the account it works for. */
export interface RootFingerprintView {
  /** SHA-256 of the key, 64 hex digits; null when no key is kept for the account (or it works for the local workspace). */
  rootFingerprint: string | null;
}

/** A signed file as it travels: base64. An empty one is let through for the file's own check to say what it is not. */
const signedFileBase64 = z
  .string()
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'not base64: pass the signed file as base64' });

/** The key id that must have signed the file, when one is required (compared as given: one that differs is refused by name). */
const requiredSigner = z.string().max(1000, { message: "a signer's key id: at most 1000 characters" }).optional();

/**
 * Work packages for a host that reads and writes the files itself (the CLI's `package …`). Served
 * by createCliCore; the app serves `packages.exportByName` and `packages.importConfirmations` too
 * (docs/architecture.md, "The CLI").
 */
export const PACKAGE_FILE_CHANNELS = {
  /** A package for the configuration of this name, valid for expiresInDays (the service's default when absent). */
  'packages.exportByName': command(
    z
      .object({
        configurationName: z.string().min(1, { message: 'name the configuration to export' }),
        expiresInDays: z
          .number({ message: 'days a package is valid: a whole number of 1 or more' })
          .int({ message: 'days a package is valid: a whole number of 1 or more' })
          .min(1, { message: 'days a package is valid: a whole number of 1 or more' })
          .optional(),
      })
      .strict(),
  ).returns<WorkPackageExportView>(),
  /**
   * Checks a package (signature under a trusted root, every byte, expiry, organization) and keeps
   * its files for the login's account, or, not signed in, for its origin's, offline. The root key
   * is taken from a package only by `rootFingerprint` (the SHA-256 fingerprint, 64 hex digits).
   */
  'packages.import': command(
    z
      .object({
        contentBase64: signedFileBase64,
        signer: requiredSigner,
        rootFingerprint: z
          .string()
          .regex(/^[0-9a-f]{64}$/, { message: 'a root key fingerprint: 64 lowercase hex digits' })
          .optional(),
      })
      .strict(),
  ).returns<WorkPackageImportView>(),
  /** Signs what waits in the outbox (with the enrolment grants carried and the ledger) into a file; the outbox keeps it. */
  'packages.exportConfirmations': command(noInput).returns<ConfirmationsExportView>(),
  /** Checks a confirmations file and delivers each confirmation for the account's service once. */
  'packages.importConfirmations': command(
    z.object({ contentBase64: signedFileBase64, signer: requiredSigner }).strict(),
  ).returns<DeliveryReport>(),
  /**
   * What a technician reads to a colleague whose laptop was never signed in (`package import
   * --root-fingerprint`): asked of the service once, quickly, when signed in (and kept), else the key
   * kept for the work package's account. Opens no local workspace.
   */
  'packages.rootFingerprint': query(noInput).returns<RootFingerprintView>(),
} as const;
export type PackageFileChannel = keyof typeof PACKAGE_FILE_CHANNELS;
