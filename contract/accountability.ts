import { z } from 'zod';
import { LANGUAGES, PSEUDO_LANGUAGE } from '../domain/i18n/languages.js';
import type { FunctionTestFailReason } from '../domain/function-test-words';
import type { CommissioningState, CommissioningStep } from '../domain/ledger-commissioning';
import { command } from './channel-spec';

/** The language a report is written in: one the product speaks (or the pseudo-locale, for tests); English when not given. */
export const reportLanguageSchema = z.enum([...LANGUAGES, PSEUDO_LANGUAGE]);

/** One receiver's reaction, as the core observed it. */
export interface ReceiverReactionView {
  serialNumber: string;
  tripped: boolean;
  /** From the press to this receiver's trip, observed by the core; null when it did not trip. */
  reactionMs: number | null;
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
}

/** Whether a device is commissioned by this workstation's ledger, and which steps it still needs. */
export interface CommissioningView {
  state: CommissioningState;
  missing: CommissioningStep[];
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
}

/** The function test after an apply, and the commissioning report (docs/ledger.md). */
export const ACCOUNTABILITY_CHANNELS = {
  /** Watches the device and its configuration's receivers until the E-stop is pressed, the wait ends (default 60 s) or the technician stops it. */
  'functionTest.observe': command(
    z
      .object({
        serialNumber: z.string().min(1).max(64),
        pressTimeoutSeconds: z.number().int().min(1).max(600).default(60),
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
        technician: z.enum(['pass', 'fail']),
        note: z.string().max(2000).default(''),
      })
      .strict(),
  ).returns<FunctionTestRecordView>(),
  'reports.commissioning': command(
    z
      .object({
        configurationId: z.string().min(1),
        serialNumber: z.string().min(1).max(64).optional(),
        format: z.enum(['pdf', 'json']).default('pdf'),
        // The PDF's language (the app's); the JSON is the same in every language.
        language: reportLanguageSchema.optional(),
      })
      .strict(),
  ).returns<CommissioningReportFileView>(),
} as const;
export type AccountabilityChannel = keyof typeof ACCOUNTABILITY_CHANNELS;
