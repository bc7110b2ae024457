import { decodeCbor } from '../../domain/files/cbor';
import { FRC_PATH } from '../../domain/vendor/paths';
import type { RunningValueType, VendorFamily } from '../../domain/vendor/running-values';
import { decodeRawInt, decodeRawUint, encodeRawInt, encodeRawUint } from './raw-int';
import { VENDOR_CONTENT_FORMAT } from './resources';

/**
 * How a vendor device answers a GET of a setting: FRC text (CF 0), except the "fake CBOR" raw
 * integers (CF 60 label, raw little-endian bytes); EPC JSON values (CF 50: the spec infers the EPC
 * answers JSON; text would do for the vendor's menu too).
 */
export type VendorValueForm = 'text' | 'json' | 'raw-uint' | 'raw-int';

const FRC_RAW: Record<string, VendorValueForm> = {
  [FRC_PATH.radioChannel]: 'raw-uint',
  [FRC_PATH.radioPower]: 'raw-int',
  [FRC_PATH.joystickPeriod]: 'raw-uint',
  [FRC_PATH.keypadPeriod]: 'raw-uint',
};

/** `path` may carry a `?slot` query. */
export function valueFormOf(path: string, family: VendorFamily): VendorValueForm {
  if (family === 'EPC') return 'json';
  return FRC_RAW[path.split('?')[0]!] ?? 'text';
}

export interface EncodedValue {
  contentFormat: number;
  payload: Uint8Array;
}

export function encodeVendorValue(form: VendorValueForm, value: RunningValueType): EncodedValue {
  switch (form) {
    case 'json':
      return { contentFormat: VENDOR_CONTENT_FORMAT.json, payload: new TextEncoder().encode(JSON.stringify(value)) };
    case 'raw-uint':
      return { contentFormat: VENDOR_CONTENT_FORMAT.cbor, payload: encodeRawUint(Number(value)) };
    case 'raw-int':
      return { contentFormat: VENDOR_CONTENT_FORMAT.cbor, payload: encodeRawInt(Number(value)) };
    default:
      return { contentFormat: VENDOR_CONTENT_FORMAT.text, payload: new TextEncoder().encode(String(value)) };
  }
}

/**
 * A GET answer as a value to compare with running-values' `expected` (runningValueMatches):
 * by its Content-Format, with CF 60 read as the raw integer the resource is known to send.
 * Throws when the payload is not what its Content-Format says.
 */
export function decodeVendorValue(
  path: string,
  family: VendorFamily,
  payload: Uint8Array,
  contentFormat: number | undefined,
): RunningValueType {
  const form = valueFormOf(path, family);
  if (contentFormat === VENDOR_CONTENT_FORMAT.cbor) {
    if (form === 'raw-uint') return decodeRawUint(payload);
    if (form === 'raw-int') return decodeRawInt(payload);
    const value = decodeCbor(payload);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    throw new RangeError(
      `${path} answered a CBOR ${Array.isArray(value) ? 'list' : typeof value}, not a single value.`,
    );
  }
  const text = new TextDecoder('utf-8', { fatal: true }).decode(payload);
  if (contentFormat === VENDOR_CONTENT_FORMAT.json) {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    throw new RangeError(`${path} answered JSON ${value === null ? 'null' : typeof value}, not a single value.`);
  }
  return text;
}
