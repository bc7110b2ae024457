import { z } from 'zod';
import { buildOpenApiDocument } from '../http/openapi';
import { publicOperation, RawJson, type AnyOperationSpec } from '../http/operation';

/** The document is built once, on first request, from the same schemas that validate requests. */
export function openApiOperation(operations: () => readonly AnyOperationSpec[]): AnyOperationSpec {
  let document: unknown;
  return publicOperation({
    id: 'public.openapi',
    method: 'GET',
    path: '/openapi.json',
    tag: 'Version',
    summary: 'This OpenAPI 3.1 document (not wrapped in the envelope).',
    mutates: false,
    response: { kind: 'json', data: z.object({ openapi: z.string() }).loose(), description: 'The OpenAPI document.' },
    handler: async ({ ctx }) => {
      document ??= buildOpenApiDocument(operations(), ctx.version);
      return new RawJson(document);
    },
  });
}
