import { z } from 'zod';
import { CAN_MODES, envelopeSchema, errorEntrySchema, ISM_TX_POWERS, TIMEOUT_CONFIGURATIONS } from '../../domain';
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
  return io === 'input' ? describeNormalisers(json) : json;
}

const caseInsensitive = (values: readonly string[]) => ({
  type: 'string',
  description: `${values.join(', ')}; any letter case is accepted.`,
});

/**
 * The domain's normalisers (observed payload forms) are functions, which JSON Schema cannot show:
 * they come out as "any value". Say what they accept, by property name.
 */
const NORMALISED: Record<string, JsonSchema> = {
  timeoutConfiguration: {
    anyOf: [
      { type: 'string', enum: [...TIMEOUT_CONFIGURATIONS] },
      {
        type: 'integer',
        enum: TIMEOUT_CONFIGURATIONS.map((t) => Number(t.replace('ms', ''))),
        description: 'the same, in milliseconds',
      },
    ],
  },
  ismTxPower: caseInsensitive(ISM_TX_POWERS),
  canMode: caseInsensitive(CAN_MODES),
  commInterface: {
    type: 'string',
    description:
      "None, BLE, ISM, Ethernet, Wifi, or several joined by commas ('BLE,Ethernet'); any letter case and order.",
  },
  serialNumber: { type: 'string' },
  limit: { type: 'string', pattern: '^\\d+$', description: '1 to 30' },
  Limit: { type: 'string', pattern: '^\\d+$', description: '1 to 30' },
  page: { type: 'string', pattern: '^\\d+$', description: 'from 1' },
  Page: { type: 'string', pattern: '^\\d+$', description: 'from 1' },
  Offset: { type: 'string', pattern: '^\\d+$', description: 'from 0' },
  dryRun: { type: 'string', enum: ['true', 'false'] },
  configurableOnly: { type: 'string', enum: ['true', 'false'] },
  deleteImage: { type: 'string', enum: ['true', 'false'] },
  IsActive: { type: 'string', enum: ['true', 'false'] },
  IncludeApiKeys: { type: 'string', enum: ['true', 'false'] },
};

function isAny(schema: unknown): boolean {
  return (
    typeof schema === 'object' && schema !== null && Object.keys(schema).filter((k) => k !== 'default').length === 0
  );
}

function describeNormalisers(json: JsonSchema): JsonSchema {
  const properties = json.properties as Record<string, JsonSchema> | undefined;
  if (properties) {
    for (const [name, property] of Object.entries(properties)) {
      const hint = NORMALISED[name];
      if (!hint) continue;
      const anyOf = property.anyOf as unknown[] | undefined;
      if (isAny(property))
        properties[name] = { ...hint, ...('default' in property ? { default: property.default } : {}) };
      else if (anyOf?.some(isAny)) property.anyOf = anyOf.map((option) => (isAny(option) ? hint : option));
    }
  }
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
  const failure = {
    content: {
      'application/json': {
        schema: schemaOf(envelopeSchema(z.null()).extend({ errors: z.array(errorEntrySchema) }), 'output'),
      },
    },
  };
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
        ? {
            description: op.response.description,
            content: { 'application/json': { schema: schemaOf(envelopeSchema(op.response.data), 'output') } },
          }
        : {
            description: op.response.description,
            content: {
              [op.response.mediaType]: { schema: { type: 'string', contentMediaType: op.response.mediaType } },
            },
            ...(op.response.headers
              ? {
                  headers: Object.fromEntries(
                    Object.entries(op.response.headers).map(([name, description]) => [
                      name,
                      { description, schema: { type: 'string' } },
                    ]),
                  ),
                }
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
        ? {
            requestBody: {
              required: !op.bodyOptional,
              content: {
                'application/json': {
                  schema: op.bodyAlsoAccepts
                    ? { anyOf: [op.bodyAlsoAccepts, schemaOf(op.body, 'input')] }
                    : schemaOf(op.body, 'input'),
                },
              },
            },
          }
        : {}),
      responses: { [status]: response, ...failureResponses(isPublic) },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Device Configuration and Management Service',
      version,
      description:
        'Interface v1. Every JSON response is the envelope { data, success, errors }. Roles per operation: docs/service-roles.md.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY>' } },
    },
    security: [{ apiKey: [] }],
    paths,
  };
}
