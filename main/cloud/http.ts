import { z } from 'zod';
import {
  AuthError,
  CancelledError,
  CloudError,
  NetworkError,
  ResponseFormatError,
  ServiceError,
  type NetworkFailure,
  type RequestDescription,
  type ServiceErrorEntry,
} from './errors';

/**
 * The transport under every operation: one place that builds URLs, adds the key, applies the
 * timeout and the caller's cancellation, reads the envelope, turns failures into typed errors and
 * retries what is safe to repeat.
 */

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface RetryPolicy {
  /** Total attempts including the first. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 8_000 };
export const DEFAULT_TIMEOUT_MS = 30_000;

export interface TransportOptions {
  /** e.g. `http://127.0.0.1:8080`; `/v1/...` is appended. */
  baseUrl: string;
  orgId: string;
  apiKey: string;
  fetch?: FetchFn;
  /** Per attempt: time to the response headers, and for bodies the longest pause between chunks. */
  timeoutMs?: number;
  retry?: Partial<RetryPolicy>;
  timers?: Timers;
  /** In [0, 1): the jitter source; injectable so tests get a fixed schedule. */
  random?: () => number;
}

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** `false` disables retries for this call even where they would be safe. */
  retry?: false | Partial<RetryPolicy>;
}

export type QueryValue = string | number | boolean | null | undefined;
export type Query = Record<string, QueryValue>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestSpec {
  method: HttpMethod;
  /** Relative to `/v1/organizations/{orgId}` unless `absolute` (e.g. `/v1/version`). */
  path: string;
  absolute?: boolean;
  query?: Query;
  /** JSON body; a bare string is sent as a JSON string, as the role operations expect. */
  body?: unknown;
  /**
   * Whether sending the request twice has the effect of sending it once: reads, and the
   * confirmations (the service deduplicates them). Only these are retried.
   */
  safeToRepeat: boolean;
  headers?: Record<string, string>;
}

/** The common response envelope; its data is parsed by each operation's own schema. */
export const envelopeSchema = z.object({
  data: z.unknown().optional(),
  success: z.boolean(),
  errors: z.array(z.looseObject({ code: z.string(), message: z.string(), field: z.string().nullish() })).nullish(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

/** A raw envelope plus the status, before it is judged a success or a failure. */
export interface EnvelopeResult {
  httpStatus: number;
  success: boolean;
  data: unknown;
  errors: ServiceErrorEntry[];
}

export function encodePathSegment(value: string): string {
  return encodeURIComponent(value);
}

export function buildQuery(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Exponential backoff with full jitter: a random delay in [d/2, d] with d doubling per attempt. */
export function backoffDelay(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/** Why an attempt's abort signal fired: our timer, or the caller. */
const TIMEOUT = Symbol('timeout');

interface Attempt {
  signal: AbortSignal;
  /** Restart the inactivity timer (on each body chunk). */
  touch(): void;
  timedOut(): boolean;
  callerAborted(): boolean;
  done(): void;
}

export class Transport {
  readonly baseUrl: string;
  readonly orgId: string;
  private readonly apiKey: string;
  private readonly fetchFn: FetchFn;
  private readonly timeoutMs: number;
  private readonly retryPolicy: RetryPolicy;
  private readonly timers: Timers;
  private readonly random: () => number;

  constructor(options: TransportOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.orgId = options.orgId;
    this.apiKey = options.apiKey;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.retryPolicy = { ...DEFAULT_RETRY, ...options.retry };
    this.timers = options.timers ?? realTimers;
    this.random = options.random ?? Math.random;
  }

  get orgPrefix(): string {
    return `/v1/organizations/${encodePathSegment(this.orgId)}`;
  }

  describe(spec: RequestSpec): RequestDescription {
    const path = (spec.absolute ? spec.path : `${this.orgPrefix}${spec.path}`) + buildQuery(spec.query);
    return { method: spec.method, path };
  }

  /** A JSON operation: returns `data` parsed by `schema`, or throws a typed error. */
  async json<T>(spec: RequestSpec, schema: z.ZodType<T>, call: CallOptions = {}): Promise<T> {
    const result = await this.envelope(spec, call);
    const request = this.describe(spec);
    if (!result.success || result.httpStatus < 200 || result.httpStatus >= 300) {
      throw errorFor(result.httpStatus, result.errors, request);
    }
    const parsed = schema.safeParse(result.data);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ResponseFormatError(
        `The service's answer does not match the interface at ${issue?.path.join('.') || 'data'}: ${issue?.message ?? 'invalid'}`,
        request,
        result.httpStatus,
        parsed.error,
      );
    }
    return parsed.data;
  }

  /**
   * The envelope as sent, without throwing for `success: false` with a 400/409 (json() judges it).
   * Network failures, auth failures and 5xx throw.
   */
  async envelope(spec: RequestSpec, call: CallOptions = {}): Promise<EnvelopeResult> {
    return this.withRetry(spec, call, async (attempt, request) => {
      const response = await this.send(spec, attempt, request);
      const text = await readText(response, attempt, request);
      let envelope: Envelope | undefined;
      try {
        const parsed = envelopeSchema.safeParse(JSON.parse(text));
        if (parsed.success) envelope = parsed.data;
      } catch {
        // Not JSON: judged by status below.
      }
      if (!envelope) {
        if (response.ok) {
          throw new ResponseFormatError(
            `The service answered ${response.status} without the response envelope`,
            request,
            response.status,
          );
        }
        throw errorFor(
          response.status,
          [],
          request,
          `The service answered ${response.status} ${response.statusText}`.trim() + '.',
          response.headers,
        );
      }
      const errors = (envelope.errors ?? []) as ServiceErrorEntry[];
      // Thrown here, inside the retry loop, so the transient ones (ServiceError.retryable: 5xx, 408,
      // 429, a collision) are retried; any other error status is an answer, judged by the caller.
      if (!response.ok) {
        const error = errorFor(response.status, errors, request, undefined, response.headers);
        if (error instanceof AuthError || error.retryable) throw error;
      }
      return { httpStatus: response.status, success: envelope.success, data: envelope.data, errors };
    });
  }

  /**
   * A binary download: once the status is 2xx, hands `sink` the response headers and its body as
   * chunks, so the caller writes it where it belongs. Reading a chunk restarts the inactivity timer
   * and turns a broken connection into a `NetworkError` (retried: downloads are reads). Errors the
   * sink raises itself (a full disk) propagate unchanged and are not retried. Error statuses come
   * back as envelopes, like every other operation.
   */
  async stream<T>(spec: RequestSpec, call: CallOptions, sink: (body: DownloadBody) => Promise<T>): Promise<T> {
    return this.withRetry(spec, call, async (attempt, request) => {
      const response = await this.send(spec, attempt, request);
      if (!response.ok) {
        const text = await readText(response, attempt, request).catch(() => '');
        let errors: ServiceErrorEntry[] = [];
        try {
          const parsed = envelopeSchema.safeParse(JSON.parse(text));
          if (parsed.success) errors = (parsed.data.errors ?? []) as ServiceErrorEntry[];
        } catch {
          // a non-JSON error body: the status says enough
        }
        throw errorFor(response.status, errors, request, undefined, response.headers);
      }
      return sink({
        headers: response.headers,
        httpStatus: response.status,
        chunks: bodyChunks(response, attempt, request),
        signal: attempt.signal,
      });
    });
  }

  private async send(spec: RequestSpec, attempt: Attempt, request: RequestDescription): Promise<Response> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.apiKey}`,
      accept: 'application/json, application/octet-stream;q=0.9, */*;q=0.5',
      ...spec.headers,
    };
    const init: RequestInit = { method: spec.method, headers, signal: attempt.signal };
    if (spec.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(spec.body);
    }
    try {
      return await this.fetchFn(this.baseUrl + request.path, init);
    } catch (err) {
      throw translateFailure(err, attempt, request);
    }
  }

  private async withRetry<T>(
    spec: RequestSpec,
    call: CallOptions,
    run: (attempt: Attempt, request: RequestDescription) => Promise<T>,
  ): Promise<T> {
    const request = this.describe(spec);
    const policy: RetryPolicy =
      spec.safeToRepeat && call.retry !== false
        ? { ...this.retryPolicy, ...(call.retry ?? {}) }
        : { ...this.retryPolicy, attempts: 1 };
    const timeoutMs = call.timeoutMs ?? this.timeoutMs;
    for (let index = 0; ; index += 1) {
      if (call.signal?.aborted) throw new CancelledError(request, call.signal.reason);
      const attempt = this.startAttempt(timeoutMs, call.signal);
      try {
        return await run(attempt, request);
      } catch (err) {
        if (!(err instanceof CloudError)) throw err;
        const error = err;
        if (!error.retryable || index + 1 >= policy.attempts) throw error;
        let delay = backoffDelay(index, policy, this.random);
        // Honour the service's Retry-After, but never past the policy's ceiling: a caller that wants
        // to wait longer has the outbox for that.
        if (error instanceof ServiceError) delay = Math.max(delay, error.retryAfterMs ?? 0);
        await this.sleep(Math.min(delay, policy.maxDelayMs), call.signal, request);
      } finally {
        attempt.done();
      }
    }
  }

  private startAttempt(timeoutMs: number, callerSignal: AbortSignal | undefined): Attempt {
    const controller = new AbortController();
    let timedOut = false;
    let handle: unknown;
    const arm = (): void => {
      if (handle !== undefined) this.timers.clearTimeout(handle);
      handle = this.timers.setTimeout(() => {
        timedOut = true;
        controller.abort(TIMEOUT);
      }, timeoutMs);
    };
    const onCallerAbort = (): void => controller.abort(callerSignal?.reason);
    callerSignal?.addEventListener('abort', onCallerAbort, { once: true });
    arm();
    return {
      signal: controller.signal,
      touch: () => {
        if (!controller.signal.aborted) arm();
      },
      timedOut: () => timedOut,
      callerAborted: () => callerSignal?.aborted === true,
      done: () => {
        if (handle !== undefined) this.timers.clearTimeout(handle);
        handle = undefined;
        callerSignal?.removeEventListener('abort', onCallerAbort);
        // Frees the connection when a body was left unread (a sink that failed part way); after a
        // fully read body it changes nothing.
        if (!controller.signal.aborted) controller.abort();
      },
    };
  }

  private sleep(ms: number, signal: AbortSignal | undefined, request: RequestDescription): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new CancelledError(request, signal.reason));
      const onAbort = (): void => {
        this.timers.clearTimeout(handle);
        reject(new CancelledError(request, signal?.reason));
      };
      const handle = this.timers.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function errorFor(
  status: number,
  errors: ServiceErrorEntry[],
  request: RequestDescription,
  message?: string,
  headers?: Headers,
): ServiceError {
  if (status === 401 || status === 403) return new AuthError(status, errors, request, message);
  return new ServiceError(status, errors, request, message, parseRetryAfter(headers?.get('retry-after') ?? null));
}

/** Retry-After as seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs = Date.now()): number | undefined {
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

export interface DownloadBody {
  headers: Headers;
  httpStatus: number;
  chunks: AsyncIterable<Uint8Array>;
  signal: AbortSignal;
}

/** A body's chunks under the attempt's inactivity timer, so a stalled body also times out. */
async function* bodyChunks(
  response: Response,
  attempt: Attempt,
  request: RequestDescription,
): AsyncGenerator<Uint8Array> {
  if (!response.body) return;
  const iterator = (response.body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  while (true) {
    let next: IteratorResult<Uint8Array>;
    try {
      next = await iterator.next();
    } catch (err) {
      throw translateFailure(err, attempt, request);
    }
    if (next.done) return;
    attempt.touch();
    yield next.value;
  }
}

async function readText(response: Response, attempt: Attempt, request: RequestDescription): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of bodyChunks(response, attempt, request)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

function causeCode(err: unknown): string | undefined {
  for (let current: unknown = err, depth = 0; current && depth < 5; depth += 1) {
    if (typeof current === 'object' && 'code' in current && typeof current.code === 'string') return current.code;
    current = typeof current === 'object' && 'cause' in current ? current.cause : undefined;
  }
  return undefined;
}

/** Map whatever fetch or a body stream threw into the client's own error types. */
export function translateFailure(
  err: unknown,
  attempt: Pick<Attempt, 'timedOut' | 'callerAborted'>,
  request: RequestDescription,
): CloudError {
  if (err instanceof CloudError) return err;
  if (attempt.timedOut()) return new NetworkError('timeout', request, err);
  if (attempt.callerAborted()) return new CancelledError(request, err);
  const code = causeCode(err);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'ETIMEDOUT')
    return new NetworkError('timeout', request, err);
  const isBug = code !== undefined && code.startsWith('ERR_INVALID');
  if (
    !isBug &&
    (err instanceof TypeError || code !== undefined || (err instanceof Error && err.name === 'AbortError'))
  ) {
    const failure: NetworkFailure =
      code !== undefined && UNREACHABLE_CODES.has(code) ? 'unreachable' : 'connection-lost';
    return new NetworkError(failure, request, err);
  }
  // Anything else from fetch (a malformed URL, a bad header) is a bug, not a network matter; it
  // still comes back in the client's error family, and is never retried.
  return new ResponseFormatError(err instanceof Error ? err.message : String(err), request, 0, err);
}
