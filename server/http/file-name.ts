/** Longer names are cut: no client needs more, and a header line stays short. */
const MAX_FILE_NAME_LENGTH = 128;

/**
 * A download's file name (Content-Disposition) that a client may save as it is: only letters,
 * digits, dots, dashes and underscores (no path separator, quote, control or non-ASCII character,
 * each of which becomes '_'), never starting with a dot (a hidden file, or '..'). The names come
 * from data (a firmware version an operator imported, a serial number of the manufacturing
 * records), which nothing else keeps to this form.
 */
export function safeFileName(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]/g, '_')
    .replace(/^\.+/, (dots) => '_'.repeat(dots.length))
    .slice(0, MAX_FILE_NAME_LENGTH);
  return safe === '' ? 'download' : safe;
}
