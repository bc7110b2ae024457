import { z } from 'zod';
import { envelopeSchema, errorEntrySchema } from '../../domain';
import type { AnyOperationSpec } from './operation';
import { openApiPath } from './register';

type JsonSchema = Record<string, unknown>;

/**
 * Request parts are described as clients send them (zod's input side: integer milliseconds,
 * upper-case enums...), responses as the service returns them. Custom normalisers have no JSON
 * Schema form and read as "any value" with the field's description.
 */
function schemaOf(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    schema: property,
  }));
}

const STATUS_TEXT: Record<string, string> = {
  '400': 'Invalid input: every problem as an error entry { code, message, field? }.',
  '401': 'Missing or unknown API key.',
  '403': 'The key belongs to another organization, or its role may not call this operation.',
  '404': 'Not found in this organization.',
  '409': 'State conflict (e.g. a file asked for before the configuration is complete).',
};

function failureResponses(isPublic: boolean): Record<string, unknown> {
  const failure = { content: { 'application/json': { schema: schemaOf(envelopeSchema(z.null()).extend({ errors: z.array(errorEntrySchema) }), 'output') } } };
  const codes = isPublic ? ['400'] : ['400', '401', '403', '404', '409'];
  return Object.fromEntries(codes.map((code) => [code, { description: STATUS_TEXT[code], ...failure }]));
}

export function buildOpenApiDocument(operations: readonly AnyOperationSpec[], version: string): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const isPublic = op.id.startsWith('public.');
    const path = openApiPath(op.path);
    const response =
      op.response.kind === 'json'
        ? { description: op.response.description, content: { 'application/json': { schema: schemaOf(envelopeSchema(op.response.data), 'output') } } }
        : {
            description: op.response.description,
            content: { [op.response.mediaType]: { schema: { type: 'string', contentMediaType: op.response.mediaType } } },
            ...(op.response.headers
              ? { headers: Object.fromEntries(Object.entries(op.response.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }])) }
              : {}),
          };
    const status = op.response.kind === 'json' ? String(op.response.status ?? 200) : '200';
    (paths[path] ??= {})[op.method.toLowerCase()] = {
      operationId: op.id,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      ...(isPublic ? { security: [] } : {}),
      parameters: [...parameters(op.params, 'path'), ...parameters(op.query, 'query')],
      ...(op.body
        ? { requestBody: { required: !op.bodyOptional, content: { 'application/json': { schema: schemaOf(op.body, 'input') } } } }
        : {}),
      responses: { [status]: response, ...failureResponses(isPublic) },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Device Configuration and Management Service',
      version,
      description: 'Interface v1. Every JSON response is the envelope { data, success, errors }. Roles per operation: docs/service-roles.md.',
    },
    servers: [{ url: '/' }],
    components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } } },
    security: [{ apiKey: [] }],
    paths,
  };
}
