import type { LedgerVerifyProgress } from '../../../contract/ledger';
import type { Output } from './output';

/**
 * Shows how far `ledger verify` is, for a ledger long enough that a person waits (100,000 entries
 * take seconds): one line on stderr at a terminal, rewritten in place and cleared at the end; with
 * --json, JSON lines on stderr (`{"event":"progress","stage":"local","checked":…,"total":…}`),
 * once per percent so a machine reading them is not flooded, while stdout stays the one result
 * object; nothing when the output is a file or a pipe, whose reader wants the result only.
 */
export interface LedgerProgressView {
  onProgress(progress: LedgerVerifyProgress): void;
  /** Clears the terminal line; call before the result is printed. */
  close(): void;
}

const STAGE_TEXT = {
  read: 'Reading the local ledger…',
  service: "Checking the organization's chain on the service…",
} as const;

export function ledgerProgressView(out: Output): LedgerProgressView {
  let lastPercent = -1;
  let lastStage: LedgerVerifyProgress['stage'] | undefined;
  /** Whether this progress is worth saying: each stage once, and the local check once per percent. */
  const news = (progress: LedgerVerifyProgress): boolean => {
    const stageChanged = progress.stage !== lastStage;
    lastStage = progress.stage;
    if (progress.stage !== 'local') return stageChanged;
    const percent = progress.total === 0 ? 100 : Math.floor((progress.checked * 100) / progress.total);
    if (!stageChanged && percent === lastPercent) return false;
    lastPercent = percent;
    return true;
  };
  switch (out.mode) {
    case 'json':
      // On stderr: stdout stays the one result object that scripts parse whole.
      return {
        onProgress: (progress) =>
          news(progress) && out.io.stderr.write(`${JSON.stringify({ event: 'progress', ...progress })}\n`),
        close: () => undefined,
      };
    case 'tty': {
      let drawn = false;
      const draw = (text: string) => {
        out.io.stderr.write(`\r\u001b[2K${text}`);
        drawn = true;
      };
      return {
        onProgress(progress) {
          if (!news(progress)) return;
          if (progress.stage === 'local')
            draw(
              `Checking the local ledger: ${progress.checked.toLocaleString('en')} of ${progress.total.toLocaleString('en')} lines (${lastPercent}%)`,
            );
          else draw(STAGE_TEXT[progress.stage]);
        },
        close() {
          if (drawn) out.io.stderr.write('\r\u001b[2K');
          drawn = false;
        },
      };
    }
    case 'plain':
      return { onProgress: () => undefined, close: () => undefined };
  }
}
