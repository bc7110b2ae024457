import type { FastifyError, FastifyInstance } from 'fastify';
import { failed } from './envelope';
import { sqlErrorCode, UNIQUE_VIOLATION } from '../db/database';
import { ServiceError, type ErrorEntry } from './errors';

/** Fastify's own failures (before a handler runs), mapped to codes a client can branch on. */
function fromFastify(error: FastifyError): { status: number; entry: ErrorEntry } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, entry: { code: 'INVALID_JSON', message: 'The request body is not valid JSON.' } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return {
        status: 400,
        entry: { code: 'INVALID_JSON', message: 'The request says its body is JSON but the body is empty.' },
      };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 400,
        entry: {
          code: 'BODY_TOO_LARGE',
          message: `The request body is larger than the service accepts (${error.message}).`,
        },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        entry: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Send request bodies as application/json.' },
      };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return {
        status: 400,
        entry: { code: 'INVALID_CONTENT_LENGTH', message: 'The Content-Length header does not match the body.' },
      };
    default:
      break;
  }
  // secure-json-parse refuses __proto__ and constructor.prototype keys.
  if (error instanceof SyntaxError || (error.statusCode === 400 && error.code?.startsWith('FST_ERR_CTP'))) {
    return {
      status: 400,
      entry: { code: 'INVALID_JSON', message: `The request body is not acceptable JSON: ${error.message}` },
    };
  }
  // Any other refusal of Fastify's is the client's (a 4xx), never a 500.
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, entry: { code: 'REQUEST_REJECTED', message: error.message } };
  }
  return undefined;
}

export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ServiceError, request, reply) => {
    if (error instanceof ServiceError) {
      return reply.code(error.status).send(failed(error.entries, error.data));
    }
    // Two requests raced for something that may exist once (a device joining two configurations):
    // the database refused the second; its checks would have said the same a moment later.
    if (sqlErrorCode(error) === UNIQUE_VIOLATION) {
      return reply.code(409).send(
        failed([
          {
            code: 'CONCURRENT_CHANGE',
            message: 'Another request changed the same data at the same time: read it again and retry.',
          },
        ]),
      );
    }
    const mapped = fromFastify(error);
    if (mapped) return reply.code(mapped.status).send(failed([mapped.entry]));
    // Anything else is a fault of the service: log it whole, answer without internals.
    request.log.error({ err: error }, 'request failed');
    return reply
      .code(500)
      .send(
        failed([{ code: 'INTERNAL_ERROR', message: 'The service failed to handle this request. It has been logged.' }]),
      );
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send(
      failed([
        {
          code: 'ROUTE_NOT_FOUND',
          message:
            'The service has no operation at this path for this method: check the path and the method against the service interface (docs/service-api.md).',
        },
      ]),
    ),
  );
}
