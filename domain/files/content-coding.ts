import { englishWords, type Words } from '../domain-words';

/**
 * How a firmware image travels to a device (docs/device-protocol.md 3.3, "Content codings"):
 * as it is, deflated (raw DEFLATE, RFC 1951, with a window no larger than the device's), or as a
 * deflated patch from the image the device runs. Whatever the coding, the device stores, hashes and
 * verifies the decoded image: the signed manifest covers the image, never the wire bytes.
 */
export const CONTENT_CODINGS = ['identity', 'deflate', 'delta'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** One coding a device says it can decode (GET /info `codings`). */
export interface AdvertisedCoding {
  name: string;
  /** deflate and delta: log2 of the largest DEFLATE window the device keeps (9 to 15). */
  windowBits?: number;
}

/**
 * A raw DEFLATE stream of some bytes (an image, or a patch) made ahead of time, once, where they
 * enter the firmware cache: denser than one made at upload time (zopfli, docs/decisions.md), and
 * valid for any device whose window is at least 2^windowBits bytes.
 */
export interface PrecodedStream {
  /** log2 of the largest distance the stream refers back: the window a decoder needs. */
  windowBits: number;
  bytes: Uint8Array;
}

/** Raw DEFLATE allows windows of 2^9 to 2^15 bytes (zlib's limits). */
export const MIN_WINDOW_BITS = 9;
export const MAX_WINDOW_BITS = 15;

export interface CodingChoice {
  coding: ContentCoding;
  /** For deflate and delta: the window the host must compress within. */
  windowBits?: number;
}

function usableWindow(advertised: AdvertisedCoding | undefined): number | undefined {
  const bits = advertised?.windowBits;
  if (bits === undefined || !Number.isInteger(bits) || bits < MIN_WINDOW_BITS) return undefined;
  return Math.min(bits, MAX_WINDOW_BITS);
}

/**
 * The best coding both sides have: delta when the device can apply a patch and the host holds one
 * from the image the device runs, else deflate, else identity. A device that advertises nothing (or
 * only codings this host does not know) gets identity, exactly as before codings existed.
 */
export function chooseCoding(
  advertised: readonly AdvertisedCoding[] | undefined,
  host: { patchForRunningImage: boolean },
): CodingChoice {
  const find = (name: ContentCoding) => advertised?.find((coding) => coding.name === name);
  const deltaWindow = usableWindow(find('delta'));
  if (host.patchForRunningImage && deltaWindow !== undefined) return { coding: 'delta', windowBits: deltaWindow };
  const deflateWindow = usableWindow(find('deflate'));
  if (deflateWindow !== undefined) return { coding: 'deflate', windowBits: deflateWindow };
  return { coding: 'identity' };
}

/**
 * How an upload travels, as codes and values: the coding, and how much sooner it ends than the
 * plain image would (image bytes per byte on the cable); null when it is hardly any sooner.
 */
export interface CodingTerms {
  coding: Exclude<ContentCoding, 'identity'>;
  factor: number | null;
}

export function codingTerms(
  coding: Exclude<ContentCoding, 'identity'>,
  imageBytes: number,
  wireBytes: number,
): CodingTerms {
  const factor = imageBytes / wireBytes;
  // An image that does not compress: "1.0× faster" would read as a promise.
  return { coding, factor: factor < 1.05 ? null : Math.round(factor * 10) / 10 };
}

/**
 * "compressed, 1.6× faster": how an upload travels, in a technician's words (issue 32), in the
 * reader's language (the domain catalog's `coding.*`). The factor has one decimal, not grouped.
 */
export function codingText(terms: CodingTerms, words: Words = englishWords()): string {
  return terms.factor === null
    ? words.t('domain:coding.noFaster', { coding: terms.coding })
    : words.t('domain:coding.faster', { coding: terms.coding, factor: factorText(terms.factor, words) });
}

/** The exact terms behind codingText's words, for a tooltip: "deflate (RFC 1951): each byte on the cable carries 1.6 bytes of the image…". */
export function codingDetailText(terms: CodingTerms, words: Words = englishWords()): string {
  return words.t('domain:coding.detail', {
    coding: terms.coding,
    faster: terms.factor === null ? 'no' : 'yes',
    factor: terms.factor === null ? '' : factorText(terms.factor, words),
  });
}

function factorText(factor: number, words: Words): string {
  return new Intl.NumberFormat(words.locale, {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
    useGrouping: false,
  }).format(factor);
}

/**
 * The core's English words for a running upload ("compressed, 1.6× faster", the job view's
 * `transferCoding`, which logs and `--json` read) back into terms, for a reader of another
 * language; null for a text the core did not make so. Only for a view from an older core, which
 * carried the words without `transferCodingTerms`.
 */
export function parseCodingText(text: string): CodingTerms | null {
  const match = /^(compressed|changes only), (?:(\d+(?:\.\d+)?)× faster|no faster)$/.exec(text);
  if (!match) return null;
  return { coding: match[1] === 'compressed' ? 'deflate' : 'delta', factor: match[2] ? Number(match[2]) : null };
}

/** The terms of an upload under way (the job view's `transferCodingTerms`); null when the image travels as it is. */
export function uploadCodingTerms(coding: ContentCoding, imageBytes: number, wireBytes: number): CodingTerms | null {
  if (coding === 'identity' || wireBytes <= 0) return null;
  return codingTerms(coding, imageBytes, wireBytes);
}

/** "compressed, 1.6× faster" in English: the job view's `transferCoding`. */
export function describeCoding(coding: ContentCoding, imageBytes: number, wireBytes: number): string {
  const terms = uploadCodingTerms(coding, imageBytes, wireBytes);
  return terms ? codingText(terms) : 'identity';
}
