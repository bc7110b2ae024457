import { deviceTypeSchema } from '../../domain/device-types';
import type { ManufacturingRecord } from '../store/manufacturing';

export const MANUFACTURING_HEADER = ['serialNumber', 'deviceType', 'model'] as const;
const SERIAL_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export interface CsvParse {
  records: ManufacturingRecord[];
  /** One message per bad line, with its line number as an editor shows it. */
  errors: string[];
}

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

/** Parses a manufacturing-records export: header `serialNumber,deviceType,model`, one device per line. */
export function parseManufacturingCsv(text: string): CsvParse {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const errors: string[] = [];
  const records: ManufacturingRecord[] = [];
  const header = splitLine(lines[0] ?? '');
  if (!header || header.join(',') !== MANUFACTURING_HEADER.join(',')) {
    return { records, errors: [`line 1: the header must be exactly "${MANUFACTURING_HEADER.join(',')}", found "${lines[0] ?? ''}"`] };
  }
  const seen = new Map<string, number>();
  lines.slice(1).forEach((line, index) => {
    const lineNumber = index + 2;
    if (line.trim() === '') return;
    const fields = splitLine(line);
    if (!fields) return errors.push(`line ${lineNumber}: unbalanced quotes`);
    if (fields.length !== 3) return errors.push(`line ${lineNumber}: expected 3 fields (serialNumber,deviceType,model), found ${fields.length}`);
    const [serialNumber = '', deviceType = '', model = ''] = fields;
    const problems: string[] = [];
    if (!SERIAL_NUMBER.test(serialNumber)) problems.push(`serial number "${serialNumber}" must be 1 to 64 letters, digits, dots, dashes or underscores`);
    const type = deviceTypeSchema.safeParse(deviceType.toUpperCase());
    if (!type.success) problems.push(`device type "${deviceType}" is not one of ${deviceTypeSchema.options.join(', ')}`);
    if (model === '') problems.push('the model is empty');
    const earlier = seen.get(serialNumber);
    if (earlier !== undefined) problems.push(`serial number ${serialNumber} is already on line ${earlier}`);
    if (problems.length > 0) return errors.push(`line ${lineNumber}: ${problems.join('; ')}`);
    seen.set(serialNumber, lineNumber);
    if (type.success) records.push({ serialNumber, deviceType: type.data, model });
  });
  return { records, errors };
}
