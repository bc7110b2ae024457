import { z } from 'zod';
import type { CallOptions, Transport } from '../http';

const signatureSchema = z.object({ signature: z.string(), keyId: z.string() });

/** Work packages (ours): the organization's key signs a package's manifest on the service. */
export function workPackageOperations(t: Transport) {
  return {
    /** POST work-packages/signatures: the manifest's text as made; the answer's signature is base64. */
    sign: (manifest: string, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/work-packages/signatures', body: { manifest }, safeToRepeat: true },
        signatureSchema,
        call,
      ),
  };
}
