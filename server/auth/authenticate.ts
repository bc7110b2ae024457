import type { FastifyRequest } from 'fastify';
import type { ServiceContext } from '../context';
import { noteCaller } from '../http/audit-log';
import { forbidden, unauthorized } from '../http/errors';
import type { Caller } from '../http/operation';
import { apiKeyExpired, markApiKeyUsed, type ApiKeyRecord } from '../store/api-keys';
import { isAllowed, type OperationId } from '../../domain/role-matrix';

/** lastUsedAt is kept to the minute: writing it on every request would double the cost of a read. */
const LAST_USED_RESOLUTION_MS = 60_000;

async function noteUse(ctx: ServiceContext, record: ApiKeyRecord): Promise<void> {
  const now = new Date();
  if (record.lastUsedAt && now.getTime() - record.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
  record.lastUsedAt = now;
  await markApiKeyUsed(ctx.db, record.id, now);
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * 401 without a usable key; 403 when the key belongs to another organization than the path names
 * (whether or not that organization exists, so ids cannot be probed) or its role may not call the
 * operation.
 */
export async function authenticate(
  ctx: ServiceContext,
  request: FastifyRequest,
  operation: OperationId,
): Promise<Caller> {
  const header = request.headers.authorization;
  if (header === undefined || header === '') {
    throw unauthorized(
      'API_KEY_MISSING',
      'Send the API key in the Authorization header: "Authorization: Bearer <API_KEY>".',
    );
  }
  const match = BEARER.exec(header);
  if (!match?.[1])
    throw unauthorized('AUTHORIZATION_MALFORMED', 'The Authorization header must be "Bearer <API_KEY>".');
  const record = await ctx.keys.lookup(ctx.db, match[1]);
  if (!record)
    throw unauthorized(
      'API_KEY_INVALID',
      'The API key is not known to this service. Ask your key manager for a valid key.',
    );
  // Judged on every request, cached or not: a rotated key stops at its stated time, not when a
  // cache forgets it. The same code as an unknown key: a client does the same (sign in anew).
  if (apiKeyExpired(record, new Date())) {
    throw unauthorized(
      'API_KEY_INVALID',
      `This API key was replaced by a rotation and stopped working at ${record.expiresAt!.toISOString()}. Use the key that replaced it (ask your key manager).`,
    );
  }
  const caller: Caller = { keyId: record.id, keyName: record.name, orgId: record.orgId, role: record.role };
  // Known before the checks below: a refused request's audit line still names whose key it was.
  noteCaller(request, caller);
  const orgId = (request.params as { orgId?: unknown }).orgId;
  if (orgId !== record.orgId) {
    throw forbidden(
      'ORGANIZATION_FORBIDDEN',
      `This API key belongs to another organization and cannot access organization "${String(orgId)}".`,
    );
  }
  if (!isAllowed(operation, record.role)) {
    throw forbidden(
      'ROLE_FORBIDDEN',
      `The role ${record.role} of this API key may not call ${operation}. See docs/service-roles.md.`,
    );
  }
  await noteUse(ctx, record);
  return caller;
}
