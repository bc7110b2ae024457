import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { authenticate } from '../auth/authenticate';
import type { OperationId } from '../../domain/role-matrix';
import type { ServiceContext } from '../context';
import type { SqlValue } from '../db/database';
import { isReadStatement, joinTables, tablesNamedIn } from '../db/tables';
import { countingStatements } from '../db/statement-count';
import { ok } from './envelope';
import { statementCountOf } from './metrics';
import { badRequest } from './errors';
import { safeFileName } from './file-name';
import { findNulCharacter } from './nul-characters';
import { Answer, isFileResult, JsonText, RawJson, type AnyOperationSpec, type Caller } from './operation';
import { parseInput } from './validation';

const noQuery = z.strictObject({});

/** Turns a Fastify path ('/a/:id') into the OpenAPI form ('/a/{id}'). */
export function openApiPath(path: string): string {
  return `/v1${path.replace(/:([A-Za-z]+)/g, '{$1}')}`;
}

/** Callers by request: set by the onRequest hook, which runs before the body is even read. */
const callers = new WeakMap<FastifyRequest, Caller>();

/** A 400 naming the first field that holds a NUL character, in any part of the request. */
function refuseNulCharacters(request: FastifyRequest): void {
  const parts = [
    { field: (path: string) => `path.${path}`, value: request.params },
    { field: (path: string) => path, value: request.query },
    { field: (path: string) => path, value: request.body },
  ];
  for (const part of parts) {
    const path = findNulCharacter(part.value);
    if (path === undefined) continue;
    const field = part.field(path);
    throw badRequest(
      'NUL_CHARACTER',
      `${field || 'The request body'} contains a NUL character (U+0000), which the service does not accept: remove it.`,
      field || undefined,
    );
  }
}

async function run(
  spec: AnyOperationSpec,
  ctx: ServiceContext,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const caller = callers.get(request);

  refuseNulCharacters(request);

  const params = spec.params ? parseInput('path', spec.params, request.params) : {};
  // Unknown query parameters are refused: a misspelt `search` for `Search` must not silently list everything.
  const query = parseInput('query', spec.query ?? noQuery, request.query ?? {});
  let body: unknown = undefined;
  if (spec.body) {
    if (request.body === undefined && !spec.bodyOptional)
      throw badRequest('BODY_REQUIRED', 'This operation needs a JSON request body.');
    body = request.body === undefined ? undefined : parseInput('body', spec.body, request.body);
  }

  const call = (db: ServiceContext['db'] | Parameters<Parameters<ServiceContext['db']['transaction']>[0]>[0]) =>
    spec.handler({ params, query, body, db, ctx, request, reply, caller } as never);

  if (!spec.mutates || spec.readOnlyWhen?.(query as never)) return call(ctx.db);
  // A mutating operation runs in one transaction: whatever it throws rolls every change back.
  let written: ReturnType<typeof joinTables> | undefined;
  try {
    return await ctx.db.transaction((tx) =>
      call({
        query: <Row>(sql: string, params?: readonly SqlValue[]) => {
          // Dry runs and downloads that only read keep the read cache; a write drops the answers read from its tables.
          if (!isReadStatement(sql)) written = joinTables(written ?? new Set(), tablesNamedIn(sql));
          return tx.query<Row>(sql, params);
        },
      }),
    );
  } finally {
    if (written) ctx.reads?.clear(written);
  }
}

export function registerOperation(app: FastifyInstance, ctx: ServiceContext, spec: AnyOperationSpec): void {
  const isPublic = spec.id.startsWith('public.');
  app.route({
    method: spec.method,
    url: `/v1${spec.path}`,
    // Authentication and the role check come first (401, then 403, then 400): a caller without the
    // right learns nothing about what its payload would have done, and its body is not parsed.
    // Another instance's commit that completed before this request is heard first, so neither the
    // key nor an answer this instance holds is older than what the caller already saw elsewhere.
    ...(isPublic
      ? { onRequest: async () => void (await ctx.catchUp?.()) }
      : {
          onRequest: async (request: FastifyRequest) => {
            await ctx.catchUp?.();
            callers.set(request, await authenticate(ctx, request, spec.id as OperationId));
          },
        }),
    handler: async (request, reply) => {
      const result = await countingStatements(statementCountOf(request), () => run(spec, ctx, request, reply));
      if (isFileResult(result)) {
        for (const [name, value] of Object.entries(result.headers ?? {})) reply.header(name, value);
        return reply
          .type(result.mediaType)
          .header('content-disposition', `attachment; filename="${safeFileName(result.fileName)}"`)
          .header('content-length', result.body.length)
          .send(Buffer.from(result.body.buffer, result.body.byteOffset, result.body.byteLength));
      }
      if (result instanceof JsonText) {
        const status = spec.response.kind === 'json' ? (spec.response.status ?? 200) : 200;
        return reply.code(status).type('application/json; charset=utf-8').send(result.envelope());
      }
      if (result instanceof RawJson) return reply.type('application/json').send(result.body);
      if (result instanceof Answer) return reply.code(result.status).send(ok(result.data));
      const status = spec.response.kind === 'json' ? (spec.response.status ?? 200) : 200;
      return reply.code(status).send(ok(result));
    },
  });
}
