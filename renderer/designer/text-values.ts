import type { Violation } from '../../domain/violations';
import { readerViolation } from '../components/violation-text';
import { fieldLabel } from '../../domain/field-labels';
import { englishWords, type Words } from '../../domain/domain-words';

/**
 * Inputs hold text; payloads want numbers and lists. These turn one into the other and report
 * text that is not a number as a violation of that field, so it shows beside it like any rule.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; violation: Violation };

export function parseInteger(text: string, field: string, words: Words = englishWords()): Parsed<number> {
  const trimmed = text.trim();
  // Allow hexadecimal for PGNs (0xFF01), as the interface writes them.
  const value = /^0x[0-9a-f]+$/i.test(trimmed)
    ? Number.parseInt(trimmed.slice(2), 16)
    : /^-?\d+$/.test(trimmed)
      ? Number(trimmed)
      : NaN;
  if (!Number.isSafeInteger(value)) {
    return {
      ok: false,
      violation: readerViolation(
        'INVALID_INTEGER',
        field,
        words.t('designer:value.notWholeNumber', { field: fieldLabel(field, words), text: trimmed }),
      ),
    };
  }
  return { ok: true, value };
}

export function parseDecimal(text: string, field: string, words: Words = englishWords()): Parsed<number> {
  const trimmed = text.trim();
  const value = /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(value)) {
    return {
      ok: false,
      violation: readerViolation(
        'INVALID_TYPE',
        field,
        words.t('designer:value.notDecimal', { field: fieldLabel(field, words), text: trimmed }),
      ),
    };
  }
  return { ok: true, value };
}

/** "1, 2,3" → [1, 2, 3]; each entry must be a whole number. */
export function parseIntegerList(text: string, field: string, words: Words = englishWords()): Parsed<number[]> {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const values: number[] = [];
  for (const [index, part] of parts.entries()) {
    const parsed = parseInteger(part, `${field}.${index}`, words);
    if (!parsed.ok) return parsed;
    values.push(parsed.value);
  }
  return { ok: true, value: values };
}

/** "8.8.8.8, 1.1.1.1" → ['8.8.8.8', '1.1.1.1']. */
export function parseTextList(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

export function listText(values: readonly (string | number)[] | null | undefined): string {
  return values ? values.join(', ') : '';
}

export function numberText(value: number | null | undefined): string {
  return value === null || value === undefined ? '' : String(value);
}
