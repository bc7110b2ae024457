import { organizationSigningKeySchema, signingKeySchema, versionSchema } from '../../../domain';
import type { CallOptions, Transport } from '../http';

export function versionOperations(t: Transport) {
  return {
    /** GET /v1/version: needs no key; a reachability probe. */
    version: (call?: CallOptions) =>
      t.json({ method: 'GET', path: '/v1/version', absolute: true, safeToRepeat: true }, versionSchema, call),
    /** GET /v1/organizations/{orgId}/version: the same, checked with the key. */
    organizationVersion: (call?: CallOptions) =>
      t.json({ method: 'GET', path: '/version', safeToRepeat: true }, versionSchema, call),
    /** The service's public key for configuration file signatures (an extension of the interface). */
    signingKey: (call?: CallOptions) =>
      t.json(
        { method: 'GET', path: '/v1/config-file-signing-key', absolute: true, safeToRepeat: true },
        signingKeySchema,
        call,
      ),
    /** The organization's own file-signing key and the root key's certificate for it (ours; needs no key). */
    organizationSigningKey: (call?: CallOptions) =>
      t.json(
        { method: 'GET', path: '/config-file-signing-key', safeToRepeat: true },
        organizationSigningKeySchema,
        call,
      ),
  };
}
