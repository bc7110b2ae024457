import type { ConfigurationConfirmationInput, FirmwareConfirmationInput } from './confirmations';
import { englishWords, type Words } from './domain-words';

/**
 * What an outbox entry confirms, in one line: "Firmware 1.1.0 applied", "Configuration 3f9a0c12
 * observed", "Configuration failed: device refused the file". The Outbox screen and `outbox list`
 * say it in the reader's language from the domain catalog (`confirmation.*`); the version, the
 * syncId's start and the device's error are data, shown as they are.
 */
export interface ConfirmationSummary {
  kind: 'firmware' | 'configuration';
  /** `observed`: a device was seen running it, which no job of ours applied. */
  outcome: 'applied' | 'observed' | 'failed';
  /** The firmware version, or the syncId's first 8 characters; null when not known. */
  subject: string | null;
  /** A failure's error as the device or job gave it; null when none was given. */
  error: string | null;
}

/** The summary of a confirmation's payload, as the outbox keeps it. */
export function confirmationSummaryOf(
  confirmation:
    | { kind: 'firmware'; payload: FirmwareConfirmationInput }
    | { kind: 'configuration'; payload: ConfigurationConfirmationInput },
): ConfirmationSummary {
  const done = confirmation.payload.reason === 'observation' ? 'observed' : 'applied';
  if (confirmation.kind === 'firmware') {
    const p = confirmation.payload;
    return {
      kind: 'firmware',
      outcome: p.firmwareFileSuccessfullyDeployed === true ? done : 'failed',
      subject: p.firmwareVersion ?? null,
      error: p.firmwareFileSuccessfullyDeployed === true ? null : (p.error ?? null),
    };
  }
  const p = confirmation.payload;
  return {
    kind: 'configuration',
    outcome: p.configurationFileSuccessfullyDeployed === true ? done : 'failed',
    subject: p.syncId.slice(0, 8),
    error: p.configurationFileSuccessfullyDeployed === true ? null : (p.error ?? null),
  };
}

/** The line in the reader's words; English by default, which the core's view sends as `summary`. */
export function confirmationSummaryText(summary: ConfirmationSummary, words: Words = englishWords()): string {
  if (summary.outcome === 'failed')
    return words.t('domain:confirmation.failed', {
      kind: summary.kind,
      error: summary.error ?? words.t('domain:confirmation.noReason'),
    });
  return words.t('domain:confirmation.done', {
    kind: summary.kind,
    subject: summary.subject ?? '?',
    outcome: summary.outcome,
  });
}
