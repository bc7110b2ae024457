import { SOURCE_LANGUAGE } from '../../../domain/i18n/index.js';
import { syncDetailText, type SyncFinding } from '../../../domain/sync-detail';
import { cliTranslator } from './cli-language';

/**
 * A device's sync detail in the run's language (`device list`'s notes, `device verify`'s verdicts):
 * English keeps the core's own sentence; another language says the core's findings from the
 * catalogs (domain/sync-detail.ts). `--json` keeps the English text in every language.
 */
export function syncDetail(sync: { text: string; findings?: readonly SyncFinding[] }): string {
  const translator = cliTranslator();
  if (translator.language === SOURCE_LANGUAGE || !sync.findings) return sync.text;
  return syncDetailText(sync.findings, translator);
}
