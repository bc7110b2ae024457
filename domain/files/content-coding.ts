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

/** How each coding is named to a technician: what it does, not the codec's name. */
const CODING_WORDS: Record<Exclude<ContentCoding, 'identity'>, string> = {
  deflate: 'compressed',
  delta: 'changes only',
};

/**
 * "compressed, 1.6× faster": how an upload travels, in a technician's words (issue 32). The factor
 * is image bytes per byte on the cable, which is how much sooner the upload ends than the plain
 * image would. codingDetail() gives the exact terms for a tooltip.
 */
export function describeCoding(coding: ContentCoding, imageBytes: number, wireBytes: number): string {
  if (coding === 'identity' || wireBytes <= 0) return 'identity';
  const factor = imageBytes / wireBytes;
  // An image that does not compress: "1.0× faster" would read as a promise.
  return factor < 1.05 ? `${CODING_WORDS[coding]}, no faster` : `${CODING_WORDS[coding]}, ${factor.toFixed(1)}× faster`;
}

/**
 * The detail behind describeCoding()'s words, for a tooltip: "deflate (RFC 1951): each byte on the
 * cable carries 1.6 bytes of the image". Empty for a text it did not make.
 */
export function codingDetail(text: string): string {
  const match = /^(compressed|changes only), (?:(\d+(?:\.\d+)?)× faster|no faster)$/.exec(text);
  if (!match) return '';
  const how =
    match[1] === 'compressed'
      ? 'deflate (RFC 1951): the image is sent compressed and the device unpacks it'
      : 'delta: only the differences from the firmware the device runs are sent, and the device rebuilds the image';
  const carries = match[2]
    ? `each byte on the cable carries ${match[2]} bytes of the image`
    : 'the image hardly compresses, so it takes about as long as sent plain';
  return `${how}; ${carries}. Rate and time left count image bytes.`;
}
