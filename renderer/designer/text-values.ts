import { violation, type Violation } from '../../domain/violations';
import { fieldLabel } from '../../domain/field-labels';

/**
 * Inputs hold text; payloads want numbers and lists. These turn one into the other and report
 * text that is not a number as a violation of that field, so it shows beside it like any rule.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; violation: Violation };

export function parseInteger(text: string, field: string): Parsed<number> {
  const trimmed = text.trim();
  // Allow hexadecimal for PGNs (0xFF01), as the interface writes them.
  const value = /^0x[0-9a-f]+$/i.test(trimmed) ? Number.parseInt(trimmed.slice(2), 16) : /^-?\d+$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isSafeInteger(value)) {
    return { ok: false, violation: violation('INVALID_INTEGER', field, `${fieldLabel(field)} must be a whole number, not '${trimmed}'.`) };
  }
  return { ok: true, value };
}

export function parseDecimal(text: string, field: string): Parsed<number> {
  const trimmed = text.trim();
  const value = /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : NaN;
  if (!Number.isFinite(value)) {
    return { ok: false, violation: violation('INVALID_TYPE', field, `${fieldLabel(field)} must be a number such as 0.5, not '${trimmed}'.`) };
  }
  return { ok: true, value };
}

/** "1, 2,3" → [1, 2, 3]; each entry must be a whole number. */
export function parseIntegerList(text: string, field: string): Parsed<number[]> {
  const parts = text
    .split(/[,\s]+/)
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const values: number[] = [];
  for (const [index, part] of parts.entries()) {
    const parsed = parseInteger(part, `${field}.${index}`);
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
