/**
 * The stack's HAProxy configuration (scripts/stack.ts writes it into the run directory;
 * docs/operations.md tells production to do the same).
 */

/** What the configuration needs of each instance. */
export interface BalancedInstance {
  name: string;
  port: number;
}

/**
 * Decided on the path as the instance will read it (percent-decoded): one that is not in normal
 * form (a dot segment, an empty segment, a backslash, a percent sign left after decoding, i.e.
 * encoded twice) is refused outright, so that what is left is normalized and /metrics is
 * recognised however it was spelled (%6d, %2f, //, /./, /x/../, case, ;params).
 */
export const METRICS_DENY_RULES = [
  "http-request deny deny_status 400 if { path,url_dec -m reg '(^|/)[.][.]?(/|$)|//|[\\\\%]' }",
  "http-request deny deny_status 404 if { path,url_dec,lower -m reg '^/metrics([/;]|$)' }",
] as const;

/**
 * What HAProxy answers by itself, in the service's envelope ({ data, success, errors }), so that a
 * client reads every answer the same way and never meets HAProxy's HTML page. The 404 is the
 * service's own ROUTE_NOT_FOUND: /metrics is, for a client, not a route. No apostrophes: each body
 * goes between single quotes in the configuration.
 */
export const LOAD_BALANCER_ERRORS: ReadonlyArray<{ status: number; code: string; message: string }> = [
  {
    status: 400,
    code: 'PATH_NOT_NORMALIZED',
    message:
      'The path has a dot segment, an empty segment, a backslash or an encoded percent sign: send it in normal form.',
  },
  {
    status: 404,
    code: 'ROUTE_NOT_FOUND',
    message:
      'The service has no operation at this path for this method: check the path and the method against the service interface (docs/service-api.md).',
  },
  {
    status: 502,
    code: 'BAD_GATEWAY',
    message:
      'The load balancer got no valid answer from the instance it sent the request to. Retry shortly; a change sent with this request may or may not have been applied, so read before repeating one that is not idempotent.',
  },
  {
    status: 503,
    code: 'NO_INSTANCE_AVAILABLE',
    message:
      'No instance of the service is running behind the load balancer. Retry shortly; nothing was sent to the service.',
  },
  {
    status: 504,
    code: 'GATEWAY_TIMEOUT',
    message:
      'The instance did not answer in time. Retry shortly; a change sent with this request may or may not have been applied, so read before repeating one that is not idempotent.',
  },
];

export function envelopeOf(code: string, message: string): string {
  return JSON.stringify({ data: null, success: false, errors: [{ code, message }] });
}

/**
 * The load balancer: round robin over the ready instances (backend `instances`). An instance is
 * checked on /readyz twice a second and taken out after two failures (it died, or the database is
 * away), back after one success. A request that could not reach an instance is sent to another.
 *
 * When no instance is ready, requests go to every instance that is merely alive (backend `alive`,
 * checked on /healthz): during a database outage they answer 503 DATABASE_UNAVAILABLE themselves,
 * with their request id and in the audit log, rather than HAProxy answering for them
 * (docs/decisions.md, "A database outage behind HAProxy"). Only with no live instance at all does
 * HAProxy answer, and then in the envelope too (LOAD_BALANCER_ERRORS). /metrics is not passed on:
 * each instance is scraped directly (docs/operations.md).
 */
export function haproxyConfig(port: number, instances: readonly BalancedInstance[]): string {
  const servers = instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check`);
  return [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 10s',
    '  timeout check 2s',
    '  option redispatch',
    '  retries 3',
    ...LOAD_BALANCER_ERRORS.map(
      ({ status, code, message }) =>
        `  http-error status ${status} content-type application/json string '${envelopeOf(code, message)}'`,
    ),
    '',
    'frontend provisioner',
    `  bind 127.0.0.1:${port}`,
    '  option forwardfor',
    ...METRICS_DENY_RULES.map((rule) => `  ${rule}`),
    '  use_backend alive if { nbsrv(instances) eq 0 }',
    '  default_backend instances',
    '',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...servers,
    '',
    'backend alive',
    '  balance roundrobin',
    '  option httpchk GET /healthz',
    '  http-check expect status 200',
    '  default-server inter 500ms fall 2 rise 1',
    ...servers,
    '',
  ].join('\n');
}
