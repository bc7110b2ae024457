import { z } from 'zod';

/**
 * The longest text the service accepts in each field it stores or looks up, in characters. The
 * interface names no limits; these are far above any real value (a device name, a Wi-Fi password,
 * the error line of a failed apply) and far below what would let one request fill the database or
 * every list a client reads. docs/service-api.md "Limits" lists them.
 */
export const TEXT_LIMITS = {
  /** Configuration, device and IP network template names. */
  name: 100,
  serialNumber: 64,
  firmwareVersion: 64,
  /** What went wrong with an apply, as a confirmation reports it. */
  applyError: 4000,
  wifiSsid: 64,
  wifiPassword: 128,
  /** RFC 5321's longest path. */
  email: 254,
  /** An IPv4 address or netmask, which has at most 15 characters when valid. */
  address: 64,
  /** The search and name filters of the lists. */
  search: 100,
} as const;

/**
 * A text of at most `max` characters. A longer one is refused as TEXT_TOO_LONG before any other
 * rule reads it, so no message quotes it and nothing stores it.
 */
export function boundedText(max: number) {
  return z.string().superRefine((text, ctx) => {
    if (text.length <= max) return;
    ctx.addIssue({
      code: 'custom',
      message: `This text has ${text.length} characters; at most ${max} are accepted here.`,
      params: { code: 'TEXT_TOO_LONG' },
      continue: false,
    });
  });
}

/** The longest part of a value a message quotes back: enough to recognise it, never the whole of a huge one. */
const QUOTE_LENGTH = 60;

/** `value` as JSON for a message, cut to a recognisable start when it is long. */
export function quoteForMessage(value: unknown): string {
  const text = typeof value === 'string' && value.length > QUOTE_LENGTH ? `${value.slice(0, QUOTE_LENGTH)}…` : value;
  const json = JSON.stringify(text) ?? String(text);
  return json.length > QUOTE_LENGTH * 2 ? `${json.slice(0, QUOTE_LENGTH * 2)}…` : json;
}
