import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Every request has an id: the one the caller (or the load balancer) sent in X-Request-Id when it
 * is sane, else a new UUID. It labels the request's log lines and goes back in the answer's
 * X-Request-Id, so one id follows a request from the client through the load balancer to the logs.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Short, printable, no spaces or quotes: safe to log and to send back as a header. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:/+=@-]{1,128}$/;

export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}

/** Fastify's option that takes the id from requestIdOf; pino logs it as `reqId` on every line of the request. */
export const requestIdOptions = { genReqId: requestIdOf };

export function installRequestId(app: FastifyInstance): void {
  // Set before anything can fail, so that error answers carry it too.
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });
}
