import { z } from 'zod';
import {
  apiKeyListQuerySchema,
  apiKeyRecordSchema,
  apiKeyRoleBodySchema,
  apiKeyRoleSchema,
  apiKeyValidateSchema,
  apiKeyValidationSchema,
  type ApiKeyRecord as ApiKeyRecordOut,
  type KeyFormat,
} from '../../domain';
import { ranksAtLeast } from '../../domain/role-matrix';
import { maskApiKey } from '../auth/api-key-value';
import { securityEvent } from '../http/audit-log';
import type { SecretBox } from '../auth/secret-box';
import { conflict, forbidden, notFound } from '../http/errors';
import { foundOr } from '../http/found-or';
import { orgOperation, type AnyOperationSpec, type Caller } from '../http/operation';
import { orgParams } from '../http/schemas';
import {
  API_KEY_NAME_PATTERN,
  apiKeyExpired,
  findApiKeyByName,
  findApiKeyByValue,
  issueApiKey,
  listApiKeys,
  MAX_ROTATION_OVERLAP_SECONDS,
  revokeApiKeys,
  rotateApiKey,
  setApiKeyRole,
  type ApiKeyRecord,
} from '../store/api-keys';
import { getOrganization } from '../store/organizations';

// The interface says the list "supports filtering by name" without naming the parameter: Name,
// capitalised like its neighbours.
const listQuery = apiKeyListQuerySchema.extend({
  Name: z.string().max(64).optional().describe('Case-insensitive part of the key name.'),
});

const keyNameParams = z.object({ orgId: z.string(), keyName: z.string().min(1).max(64) });

/** POST apiKeys (ours): a key issued through the API, as `server key create` does. */
const createBody = z.strictObject({
  name: z
    .string()
    .regex(
      API_KEY_NAME_PATTERN,
      'A key name is 1 to 64 letters, digits, dots, dashes or underscores, starting with a letter or digit.',
    ),
  role: apiKeyRoleSchema,
});

/** POST apiKeys/{keyName}/rotate (ours): how long the replaced key keeps working, 0 for not at all. */
const rotateBody = z.strictObject({
  oldKeyValidForSeconds: z.number().int().min(0).max(MAX_ROTATION_OVERLAP_SECONDS),
});

/** A key just issued: the record and, this once, its whole value. */
const issuedKeySchema = apiKeyRecordSchema.extend({ key: z.string() });

/** A caller manages a key (revokes, rotates, issues) only when its role ranks at least as high as the key's. */
function mayManage(caller: Caller, role: ApiKeyRecord['role']): void {
  if (!ranksAtLeast(caller.role, role)) {
    throw forbidden(
      'ROLE_ESCALATION_FORBIDDEN',
      `A ${caller.role} key may not issue, revoke or rotate a ${role} key: that role ranks above its own (docs/service-roles.md).`,
    );
  }
}

function issued(record: ApiKeyRecord, key: string) {
  return {
    name: record.name,
    role: record.role,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: null,
    expiresAt: null,
    key,
  };
}

/** Only key managers and admins see whole keys (the list is theirs alone, but the rule stays here too). */
function canSeeWholeKeys(caller: Caller): boolean {
  return caller.role === 'Admin' || caller.role === 'KeyManager';
}

/**
 * A key as the caller may see it. The value of a key whose role ranks above the caller's is never
 * shown, whole or masked: holding it would give the caller powers it does not have (a KeyManager
 * reading the Admin key becomes Admin).
 */
function present(
  record: ApiKeyRecord,
  caller: Caller,
  include: boolean,
  format: KeyFormat,
  box: SecretBox,
): ApiKeyRecordOut {
  const out: ApiKeyRecordOut = {
    name: record.name,
    role: record.role,
    createdAt: record.createdAt.toISOString(),
    lastUsedAt: record.lastUsedAt?.toISOString() ?? null,
    expiresAt: record.expiresAt?.toISOString() ?? null,
  };
  if (!include) return out;
  if (!ranksAtLeast(caller.role, record.role)) out.key = null;
  else
    out.key =
      format === 'Visible' ? box.open(record.keySealed) : format === 'Masked' ? maskApiKey(record.keySuffix) : null;
  return out;
}

export const apiKeyOperations: AnyOperationSpec[] = [
  orgOperation({
    id: 'apiKeys.list',
    method: 'GET',
    path: '/organizations/:orgId/apiKeys',
    tag: 'API keys',
    summary:
      'The API keys of the organization, by name, with their role and (with IncludeApiKeys) the key masked or whole.',
    params: orgParams,
    query: listQuery,
    mutates: false,
    response: {
      kind: 'json',
      data: z.array(apiKeyRecordSchema),
      description: 'An array of keys, ordered by name (Offset/Limit paging).',
    },
    handler: async ({ db, ctx, caller, query }) => {
      if (query.IncludeApiKeys && query.KeyFormat === 'Visible' && !canSeeWholeKeys(caller)) {
        throw forbidden(
          'KEY_FORMAT_FORBIDDEN',
          'Only a KeyManager or an Admin may list whole keys (KeyFormat=Visible).',
        );
      }
      const records = await listApiKeys(db, caller.orgId, {
        limit: query.Limit,
        offset: query.Offset,
        name: query.Name,
      });
      return records.map((record) => present(record, caller, query.IncludeApiKeys, query.KeyFormat, ctx.secrets.box));
    },
  }),
  orgOperation({
    id: 'apiKeys.updateRole',
    method: 'PUT',
    path: '/organizations/:orgId/apiKeys/:keyName/role',
    tag: 'API keys',
    summary: 'Changes the role of the service account of a key. The body is a bare JSON string such as "Service".',
    params: keyNameParams,
    body: apiKeyRoleBodySchema,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when the role is set.' },
    handler: async ({ db, ctx, caller, params, body, request }) => {
      const record = await foundOr(findApiKeyByName(db, caller.orgId, params.keyName), () =>
        notFound('API_KEY_NOT_FOUND', `There is no API key named "${params.keyName}" in this organization.`),
      );
      // A caller neither gives a role above its own (to its own key neither) nor touches a key above it.
      if (!ranksAtLeast(caller.role, body) || !ranksAtLeast(caller.role, record.role)) {
        throw forbidden(
          'ROLE_ESCALATION_FORBIDDEN',
          `A ${caller.role} key may neither give a role that ranks above its own nor change the role of such a key (docs/service-roles.md); only an Admin may give the Admin role or change an Admin key.`,
        );
      }
      await setApiKeyRole(db, record.id, body);
      ctx.keys.evict(record.id);
      securityEvent(
        request,
        { event: 'key-role-changed', orgId: caller.orgId, keyName: record.name, role: body },
        'API key role changed',
      );
      return true;
    },
  }),
  orgOperation({
    id: 'apiKeys.validate',
    method: 'POST',
    path: '/organizations/:orgId/apiKeys/validate',
    tag: 'API keys',
    summary: 'Whether a key is a valid key of this organization, with its name and role.',
    description:
      'A key of another organization reads as not valid here. Every role may validate: holding a key value already gives its powers, so naming its role reveals nothing more.',
    params: orgParams,
    body: apiKeyValidateSchema,
    mutates: false,
    response: { kind: 'json', data: apiKeyValidationSchema, description: 'The validation result.' },
    handler: async ({ db, caller, body }) => {
      const value = body.apiKey?.trim();
      const record = value ? await findApiKeyByValue(db, value) : undefined;
      if (!record || record.orgId !== caller.orgId || apiKeyExpired(record, new Date())) {
        return { valid: false, organizationId: null, keyName: null, role: null, organizationName: null, region: null };
      }
      const organization = await getOrganization(db, record.orgId);
      return {
        valid: true,
        organizationId: record.orgId,
        keyName: record.name,
        role: record.role,
        organizationName: organization?.name ?? null,
        region: organization?.region ?? null,
      };
    },
  }),
  orgOperation({
    id: 'apiKeys.create',
    method: 'POST',
    path: '/organizations/:orgId/apiKeys',
    tag: 'API keys',
    summary: 'Issues an API key (ours). The response holds the whole key this once; later it is only listed.',
    description:
      'A KeyManager issues keys of any role but Admin; only an Admin issues an Admin key. 409 API_KEY_NAME_TAKEN when the name is in use.',
    params: orgParams,
    body: createBody,
    mutates: true,
    response: { kind: 'json', data: issuedKeySchema, status: 201, description: 'The key issued, with its value.' },
    handler: async ({ db, ctx, caller, body, request }) => {
      mayManage(caller, body.role);
      const outcome = await issueApiKey(db, ctx.secrets.box, { orgId: caller.orgId, name: body.name, role: body.role });
      if (outcome === 'name-taken')
        throw conflict(
          'API_KEY_NAME_TAKEN',
          `This organization already has a key named "${body.name}": rotate it, or revoke it first.`,
          'name',
        );
      securityEvent(
        request,
        { event: 'key-created', orgId: caller.orgId, keyName: body.name, role: body.role },
        'API key created',
      );
      return issued(outcome.record, outcome.key);
    },
  }),
  orgOperation({
    id: 'apiKeys.revoke',
    method: 'DELETE',
    path: '/organizations/:orgId/apiKeys/:keyName',
    tag: 'API keys',
    summary:
      'Revokes the key of that name (ours), and any key a rotation of it left working: refused from the next request on, on every instance.',
    params: keyNameParams,
    mutates: true,
    response: { kind: 'json', data: z.boolean(), description: 'true when the key is revoked.' },
    handler: async ({ db, ctx, caller, params, request }) => {
      const record = await foundOr(findApiKeyByName(db, caller.orgId, params.keyName), () =>
        notFound('API_KEY_NOT_FOUND', `There is no API key named "${params.keyName}" in this organization.`),
      );
      mayManage(caller, record.role);
      for (const revoked of await revokeApiKeys(db, caller.orgId, params.keyName)) ctx.keys.evict(revoked.id);
      securityEvent(
        request,
        { event: 'key-revoked', orgId: caller.orgId, keyName: record.name, role: record.role },
        'API key revoked',
      );
      return true;
    },
  }),
  orgOperation({
    id: 'apiKeys.rotate',
    method: 'POST',
    path: '/organizations/:orgId/apiKeys/:keyName/rotate',
    tag: 'API keys',
    summary:
      'Rotates a key (ours): a new key under the same name and role; the old one keeps working for oldKeyValidForSeconds, then is refused.',
    description: `oldKeyValidForSeconds is 0 (the old key stops now) to ${MAX_ROTATION_OVERLAP_SECONDS} (30 days). The list shows the old key with its expiresAt until it is revoked.`,
    params: keyNameParams,
    body: rotateBody,
    mutates: true,
    response: { kind: 'json', data: issuedKeySchema, status: 201, description: 'The new key, with its value.' },
    handler: async ({ db, ctx, caller, params, body, request }) => {
      const record = await foundOr(findApiKeyByName(db, caller.orgId, params.keyName), () =>
        notFound('API_KEY_NOT_FOUND', `There is no API key named "${params.keyName}" in this organization.`),
      );
      mayManage(caller, record.role);
      const until = new Date(Date.now() + body.oldKeyValidForSeconds * 1000);
      const outcome = await rotateApiKey(db, ctx.secrets.box, {
        orgId: caller.orgId,
        name: params.keyName,
        oldValidUntil: until,
      });
      if (outcome === 'not-found')
        throw conflict('CONCURRENT_CHANGE', `The key "${params.keyName}" was revoked or rotated meanwhile.`);
      ctx.keys.evict(outcome.replaced.id);
      securityEvent(
        request,
        { event: 'key-rotated', orgId: caller.orgId, keyName: record.name, role: record.role },
        `API key rotated; the old key works until ${until.toISOString()}`,
      );
      return issued(outcome.record, outcome.key);
    },
  }),
];
