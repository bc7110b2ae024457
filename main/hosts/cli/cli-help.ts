import type { Help } from 'commander';
import { displayWidth, wrapColumns } from '../../../domain/i18n/line-breaks.js';

/**
 * `--help` laid out for every language: commander counts one column per character and breaks
 * lines at spaces only, so a Chinese description (two columns a character, no spaces) ran past
 * the terminal's edge. These two methods of commander's Help measure a line as a terminal draws
 * it and break Chinese between characters, by the rules of domain/i18n/line-breaks.ts. Commander
 * still decides the width: the terminal's columns, or 80 when the output is not a terminal.
 *
 * Commander leaves a description unwrapped when its column is narrower than 40; `device --help`
 * has a term column of 40 (`configuration update [options] [serialNumbers...]`), which left a
 * 400-column line. Down to 20 columns a description still reads, in any of our languages.
 */
export function helpInColumns(): Pick<Help, 'displayWidth' | 'boxWrap' | 'minWidthToWrap' | 'styleUsage'> {
  return {
    minWidthToWrap: 20,
    displayWidth: (text: string) => displayWidth(text),
    boxWrap(this: Help, text: string, width: number): string {
      // Commander's own rule: too narrow a column is not worth wrapping.
      return width < this.minWidthToWrap ? text : wrapColumns(text, width);
    },
    // Commander never wraps the usage line; after a longer title ("Utilisation :") a long one ran
    // past the edge. It continues under itself, after the title.
    styleUsage(this: Help, usage: string): string {
      const indent = displayWidth(this.styleTitle('Usage:')) + 1;
      const width = (this.helpWidth ?? 80) - indent;
      if (width < this.minWidthToWrap) return usage;
      return wrapColumns(usage, width).replace(/\n/g, `\n${' '.repeat(indent)}`);
    },
  };
}
