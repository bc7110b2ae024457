import { z } from 'zod';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../domain/i18n/languages.js';
import type { FunctionTestFailReason } from '../domain/function-test-words';
import type { CommissioningState, CommissioningStep } from '../domain/ledger-commissioning';
import { command, query } from './channel-spec';
import { CoreError, type ErrorCode } from './errors';

/** The language a report is written in: one the product speaks (or the pseudo-locale, for tests); English when not given. */
export const reportLanguageSchema = z.enum([...LANGUAGES, PSEUDO_LANGUAGE]);

/** One receiver's reaction, as the core observed it. */
export interface ReceiverReactionView {
  serialNumber: string;
  tripped: boolean;
  /** From the press to this receiver's trip, observed by the core; null when it did not trip. */
  reactionMs: number | null;
}

/**
 * What the core observed during one press, whole, as `device function-test --json` prints it: how
 * the watch ended, when the press was seen and who each receiver says tripped it.
 */
export interface FunctionTestObservationRecord {
  pressed: boolean;
  ended: 'pressed' | 'timed-out' | 'stopped';
  /** When the press was seen (ISO 8601), null when it was not. */
  pressedAt: string | null;
  receivers: (ReceiverReactionView & { trippedBy: string | null })[];
  unreachable: { serialNumber: string; reason: string }[];
}

/** The watch of a function test is ready: the technician may press the E-stop now. */
export interface FunctionTestReadyView {
  serialNumber: string;
  configurationName: string;
  /** The receivers watched, by serial number. */
  receivers: string[];
}

/** What the core saw during one press of the E-stop, kept until the technician records a verdict. */
export interface FunctionTestObservationView {
  observationId: string;
  serialNumber: string;
  configurationName: string;
  pressed: boolean;
  receivers: ReceiverReactionView[];
  /** Receivers of the configuration that could not be watched: they count as not tripped. */
  unreachable: { serialNumber: string; reason: string }[];
  /** Why it fails already, whatever the technician says (no press, a receiver that did not trip). */
  failsBecause: string[];
  /** The same as codes and values, said in the reader's language (functionTestReasonsText). */
  failReasons?: FunctionTestFailReason[];
  /** "not done: timed out" / "not done: stopped" when the watch ended with no press; null otherwise. */
  notDone: string | null;
  /** A test not done is recorded by the core at once (a failure); null when it waits for the technician's verdict. */
  recorded: FunctionTestRecordView | null;
  /** The observation whole (the fields above are drawn from it). */
  observation?: FunctionTestObservationRecord;
}

/** Whether a device is commissioned by this workstation's ledger, and which steps it still needs. */
export interface CommissioningView {
  state: CommissioningState;
  missing: CommissioningStep[];
}

/** Why a function test cannot start, as a code a host says in its reader's language. */
export type FunctionTestRefusal = 'notRegistered' | 'noConfiguration' | 'notAttached';

/**
 * A function test refused before anything was watched: the CoreError the app gets (its code and
 * English message), with the reason as a code for a host in the same process (the command line,
 * which says it in the run's language). A bridge passes only the CoreError's fields.
 */
export class FunctionTestRefusedError extends CoreError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly refusal: FunctionTestRefusal,
    readonly serialNumber: string,
  ) {
    super(code, message);
  }
}

/** A function test as recorded in the ledger. */
export interface FunctionTestRecordView {
  serialNumber: string;
  result: 'pass' | 'fail';
  reasons: string[];
  /** The same as codes and values, said in the reader's language (functionTestReasonsText). */
  failReasons?: FunctionTestFailReason[];
  note: string;
  commissioning: CommissioningView;
  ledgerSeq: number;
  ledgerHash: string;
  /** The commissioning state in words, in the language asked for (English: the ledger's own words). */
  commissioningText?: string;
  /** Whether the organization's chain got the entry at once; absent when the host does not wait for it (the app). */
  sentToService?: boolean;
}

/** A commissioning report made for the renderer to save. */
export interface CommissioningReportFileView {
  fileName: string;
  contentBase64: string;
  mediaType: 'application/pdf' | 'application/json';
  configurationName: string;
  deviceCount: number;
  commissionedCount: number;
  ledgerIntact: boolean;
  /** The devices not commissioned, each with its state in words in the report's language. */
  notCommissioned?: { serialNumber: string; status: string }[];
  /** Where the ledger's chain is broken when it is (ledgerIntact false), else null. */
  ledgerBroken?: string | null;
}

/** The function test after an apply, and the commissioning report (docs/ledger.md). */
export const ACCOUNTABILITY_CHANNELS = {
  /** Watches the device and its configuration's receivers until the E-stop is pressed, the wait ends (default 60 s) or the technician stops it. */
  'functionTest.observe': command(
    z
      .object({
        serialNumber: z.string().min(1).max(64),
        // At most what a timer can wait (about 24 days): the command line takes any wait.
        pressTimeoutSeconds: z.number().int().min(1).max(2_147_483).default(60),
        // Where the device under test is, named by the host (`device function-test --link`); the
        // attached devices are not looked through then, so its receivers count as not attached.
        link: z.string().min(1).max(512).optional(),
        // false: a test not done waits for the technician's verdict too (the command line asks for it either way).
        recordNotDone: z.boolean().default(true),
      })
      .strict(),
  ).returns<FunctionTestObservationView>(),
  /** Ends a running watch of the device at once: the test is recorded as "not done: stopped" (when no press was seen yet). */
  'functionTest.stop': command(z.object({ serialNumber: z.string().min(1).max(64) }).strict()).returns<{
    stopped: boolean;
  }>(),
  /** Records the observed test with the technician's verdict and note in the ledger. */
  'functionTest.record': command(
    z
      .object({
        observationId: z.string().min(1),
        // Absent: what was observed decides alone (a script's `device function-test` without
        // --result); only a host that allows it may leave it out, the app's dialog always asks.
        technician: z.enum(['pass', 'fail']).optional(),
        note: z.string().max(2000).default(''),
        // The language of the record's commissioningText; English when not given.
        language: reportLanguageSchema.optional(),
      })
      .strict(),
  ).returns<FunctionTestRecordView>(),
  /** Which of these devices wait for their function test: the last entry of each in this workstation's ledger is a successful configuration apply. */
  'functionTest.due': query(
    z.object({ serialNumbers: z.array(z.string().min(1).max(64)).max(10_000) }).strict(),
  ).returns<{
    serialNumbers: string[];
  }>(),
  'reports.commissioning': command(
    z
      .object({
        configurationId: z.string().min(1).optional(),
        // The configuration by its name instead (the command line's --configuration NAME).
        configurationName: z.string().min(1).max(2000).optional(),
        serialNumber: z.string().min(1).max(64).optional(),
        format: z.enum(['pdf', 'json']).default('pdf'),
        // The PDF's language (the app's); the JSON is the same in every language.
        language: reportLanguageSchema.optional(),
      })
      .strict()
      .refine((input) => (input.configurationId === undefined) !== (input.configurationName === undefined), {
        message: 'name the configuration by configurationId or by configurationName, one of the two',
        path: ['configurationId'],
      }),
  ).returns<CommissioningReportFileView>(),
} as const;
export type AccountabilityChannel = keyof typeof ACCOUNTABILITY_CHANNELS;
