import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { OperationId } from '../../domain/role-matrix';
import type { ApiKeyRole } from '../../domain/enums';
import type { Queryable } from '../db/database';
import type { ServiceContext } from '../context';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who is calling: the key that authenticated the request. */
export interface Caller {
  keyId: string;
  keyName: string;
  orgId: string;
  role: ApiKeyRole;
}

/** A binary download: the file operations answer with bytes, not the envelope. */
export interface FileResult {
  kind: 'file';
  body: Uint8Array;
  mediaType: string;
  fileName: string;
  headers?: Record<string, string>;
}

export type ResponseSpec =
  | { kind: 'json'; data: z.ZodType; status?: 200 | 201; description: string }
  | { kind: 'file'; mediaType: string; description: string; headers?: Record<string, string> };

export interface HandlerInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  /** The transaction of a mutating operation, the database otherwise. */
  db: Queryable;
  ctx: ServiceContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

export interface AuthenticatedInput<P, Q, B> extends HandlerInput<P, Q, B> {
  caller: Caller;
}

interface BaseSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  method: HttpMethod;
  /** Fastify path under /v1 with :params, e.g. '/organizations/:orgId/configurations/:id'. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  params?: P;
  query?: Q;
  body?: B;
  /** Whether the request body may be absent (e.g. a device registered without an image). */
  bodyOptional?: boolean;
  /** Another body form the schema reads (before its preprocessing), for the OpenAPI document. */
  bodyAlsoAccepts?: { type: 'string'; description: string };
  /** Runs in one transaction; a thrown error rolls every change back. */
  mutates: boolean;
  /**
   * For a mutating operation: when its parsed query says it will only read (dryRun=true), it runs
   * without a transaction, as a read does.
   */
  readOnlyWhen?: (query: z.output<Q>) => boolean;
  response: ResponseSpec;
}

/** An operation of the interface: checked against the role matrix, always for the caller's organization. */
export interface OrgOperationSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> extends BaseSpec<
  P,
  Q,
  B
> {
  id: OperationId;
  handler(input: AuthenticatedInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown>;
}

/** An operation without a key (the API version, the public signing key, the OpenAPI document). */
export interface PublicOperationSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> extends BaseSpec<
  P,
  Q,
  B
> {
  id: `public.${string}`;
  handler(input: HandlerInput<z.output<P>, z.output<Q>, z.output<B>>): Promise<unknown>;
}

export type AnyOperationSpec =
  OrgOperationSpec<z.ZodType, z.ZodType, z.ZodType> | PublicOperationSpec<z.ZodType, z.ZodType, z.ZodType>;

export function orgOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  spec: OrgOperationSpec<P, Q, B>,
): AnyOperationSpec {
  return spec as unknown as AnyOperationSpec;
}

export function publicOperation<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType>(
  spec: PublicOperationSpec<P, Q, B>,
): AnyOperationSpec {
  return spec as unknown as AnyOperationSpec;
}

/**
 * A handler's answer with a status other than the operation's usual one (a dry run of a create
 * answers 200, not 201: nothing was created).
 */
export class Answer {
  constructor(
    readonly status: 200 | 201,
    readonly data: unknown,
  ) {}
}

export function fileResult(file: Omit<FileResult, 'kind'>): FileResult {
  return { kind: 'file', ...file };
}

export function isFileResult(value: unknown): value is FileResult {
  return (
    typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'file' && 'body' in value
  );
}

/** A JSON answer sent as is, not wrapped in the envelope again (the OpenAPI document, a dry run that passes). */
export class RawJson {
  constructor(readonly body: unknown) {}
}

/**
 * A dry run whose real call would succeed: the interface's envelope with no errors and no data,
 * 200 whatever the operation's usual status (nothing was created or changed). One that would fail
 * throws the real call's error instead, so both answer alike.
 */
export function dryRunPassed(): RawJson {
  return new RawJson({ data: null, success: true, errors: [] });
}

/** `data` already serialised as JSON text (records kept as JSON in the database go out unparsed). */
export class JsonText {
  private bytes: Buffer | undefined;

  constructor(readonly text: string) {}

  /**
   * The success envelope around it, as the bytes sent. Made once: a JsonText kept in the read
   * cache is sent many times, and a list page is kilobytes to wrap and encode each time.
   */
  envelope(): Buffer {
    this.bytes ??= Buffer.from(`{"data":${this.text},"success":true,"errors":null}`);
    return this.bytes;
  }
}
