import { CATALOGS, SOURCE_LANGUAGE, type Translator } from '../../domain/i18n/index.js';
import { fieldLabel } from '../../domain/field-labels';
import { violation, type Violation, type ViolationCode } from '../../domain/violations';

/**
 * A broken rule in the reader's language. The domain and the service phrase their violations in
 * English, with a stable code; the screens say them by that code (`designer:violation.<CODE>`,
 * naming the field in the reader's words). English keeps the domain's own message, which often
 * says more (the value typed, the range allowed); a code with no translation keeps it too.
 * Violations the designer makes itself are already in the reader's language (`readerViolation`).
 */

const inReadersLanguage = new WeakSet<Violation>();
const DEVICE_FIELD = /^devices\.([^.]+)/;

/** A violation the renderer words itself, in the reader's language: shown as it is. */
export function readerViolation(code: ViolationCode, field: string, message: string): Violation {
  const made = violation(code, field, message);
  inReadersLanguage.add(made);
  return made;
}

export function hasViolationText(code: string): boolean {
  return Object.hasOwn(CATALOGS.en.designer, `violation.${code}`);
}

export function violationText(found: Violation, words: Pick<Translator, 't' | 'locale' | 'language'>): string {
  if (inReadersLanguage.has(found) || words.language === SOURCE_LANGUAGE || !hasViolationText(found.code))
    return found.message;
  // A rule about one device of a configuration names it (its field is 'devices.<serial>…'); beside the device's own form it need not.
  const device = DEVICE_FIELD.exec(found.field)?.[1] ?? 'none';
  return words.t(`designer:violation.${found.code}`, { field: fieldLabel(found.field, words), device });
}

/** The same violations with their messages in the reader's language (fields and codes unchanged). */
export function inReaderLanguage(
  violations: readonly Violation[],
  words: Pick<Translator, 't' | 'locale' | 'language'>,
): Violation[] {
  return violations.map((found) => ({ ...found, message: violationText(found, words) }));
}
