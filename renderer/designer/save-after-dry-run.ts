import type { Violation } from '../../domain/violations';
import { errorText, violationsOf } from '../api/client';

/** Where a designer form shows what the service said instead of saving. */
export interface SaveFeedback {
  setServiceViolations(violations: Violation[]): void;
  setServiceError(text: string): void;
}

/**
 * Saves as the designer's forms do: a dry run first, so the service's own rules (it knows things
 * the renderer does not, such as other configurations) show beside their fields before anything
 * is written; then the write. Resolves true once written; otherwise the service's violations or
 * its error went to the form and nothing changed.
 */
export async function saveAfterDryRun(
  write: (dryRun: boolean) => Promise<{ violations: Violation[] }>,
  feedback: SaveFeedback,
): Promise<boolean> {
  try {
    for (const dryRun of [true, false]) {
      const outcome = await write(dryRun);
      if (outcome.violations.length > 0) {
        feedback.setServiceViolations(outcome.violations);
        return false;
      }
    }
    return true;
  } catch (err) {
    const violations = violationsOf(err);
    if (violations.length > 0) feedback.setServiceViolations(violations);
    else feedback.setServiceError(errorText(err));
    return false;
  }
}
