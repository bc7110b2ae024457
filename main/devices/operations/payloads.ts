import type { z } from 'zod';
import { decodeCbor } from '../../../domain/files/cbor';
import type { CoapResponse } from '../coap/engine';
import { DeviceProtocolError, type DeviceErrorContext } from '../errors';

export * from '../../../protocol/payloads';

/** Decodes a response's CBOR payload against `schema`, or says which device answered what. */
export function decodeResponse<T>(schema: z.ZodType<T>, response: CoapResponse, context: DeviceErrorContext): T {
  let value: unknown;
  try {
    value = decodeCbor(response.message.payload);
  } catch {
    throw new DeviceProtocolError(context, `the ${response.code} payload is not CBOR`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DeviceProtocolError(
      context,
      `field ${issue?.path.join('.') || '(payload)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}
