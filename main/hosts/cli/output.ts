import type { CliIo } from './io';

export type OutputMode = 'tty' | 'plain' | 'json';

/**
 * How the CLI speaks: results on stdout, notes and errors on stderr (one line each, prefixed so
 * a script can grep them), or JSON on stdout for machines.
 */
export class Output {
  constructor(
    readonly io: CliIo,
    readonly mode: OutputMode,
  ) {}

  get json(): boolean {
    return this.mode === 'json';
  }

  line(text = ''): void {
    this.io.stdout.write(`${text}\n`);
  }

  note(text: string): void {
    if (this.json) this.jsonLine({ event: 'note', message: text });
    else this.io.stderr.write(`note: ${text}\n`);
  }

  error(text: string): void {
    if (this.json) this.jsonLine({ event: 'error', message: text });
    else this.io.stderr.write(`error: ${text}\n`);
  }

  jsonLine(value: unknown): void {
    this.io.stdout.write(`${JSON.stringify(value)}\n`);
  }

  /** Columns padded to their widest cell; the last column is not padded. */
  table(headers: readonly string[], rows: readonly (readonly string[])[]): void {
    const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
    const format = (cells: readonly string[]) =>
      cells
        .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
        .join('  ')
        .trimEnd();
    this.line(format(headers));
    for (const row of rows) this.line(format(row));
  }
}

export function chooseMode(io: CliIo, json: boolean): OutputMode {
  if (json) return 'json';
  return io.stderr.isTTY && io.env.TERM !== 'dumb' && !io.env.CI ? 'tty' : 'plain';
}
