import { deviceTypeSchema } from '../../domain/device-types';
import type { ManufacturingRecord } from '../store/manufacturing';

export const MANUFACTURING_HEADER = ['serialNumber', 'deviceType', 'model'] as const;
const SERIAL_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Splits one CSV line; fields may be quoted with "" (and "" inside a quoted field is a quote). */
function splitLine(line: string): string[] | undefined {
  const fields: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      while (true) {
        if (i >= line.length) return undefined;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') return undefined;
      i++;
    } else {
      const end = line.indexOf(',', i);
      const stop = end < 0 ? line.length : end;
      fields.push(line.slice(i, stop));
      i = stop + 1;
    }
  }
  return fields.map((field) => field.trim());
}

/** The header line's problem, if any (a byte-order mark before it is allowed). */
export function headerProblem(line: string): string | undefined {
  const header = splitLine(line.replace(/^\uFEFF/, ''));
  if (header && header.join(',') === MANUFACTURING_HEADER.join(',')) return undefined;
  return `line 1: the header must be exactly "${MANUFACTURING_HEADER.join(',')}", found "${line}"`;
}

/**
 * One data line: its record, what is wrong with it (with its line number), or nothing for a blank
 * line. Duplicates across lines are the caller's to find (the streaming import remembers serial
 * numbers in its transaction, not in memory).
 */
export function parseRecordLine(
  line: string,
  lineNumber: number,
): { record: ManufacturingRecord } | { error: string } | undefined {
  if (line.trim() === '') return undefined;
  const fields = splitLine(line);
  if (!fields) return { error: `line ${lineNumber}: unbalanced quotes` };
  if (fields.length !== 3)
    return { error: `line ${lineNumber}: expected 3 fields (serialNumber,deviceType,model), found ${fields.length}` };
  const [serialNumber = '', deviceType = '', model = ''] = fields;
  const problems: string[] = [];
  if (!SERIAL_NUMBER.test(serialNumber))
    problems.push(`serial number "${serialNumber}" must be 1 to 64 letters, digits, dots, dashes or underscores`);
  const type = deviceTypeSchema.safeParse(deviceType.toUpperCase());
  if (!type.success) problems.push(`device type "${deviceType}" is not one of ${deviceTypeSchema.options.join(', ')}`);
  if (model === '') problems.push('the model is empty');
  if (problems.length > 0 || !type.success) return { error: `line ${lineNumber}: ${problems.join('; ')}` };
  return { record: { serialNumber, deviceType: type.data, model } };
}
