import { z } from 'zod';
import {
  apiKeyRecordSchema,
  apiKeyValidationSchema,
  type ApiKeyRecord,
  type ApiKeyRole,
  type KeyFormat,
} from '../../../domain';
import { encodePathSegment as seg, type CallOptions, type Transport } from '../http';
import { walkOffsets } from '../paging';
import { arrayOrNullSchema, listOperations } from './list-operations';

export interface ApiKeyListQuery {
  Limit?: number;
  /** Offset of the first key, from 0. */
  Offset?: number;
  /** Include key data (in the form KeyFormat says). */
  IncludeApiKeys?: boolean;
  KeyFormat?: KeyFormat;
  /** Part of the key name (the interface: "supports filtering by name"). */
  Name?: string;
}

/** A key just issued or rotated: its record and, this once, its whole value. */
const issuedKeySchema = apiKeyRecordSchema.extend({ key: z.string() });

export function apiKeyOperations(t: Transport) {
  return {
    ...listOperations<ApiKeyListQuery, { Limit: number; Offset: number }, ApiKeyRecord[], ApiKeyRecord>(
      t,
      '/apiKeys',
      arrayOrNullSchema(apiKeyRecordSchema),
      {
        walk: walkOffsets,
        at: (Offset, Limit) => ({ Limit, Offset }),
      },
    ),
    /** PUT apiKeys/{keyName}/role with the role as a bare JSON string. */
    setRole: (keyName: string, role: ApiKeyRole, call?: CallOptions) =>
      t.json(
        { method: 'PUT', path: `/apiKeys/${seg(keyName)}/role`, body: role, safeToRepeat: true },
        z.boolean(),
        call,
      ),
    /** POST apiKeys (the service's addition): issues a key; the answer holds its whole value this once. */
    create: (input: { name: string; role: ApiKeyRole }, call?: CallOptions) =>
      t.json({ method: 'POST', path: '/apiKeys', body: input, safeToRepeat: false }, issuedKeySchema, call),
    /** DELETE apiKeys/{keyName} (the service's addition): revokes the key, refused from the next request on. */
    revoke: (keyName: string, call?: CallOptions) =>
      t.json({ method: 'DELETE', path: `/apiKeys/${seg(keyName)}`, safeToRepeat: false }, z.boolean(), call),
    /** POST apiKeys/{keyName}/rotate (the service's addition): a new key; the old one works for oldKeyValidForSeconds more. */
    rotate: (keyName: string, oldKeyValidForSeconds: number, call?: CallOptions) =>
      t.json(
        {
          method: 'POST',
          path: `/apiKeys/${seg(keyName)}/rotate`,
          body: { oldKeyValidForSeconds },
          safeToRepeat: false,
        },
        issuedKeySchema,
        call,
      ),
    /** Whether a key value is a valid key of this organization, with its name and role. */
    validate: (apiKey: string | null, call?: CallOptions) =>
      t.json(
        { method: 'POST', path: '/apiKeys/validate', body: { apiKey }, safeToRepeat: true },
        apiKeyValidationSchema,
        call,
      ),
  };
}
