import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from './operation';

/**
 * The line an auditor reads (IEC 62443-4-2 CR 2.8): one per request, after its answer, naming who
 * (the organization and the key's name, never its value, and the role), what (method and route,
 * the route's pattern rather than the path, so that no serial number or key name in a path is
 * needed to group them), the outcome and from where. The client address is the peer's, or the
 * address a trusted proxy forwarded (Fastify's trustProxy: X-Forwarded-For is believed only from
 * the addresses given with `serve --trusted-proxy`).
 *
 * Security events go in a field of their own, `security: { event, ... }`, so that a log shipper
 * can route them apart: failed authentication and denied access here, key and configuration changes where they
 * happen (securityEvent).
 */
const callers = new WeakMap<FastifyRequest, Caller>();

/** Called by the route once the request's key is known. */
export function noteCaller(request: FastifyRequest, caller: Caller): void {
  callers.set(request, caller);
}

export function callerOf(request: FastifyRequest): Caller | undefined {
  return callers.get(request);
}

export type SecurityEvent =
  | { event: 'auth-failed' | 'access-denied'; status: number }
  | {
      event: 'key-created' | 'key-revoked' | 'key-rotated' | 'key-role-changed';
      orgId: string;
      keyName: string;
      role?: string;
      by?: string;
    }
  | { event: 'configuration'; setting: string }
  | { event: 'backup' | 'restore'; target: string; file: string };

/** Logs a security event on the request's logger (its id, and the audit line's fields, come with it). */
export function securityEvent(request: FastifyRequest, event: SecurityEvent, message: string): void {
  const caller = callers.get(request);
  request.log.info({ security: { ...event, ...(caller && !('by' in event) ? { by: caller.keyName } : {}) } }, message);
}

function outcomeOf(status: number): 'ok' | 'refused' | 'failed' {
  if (status < 400) return 'ok';
  return status >= 500 ? 'failed' : 'refused';
}

export function installAuditLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    // Probes are the load balancer's, many a second: readiness logs its own changes of state
    // (server/http/health.ts). Scrapes are logged only when refused or failed.
    if (route === '/healthz' || route === '/readyz') return;
    if (route === '/metrics' && reply.statusCode < 400) return;
    const caller = callers.get(request);
    const status = reply.statusCode;
    const line = {
      audit: {
        orgId: caller?.orgId ?? null,
        keyName: caller?.keyName ?? null,
        role: caller?.role ?? null,
        method: request.method,
        route: route ?? null,
        status,
        outcome: outcomeOf(status),
        client: request.ip,
      },
      // A key refused (401), or a known key asking beyond its organization or role (403).
      ...(status === 401
        ? { security: { event: 'auth-failed', status } }
        : status === 403
          ? { security: { event: 'access-denied', status } }
          : {}),
    };
    if (status >= 500) request.log.error(line, 'request');
    else if (line.security) request.log.warn(line, 'request');
    else request.log.info(line, 'request');
  });
}
