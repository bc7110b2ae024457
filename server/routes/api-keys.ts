import { z } from 'zod';
import { apiKeyRoleSchema, keyFormatSchema, type KeyFormat } from '../../domain/enums';
import { maskApiKey } from '../auth/api-key-value';
import { forbidden, notFound } from '../http/errors';
import { orgOperation, type AnyOperationSpec, type Caller } from '../http/operation';
import { queryBoolean, queryLimit, queryOffset } from '../http/query';
import { orgParams } from '../http/schemas';
import type { SecretBox } from '../auth/secret-box';
import { findApiKeyByName, findApiKeyByValue, listApiKeys, setApiKeyRole, type ApiKeyRecord } from '../store/api-keys';

export const apiKeySchema = z.object({
  name: z.string(),
  role: apiKeyRoleSchema,
  createdAt: z.iso.datetime(),
  keyFormat: keyFormatSchema.describe('The form of apiKey: None when key data was not asked for.'),
  apiKey: z.string().nullable().describe('The key, masked or whole according to KeyFormat; null with KeyFormat=None or without IncludeApiKeys.'),
});

export const apiKeyValidationSchema = z.object({
  valid: z.boolean(),
  keyName: z.string().nullable(),
  role: apiKeyRoleSchema.nullable(),
  organizationId: z.string().nullable(),
});

const listQuery = z.strictObject({
  Limit: queryLimit.optional(),
  Offset: queryOffset.optional(),
  IncludeApiKeys: queryBoolean.optional(),
  KeyFormat: keyFormatSchema.optional(),
  Name: z.string().max(64).optional().describe('Case-insensitive part of the key name.'),
});

const keyNameParams = z.object({ orgId: z.string(), keyName: z.string().min(1).max(64) });

/** Only key managers and admins see whole keys (the list itself is theirs alone, but keep the rule here too). */
function canSeeWholeKeys(caller: Caller): boolean {
  return caller.role === 'Admin' || caller.role === 'KeyManager';
}

function present(record: ApiKeyRecord, format: KeyFormat, box: SecretBox) {
  const apiKey = format === 'Visible' ? box.open(record.keySealed) : format === 'Masked' ? maskApiKey(record.keySuffix) : null;
  return { name: record.name, role: record.role, createdAt: record.createdAt.toISOString(), keyFormat: format, apiKey };
}

export const apiKeyOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'apiKeys.list',
    method: 'GET',
    path: '/organizations/:orgId/apiKeys',
    tag: 'API keys',
    summary: 'The API keys of the organization, by name, with their role and (on request) the key masked or whole.',
    params: orgParams,
    query: listQuery,
    mutates: false,
    response: { kind: 'json', data: z.array(apiKeySchema), description: 'An array of keys (Offset/Limit paging).' },
    handler: async ({ db, ctx, caller, query }) => {
      const format: KeyFormat = query.IncludeApiKeys ? (query.KeyFormat ?? 'Masked') : 'None';
      if (format === 'Visible' && !canSeeWholeKeys(caller)) {
        throw forbidden('KEY_FORMAT_FORBIDDEN', 'Only a KeyManager or an Admin may list whole keys (KeyFormat=Visible).');
      }
      const records = await listApiKeys(db, caller.orgId, { limit: query.Limit ?? 30, offset: query.Offset ?? 0, name: query.Name });
      return records.map((record) => present(record, format, ctx.secrets.box));
    },
  }),
  orgOperation({
    id: 'apiKeys.updateRole',
    method: 'PUT',
    path: '/organizations/:orgId/apiKeys/:keyName/role',
    tag: 'API keys',
    summary: 'Changes the role of the service account of a key. The body is a bare JSON string.',
    params: keyNameParams,
    body: apiKeyRoleSchema,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when the role is set.' },
    handler: async ({ db, ctx, caller, params, body }) => {
      const record = await findApiKeyByName(db, caller.orgId, params.keyName);
      if (!record) throw notFound('API_KEY_NOT_FOUND', `There is no API key named "${params.keyName}" in this organization.`);
      // A KeyManager manages keys but must not mint admins (including itself).
      if (caller.role !== 'Admin' && (body === 'Admin' || record.role === 'Admin')) {
        throw forbidden('ROLE_ESCALATION_FORBIDDEN', 'Only an Admin may give the Admin role or change the role of an Admin key.');
      }
      await setApiKeyRole(db, record.id, body);
      ctx.keys.evict(record.id);
      return true;
    },
  }),
  orgOperation({
    id: 'apiKeys.validate',
    method: 'POST',
    path: '/organizations/:orgId/apiKeys/validate',
    tag: 'API keys',
    summary: 'Whether a key is a valid key of this organization, and its name and role.',
    description:
      'A key of another organization is reported as not valid here. Anyone may validate: holding a key value already gives its powers, so naming its role reveals nothing more.',
    params: orgParams,
    body: z.strictObject({ apiKey: z.string().max(200).nullable() }),
    mutates: false,
    response: { kind: 'json', data: apiKeyValidationSchema, description: 'The validation result.' },
    handler: async ({ db, caller, body }) => {
      const record = body.apiKey ? await findApiKeyByValue(db, body.apiKey.trim()) : undefined;
      if (!record || record.orgId !== caller.orgId) return { valid: false, keyName: null, role: null, organizationId: null };
      return { valid: true, keyName: record.name, role: record.role, organizationId: record.orgId };
    },
  }),
];
