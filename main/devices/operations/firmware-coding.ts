import { deflateRawSync } from 'node:zlib';
import { chooseCoding, type CodingChoice, type ContentCoding } from '../../../domain/files/content-coding';
import type { AnnouncedCoding, DeviceInfo } from './payloads';

/** A patch the host holds: from the image whose SHA-256 is `baseSha256` (hex) to the one being sent. */
export interface FirmwarePatchOffer {
  baseSha256: string;
  patch: Uint8Array;
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
 * Picks the coding for `info`'s device and codes the image: delta when a patch from the image the
 * device runs is at hand, then deflate; `excluded` are codings the device has refused this time.
 * A deflated stream no shorter than the image goes as identity: compression would only cost time.
 */
export function wireImageFor(
  image: Uint8Array,
  info: DeviceInfo,
  options: { patches?: readonly FirmwarePatchOffer[]; preference?: CodingPreference; excluded?: ReadonlySet<ContentCoding> },
): WireImage {
  const excluded = options.excluded ?? new Set<ContentCoding>();
  const preference = options.preference ?? 'auto';
  const running = info.imageSha256 == null ? undefined : hex(info.imageSha256);
  const patch = running === undefined ? undefined : options.patches?.find((offer) => offer.baseSha256 === running);
  const advertised = (info.codings ?? []).filter((coding) => !excluded.has(coding.name as ContentCoding) && (preference === 'auto' || coding.name === preference));
  const choice: CodingChoice = preference === 'identity' ? { coding: 'identity' } : chooseCoding(advertised, { patchForRunningImage: patch !== undefined });
  if (choice.coding === 'delta' && patch !== undefined && running !== undefined) {
    const bytes = deflateRawSync(patch.patch, { level: 9, windowBits: choice.windowBits, memLevel: 9 });
    return { coding: 'delta', bytes, announced: { name: 'delta', size: bytes.length, windowBits: choice.windowBits!, baseSha256: new Uint8Array(Buffer.from(running, 'hex')) } };
  }
  if (choice.coding === 'deflate') {
    const bytes = deflateRawSync(image, { level: 9, windowBits: choice.windowBits, memLevel: 9 });
    if (bytes.length < image.length || preference === 'deflate') {
      return { coding: 'deflate', bytes, announced: { name: 'deflate', size: bytes.length, windowBits: choice.windowBits! } };
    }
  }
  return { coding: 'identity', bytes: image, announced: undefined };
}
