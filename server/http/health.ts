import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../context';
import { pendingMigrations } from '../db/migrate';

/**
 * Two probes for whoever runs instances (a load balancer, an orchestrator), outside /v1 and without
 * a key:
 * - GET /healthz: the process is alive and answers (it touches nothing else), 200.
 * - GET /readyz: the database answers and has every migration this build knows, 200; else 503 with
 *   the reason. A load balancer sends traffic only to ready instances; an instance becomes ready
 *   again by itself when its database comes back.
 */
export function installHealth(app: FastifyInstance, ctx: ServiceContext): void {
  // Probes come twice a second from every load balancer: the requests themselves are not logged,
  // and readiness is logged once per change of state (not ready, and why; ready again), on the
  // instance's logger.
  const quiet = { logLevel: 'warn' as const };
  let reported = 'ready';
  const changedTo = (state: string, fields: Record<string, unknown>, message: string): void => {
    if (state === reported) return;
    reported = state;
    if (state === 'ready') app.log.info({ readiness: state }, message);
    else app.log.warn({ readiness: state, ...fields }, message);
  };
  app.get('/healthz', quiet, async () => ({ status: 'alive' }));
  app.get('/readyz', quiet, async (_request, reply) => {
    let pending: number[];
    try {
      pending = await pendingMigrations(ctx.db);
    } catch (error) {
      changedTo(
        'database unreachable',
        { reason: error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error) },
        'not ready: the database does not answer',
      );
      return reply.code(503).send({ status: 'database unreachable' });
    }
    if (pending.length > 0) {
      changedTo('migrations pending', { pending }, 'not ready: migrations pending');
      return reply.code(503).send({ status: 'migrations pending', pending });
    }
    changedTo('ready', {}, 'ready again');
    return { status: 'ready' };
  });
}
