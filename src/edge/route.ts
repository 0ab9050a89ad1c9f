import type { z } from 'zod';
import type { AccessClass, EndpointRow } from '../services/access/endpoint-access.js';
import type { ErrorCode } from '../shared/errors.js';
import type { Logger } from '../shared/logger.js';
import type { Principal } from '../domain/principal.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Who may call a route (spec part 1 §4.3): a route's row in services/access/endpoint-access.ts says. */
export type { AccessClass, EndpointRow };

/** How the body is read: JSON (default for POST/PUT/PATCH), multipart form, or none. */
export type BodyKind = 'json' | 'multipart' | 'none';

/** A file part of a multipart body. */
export interface UploadedFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

export interface MultipartForm {
  fields: Record<string, string>;
  files: UploadedFile[];
}

/** What a handler sees: validated input and the request's identity. */
export interface RequestContext<P = unknown, Q = unknown, B = unknown> {
  readonly requestId: string;
  readonly method: HttpMethod;
  /** Path without the query string. */
  readonly path: string;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** The body's bytes as received, before decoding (signed webhooks verify the signature over them). */
  readonly rawBody?: Buffer;
  /** Request headers, lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** Address of the TCP peer as text (IPv4 or IPv6). */
  readonly remoteAddress: string;
  /** The client's address: the peer, or the X-Forwarded-For client behind a trusted proxy (set by the access gate). */
  readonly clientAddress: string;
  readonly log: Logger;
  /** Set by the guards on routes that require credentials. */
  readonly principal: Principal | undefined;
  /** Aborted when the client goes away; pass it to long work. */
  readonly signal: AbortSignal;
  /** Adds a response header (quota headers and the like). */
  setHeader(name: string, value: string): void;
}

/** A response other than "JSON with the method's default status". */
export class HttpReply {
  private constructor(
    readonly status: number,
    readonly body: string | Buffer | undefined,
    readonly contentType: string | undefined,
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  static json(value: unknown, status = 200, headers: Record<string, string> = {}): HttpReply {
    return new HttpReply(status, JSON.stringify(value), 'application/json; charset=utf-8', headers);
  }

  static content(body: string | Buffer, contentType: string, status = 200, headers: Record<string, string> = {}): HttpReply {
    return new HttpReply(status, body, contentType, headers);
  }

  static redirect(location: string, status = 302): HttpReply {
    return new HttpReply(status, undefined, undefined, { location });
  }

  static empty(status = 204, headers: Record<string, string> = {}): HttpReply {
    return new HttpReply(status, undefined, undefined, headers);
  }
}

/**
 * What a route does. Who may call it, its scopes, throttle and billing are not here: they are the
 * endpoint table's row, joined to the route when the edge registers it (a BoundRoute).
 */
export interface RouteDefinition<P = any, Q = any, B = any, R = unknown> {
  method: HttpMethod;
  /** OpenAPI-style path with `{param}` segments, relative to `/api/v1` unless `mount` is `root`. */
  path: string;
  mount?: 'api' | 'root';
  summary: string;
  description?: string;
  tags: string[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  /**
   * A hand-written check of the route's hot query, tested equal to `query` (which stays its documentation): the
   * value `query` would give for a query it accepts, or undefined to let `query` decide and word any refusal.
   */
  queryCheck?: (raw: Readonly<Record<string, string | string[]>>) => Q | undefined;
  body?: z.ZodType<B>;
  bodyKind?: BodyKind;
  /**
   * A multipart route whose spec answers a body that is not multipart/form-data with 400
   * `VALIDATION_ERROR` and this message (e.g. POST /ai/transcribe), rather than the default 415.
   */
  nonMultipartMessage?: string;
  /** Overrides BODY_LIMIT_BYTES for this route. */
  bodyLimitBytes?: number;
  /** Documents the success body in OpenAPI. */
  response?: z.ZodType<R>;
  /** Status of a plain (non-HttpReply) answer, when not the method's default; OpenAPI documents the same. */
  successStatus?: number;
  /** Content type of a non-JSON success body, for OpenAPI. */
  responseContentType?: string;
  /** Error codes this route may answer with, for OpenAPI (validation and internal errors are implied). */
  errors?: ErrorCode[];
  /** Left out of the OpenAPI document (static assets). */
  hidden?: boolean;
  /** A POST that only computes (stores nothing), so the developer sandbox may run it; GETs always may. */
  readOnly?: boolean;
  handler(context: RequestContext<P, Q, B>): Promise<R | HttpReply> | R | HttpReply;
}

/** A route joined to its row of the endpoint table (route-binding.ts): what the guards, OpenAPI and billing read. */
export interface BoundRoute<P = any, Q = any, B = any, R = unknown> extends RouteDefinition<P, Q, B, R> {
  readonly endpoint: EndpointRow;
}

/** Declares a route with its types inferred from its schemas. */
export function defineRoute<P = undefined, Q = undefined, B = undefined, R = unknown>(
  route: RouteDefinition<P, Q, B, R>,
): RouteDefinition<P, Q, B, R> {
  return route;
}

/** Success status by method: POST answers 201 (spec part 1, Conventions), everything else 200. */
export function defaultStatus(method: HttpMethod): number {
  return method === 'POST' ? 201 : 200;
}

/** The status a route's plain answers have: its own `successStatus`, else the method's default. */
export function successStatusOf(route: Pick<RouteDefinition, 'method' | 'successStatus'>): number {
  return route.successStatus ?? defaultStatus(route.method);
}

/** The full path a route is served at. */
export function mountedPath(route: Pick<RouteDefinition, 'path' | 'mount'>): string {
  return route.mount === 'root' ? route.path : `/api/v1${route.path === '/' ? '' : route.path}`;
}

export function effectiveBodyKind(route: Pick<RouteDefinition, 'bodyKind' | 'method'>): BodyKind {
  if (route.bodyKind) return route.bodyKind;
  return route.method === 'GET' || route.method === 'DELETE' ? 'none' : 'json';
}
