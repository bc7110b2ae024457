import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServiceContext } from '../context';
import { installAuditLog } from './audit-log';
import { installErrorHandlers } from './error-handler';
import { installHealth } from './health';
import { installMetrics, type MetricsOptions } from './metrics';
import type { AnyOperationSpec } from './operation';
import { registerOperation } from './register';
import { installRequestId, requestIdOptions } from './request-id';

/**
 * The largest body is a device image: the domain allows 2,000,000 characters once encoded
 * (MAX_DEVICE_IMAGE_LENGTH). 2.5 MiB holds that with its JSON around it, so an image just over the
 * domain's limit gets the domain's DEVICE_IMAGE_TOO_LARGE; anything larger is refused unparsed.
 */
export const BODY_LIMIT = 2.5 * 1024 * 1024;

export interface AppOptions {
  /** Structured JSON request logs (one line per request and response) to this stream; none when absent. */
  logStream?: NodeJS.WritableStream;
  /** Who may read GET /metrics besides a direct loopback peer, and whether it shows the process's own figures. */
  metrics?: MetricsOptions;
  /**
   * The load balancers whose X-Forwarded-For is believed (addresses or CIDR ranges): the client
   * address of a request that came through one is the forwarded one in the logs (/metrics judges its
   * peer by the connection, not by this).
   * None by default: a forwarded address from anyone else is ignored.
   */
  trustedProxies?: readonly string[];
}

export function buildApp(
  ctx: ServiceContext,
  operations: readonly AnyOperationSpec[],
  options: AppOptions = {},
): FastifyInstance {
  const logger: FastifyServerOptions['logger'] = options.logStream
    ? { level: 'info', stream: options.logStream }
    : false;
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    // Keep-alive clients (the app, load balancers) must not hold a stop forever.
    forceCloseConnections: true,
    return503OnClosing: true,
    ...requestIdOptions,
    ...(options.trustedProxies && options.trustedProxies.length > 0 ? { trustProxy: [...options.trustedProxies] } : {}),
  });
  installErrorHandlers(app);
  installRequestId(app);
  installAuditLog(app);
  installHealth(app, ctx);
  installMetrics(app, ctx, options.metrics);
  // An empty body sent as application/json (generic clients set the type on every request) is no
  // body: operations whose body is optional accept it, the others answer BODY_REQUIRED.
  const strictJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (request, body, done) => {
    if (body === '' || (typeof body === 'string' && body.trim() === '')) return done(null, undefined);
    return strictJson(request, body as string, done);
  });
  for (const operation of operations) registerOperation(app, ctx, operation);
  return app;
}
