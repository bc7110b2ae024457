import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServiceContext } from '../context';
import { installErrorHandlers } from './error-handler';
import type { AnyOperationSpec } from './operation';
import { registerOperation } from './register';

/**
 * Device images are at most 512 KiB, sent base64 in JSON (4/3 larger) with a data-URL prefix:
 * 1 MiB holds that with room; anything larger is refused before it is parsed.
 */
export const BODY_LIMIT = 1024 * 1024;

export interface AppOptions {
  /** Structured JSON request logs (one line per request and response) to this stream; none when absent. */
  logStream?: NodeJS.WritableStream;
}

export function buildApp(ctx: ServiceContext, operations: readonly AnyOperationSpec[], options: AppOptions = {}): FastifyInstance {
  const logger: FastifyServerOptions['logger'] = options.logStream ? { level: 'info', stream: options.logStream } : false;
  const app = Fastify({
    logger,
    bodyLimit: BODY_LIMIT,
    // Keep-alive clients (the app, load balancers) must not hold a stop forever.
    forceCloseConnections: true,
    return503OnClosing: true,
  });
  installErrorHandlers(app);
  for (const operation of operations) registerOperation(app, ctx, operation);
  return app;
}
