import { z } from 'zod';
import { firmwareReleaseKeySchema } from '../../../domain/files/firmware-release-key';
import type { CallOptions, Transport } from '../http';

export function firmwareReleaseKeyOperations(t: Transport) {
  return {
    /** GET /v1/firmware-release-keys: the release keys the service trusts to sign firmware; needs no key (an extension of the interface). */
    firmwareReleaseKeys: (call?: CallOptions) =>
      t.json(
        { method: 'GET', path: '/v1/firmware-release-keys', absolute: true, safeToRepeat: true },
        z.array(firmwareReleaseKeySchema),
        call,
      ),
  };
}
