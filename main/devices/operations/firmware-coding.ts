import { deflateRawSync } from 'node:zlib';
import {
  chooseCoding,
  type CodingChoice,
  type ContentCoding,
  type PrecodedStream,
} from '../../../domain/files/content-coding';
import type { AnnouncedCoding, DeviceInfo } from './payloads';

/** A patch the host holds: from the image whose SHA-256 is `baseSha256` (hex) to the one being sent. */
export interface FirmwarePatchOffer {
  baseSha256: string;
  patch: Uint8Array;
  /** The patch deflated ahead of time (the firmware cache's zopfli stream); made now with zlib when absent. */
  deflated?: PrecodedStream;
}

/** What goes over the wire for one image, and how the announce names it. */
export interface WireImage {
  coding: ContentCoding;
  /** The bytes PUT /fw/data carries. */
  bytes: Uint8Array;
  /** The announce's `coding`; undefined for identity. */
  announced: AnnouncedCoding | undefined;
}

/** `auto`: the best both sides have; a coding by name: that one, where the device has it. */
export type CodingPreference = 'auto' | ContentCoding;

const hex = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');

/**
 * The deflated stream of `source` for a device whose window is 2^windowBits: the one made ahead of
 * time when it fits that window (zopfli refers back up to 32 KiB, so a device with a smaller window
 * cannot take it), else zlib's at level 9 within the device's window, made now. Either way the
 * announce names the window the stream needs.
 */
function deflated(
  source: Uint8Array,
  windowBits: number,
  precoded: PrecodedStream | undefined,
): { bytes: Uint8Array; windowBits: number } {
  if (precoded !== undefined && precoded.windowBits <= windowBits) return precoded;
  return { bytes: deflateRawSync(source, { level: 9, windowBits, memLevel: 9 }), windowBits };
}

/**
 * Picks the coding for `info`'s device and codes the image: delta when a patch from the image the
 * device runs is at hand, then deflate; `excluded` are codings the device has refused this time.
 * A deflated stream no shorter than the image goes as identity: compression would only cost time.
 */
export function wireImageFor(
  image: Uint8Array,
  info: DeviceInfo,
  options: {
    patches?: readonly FirmwarePatchOffer[];
    deflated?: PrecodedStream;
    preference?: CodingPreference;
    excluded?: ReadonlySet<ContentCoding>;
  },
): WireImage {
  const excluded = options.excluded ?? new Set<ContentCoding>();
  const preference = options.preference ?? 'auto';
  const running = info.imageSha256 == null ? undefined : hex(info.imageSha256);
  const patch = running === undefined ? undefined : options.patches?.find((offer) => offer.baseSha256 === running);
  const advertised = (info.codings ?? []).filter(
    (coding) => !excluded.has(coding.name as ContentCoding) && (preference === 'auto' || coding.name === preference),
  );
  const choice: CodingChoice =
    preference === 'identity'
      ? { coding: 'identity' }
      : chooseCoding(advertised, { patchForRunningImage: patch !== undefined });
  if (choice.coding === 'delta' && patch !== undefined && running !== undefined) {
    const stream = deflated(patch.patch, choice.windowBits!, patch.deflated);
    return {
      coding: 'delta',
      bytes: stream.bytes,
      announced: {
        name: 'delta',
        size: stream.bytes.length,
        windowBits: stream.windowBits,
        baseSha256: new Uint8Array(Buffer.from(running, 'hex')),
      },
    };
  }
  if (choice.coding === 'deflate') {
    const stream = deflated(image, choice.windowBits!, options.deflated);
    if (stream.bytes.length < image.length || preference === 'deflate') {
      return {
        coding: 'deflate',
        bytes: stream.bytes,
        announced: { name: 'deflate', size: stream.bytes.length, windowBits: stream.windowBits },
      };
    }
  }
  return { coding: 'identity', bytes: image, announced: undefined };
}
