import { z } from 'zod';

/**
 * How one channel is declared: its kind, the zod schema its input is parsed with on the receiving
 * end, and its result type.
 * - a `query` reads and may be repeated freely; a `command` changes something.
 * - the receiving end (main, or the web server) parses every input before the core sees it,
 *   because a renderer is untrusted.
 */
export interface ChannelSpec<K extends 'command' | 'query', I extends z.ZodType, R> {
  kind: K;
  input: I;
  /** Type-only: never set at runtime. */
  readonly result?: R;
}

export type AnyChannelSpec = ChannelSpec<'command' | 'query', z.ZodType, unknown>;

export function query<I extends z.ZodType>(input: I) {
  return { returns: <R>(): ChannelSpec<'query', I, R> => ({ kind: 'query', input }) };
}

export function command<I extends z.ZodType>(input: I) {
  return { returns: <R>(): ChannelSpec<'command', I, R> => ({ kind: 'command', input }) };
}

/** The input of a channel that takes none: an empty object, nothing else. */
export const noInput = z.object({}).strict();
