import { timingSafeEqual } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ServiceContext } from '../context';
import { StatementCount } from '../db/statement-count';
import { forbidden } from './errors';

/**
 * GET /metrics in the Prometheus text format, per instance: request durations by route and status,
 * the database pool, confirmations recorded, cache hits.
 *
 * Who may read it: a scraper on the same machine connecting directly (a loopback peer, and no
 * Forwarded/X-Forwarded-For header, so nothing relayed by a proxy on this machine), or any peer
 * sending `Authorization: Bearer <metrics token>` when the instance has one
 * (PROVISIONER_METRICS_TOKEN). Everyone else gets 403. docs/operations.md says how to scrape.
 */
export interface MetricsOptions {
  /** A bearer token that lets a scraper on another machine read /metrics. */
  token?: string;
  /** Also the process's own figures (CPU, memory, event loop lag, GC): for a long-running `serve`. */
  processMetrics?: boolean;
}

type ConfirmationKind = 'firmware' | 'configuration';
/** recorded: stored now; replay: the same confirmation (or idempotency key) was stored before. */
type ConfirmationResult = 'recorded' | 'replay';

/** What a confirmation handler decided, counted once its answer has gone out (a retried transaction decides again). */
const confirmations = new WeakMap<FastifyRequest, { kind: ConfirmationKind; result: ConfirmationResult }>();

export function noteConfirmation(request: FastifyRequest, kind: ConfirmationKind, result: ConfirmationResult): void {
  confirmations.set(request, { kind, result });
}

/** The statements each request's operation ran, counted once its answer has gone out. */
const statementCounts = new WeakMap<FastifyRequest, StatementCount>();

/** Where the statements of this request's operation are to be counted (server/db/statement-count.ts). */
export function statementCountOf(request: FastifyRequest): StatementCount {
  const count = new StatementCount();
  statementCounts.set(request, count);
  return count;
}

function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

function bearerMatches(header: string | undefined, token: string): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  const sent = Buffer.from(header.slice('Bearer '.length).trim());
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

function mayRead(request: FastifyRequest, token: string | undefined): boolean {
  if (token && bearerMatches(request.headers.authorization, token)) return true;
  const relayed = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  return !relayed && isLoopback(request.socket.remoteAddress);
}

export function installMetrics(app: FastifyInstance, ctx: ServiceContext, options: MetricsOptions = {}): void {
  // A registry per app: tests and benchmarks run several services in one process.
  const registry = new Registry();
  if (options.processMetrics) {
    collectDefaultMetrics({ register: registry });
    // The heap's limit is set when the process starts (scripts/service-heap.mjs, or the operator's
    // NODE_OPTIONS): shown so that one can see which an instance runs with.
    new Gauge({
      name: 'provisioner_heap_size_limit_bytes',
      help: "The V8 heap's limit this process started with: its old space's and young generation's maximum together.",
      registers: [registry],
      collect() {
        this.set(getHeapStatistics().heap_size_limit);
      },
    });
  }

  const durations = new Histogram({
    name: 'provisioner_http_request_duration_seconds',
    help: 'Time from receiving a request to sending its answer, by route (the path pattern) and status.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const recorded = new Counter({
    name: 'provisioner_confirmations_total',
    help: 'Confirm-apply calls answered with success, by kind and whether they were recorded now or were a replay of one recorded before.',
    labelNames: ['kind', 'result'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'provisioner_db_pool_connections',
    help: 'Connections of this instance to the PostgreSQL server: open (total), idle, and requests waiting for one; max is the pool size.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const use = ctx.db.poolUse();
      if (!use) return;
      this.set({ state: 'total' }, use.total);
      this.set({ state: 'idle' }, use.idle);
      this.set({ state: 'waiting' }, use.waiting);
      this.set({ state: 'max' }, use.max);
    },
  });
  new Counter({
    name: 'provisioner_cache_lookups_total',
    help: 'Lookups of the read cache (answers of reads) and the API key cache, by result (hit: answered from memory; miss: asked the database).',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const caches = [
        ['read', ctx.reads?.stats],
        ['api_key', ctx.keys.stats],
      ] as const;
      for (const [cache, stats] of caches) {
        if (!stats) continue;
        this.inc({ cache, result: 'hit' }, stats.hits);
        this.inc({ cache, result: 'miss' }, stats.misses);
      }
    },
  });

  new Counter({
    name: 'provisioner_catch_up_total',
    help: "Catch-ups with the other instances' commits before an operation (PostgreSQL), by how each was settled: query (this one sent a query on the listening connection) or shared (it waited for one sent for others).",
    labelNames: ['result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const counts = ctx.catchUps;
      if (!counts) return;
      this.inc({ result: 'query' }, counts.queries);
      this.inc({ result: 'shared' }, counts.requests - counts.queries);
    },
  });

  const statements = new Counter({
    name: 'provisioner_db_statements_total',
    help: "SQL statements the operations ran (BEGIN and COMMIT excepted), by route: divided by the route's request count, its SQL per request. A read answered from the cache runs none.",
    labelNames: ['method', 'route'] as const,
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    durations.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    const count = statementCounts.get(request);
    if (count) statements.inc({ method: request.method, route }, count.statements);
    const confirmation = confirmations.get(request);
    if (confirmation && reply.statusCode < 300) recorded.inc(confirmation);
  });

  app.get('/metrics', async (request, reply) => {
    if (!mayRead(request, options.token)) {
      throw forbidden(
        'METRICS_FORBIDDEN',
        'Metrics are for a scraper on this machine, or one that sends the metrics token (Authorization: Bearer <token>); see docs/operations.md.',
      );
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
