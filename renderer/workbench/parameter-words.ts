import { parameterGroupLabel, parameterLabel } from '../../domain/parameter-labels';
import { parameterDefinition } from '../../domain/running-parameters';
import type { Words } from '../format/words';

/**
 * A parameter table's rows with each parameter and its group named in the reader's language (the
 * core names them in English, for the CLI and --json): from the row's key, through the domain's
 * parameter labels, so the Workbench, the Station and the reports name a parameter the same way.
 */
export function rowsInWords<R extends { key: string; group: string; label: string }>(rows: readonly R[], words: Words): R[] {
  return rows.map((row) => ({ ...row, label: parameterLabel(row.key, words), group: parameterGroupLabel(parameterDefinition(row.key).group, words) }));
}
