import { randomUUID } from 'node:crypto';
import { ApiError } from '../shared/errors.js';
import { JsonText, jsonString } from '../shared/json-text.js';
import { infoLineWriter, serializerOf, type Logger } from '../shared/logger.js';
import { corsHeaders } from './cors.js';
import { toErrorResponse } from './error-response.js';
import type { IncomingRequest, OutgoingResponse, RequestProcessor } from './http.js';
import { decodeBody, parseQueryString, validate } from './input.js';
import { RequestIds } from './request-ids.js';
import type { HttpMetrics, RouteSeries } from './metrics.js';
import { effectiveBodyKind, HttpReply, successStatusOf, type BoundRoute, type HttpMethod, type RequestContext } from './route.js';
import type { Principal } from '../domain/principal.js';

/**
 * Runs before a route's input is validated, with the raw request in hand:
 * the access gate (keys, scopes, quotas) plugs in here, reading the route's
 * row of the endpoint table. Throwing an ApiError refuses the request.
 */
export type RequestGuard = (route: BoundRoute, context: GuardContext) => void | Promise<void>;

export interface GuardContext {
  readonly requestId: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly rawQuery: Readonly<Record<string, string | string[]>>;
  readonly remoteAddress: string;
  readonly log: Logger;
  /** The key an in-process (sandbox) request runs as; never set from the network. */
  readonly actAsKeyId: string | undefined;
  /** The client's address as the access gate resolved it (trusted proxies); the peer until then. */
  clientAddress: string;
  /** The gate has resolved `clientAddress` (now, or earlier on the same connection: a socket's messages are not resolved again). */
  clientAddressResolved: boolean;
  /** Guards that authenticate the caller record who it is here. */
  principal: Principal | undefined;
  setHeader(name: string, value: string): void;
}

export interface PipelineDeps {
  logger: Logger;
  metrics: HttpMetrics;
  guards: readonly RequestGuard[];
  /** Request ids for the processors of one edge; a processor makes its own when absent. */
  requestIds?: RequestIds;
}

const NO_BODY = Buffer.alloc(0);
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
/** A refused request's target may be 8 KiB or more: its log line keeps this much of it. */
const LOGGED_URL_CHARS = 2048;

/** A caller-supplied x-request-id is kept when sane, so traces join up across services. */
function requestIdOf(headers: Record<string, string>, ids: RequestIds): string {
  const given = headers['x-request-id'];
  return given && REQUEST_ID.test(given) ? given : ids.next();
}

function paramsObject(names: readonly string[], values: readonly string[]): Record<string, string> {
  const params: Record<string, string> = {};
  names.forEach((name, index) => {
    params[name] = safeDecode(values[index] ?? '');
  });
  return params;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ApiError('VALIDATION_ERROR', { message: ['params: malformed percent-encoding'] });
  }
}

export interface PipelineRoute {
  /** Label for logs and metrics: the route pattern, or "unmatched". */
  label: string;
  route: BoundRoute | undefined;
  paramNames: readonly string[];
}

/**
 * The per-request state the guards and the handler see. A class (one stable
 * shape, no per-request closures but `setHeader`) because one is allocated for
 * every request.
 */
class PipelineRequest implements GuardContext, RequestContext {
  readonly responseHeaders: Record<string, string> = {};
  readonly rawQuery: Record<string, string | string[]>;
  params: unknown = undefined;
  query: unknown = undefined;
  body: unknown = undefined;
  rawBody: Buffer | undefined = undefined;
  principal: Principal | undefined = undefined;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly remoteAddress: string;
  readonly actAsKeyId: string | undefined;
  clientAddress: string;
  clientAddressResolved = false;

  constructor(
    private readonly incoming: IncomingRequest,
    readonly requestId: string,
    readonly method: HttpMethod,
    readonly log: Logger,
  ) {
    this.rawQuery = parseQueryString(incoming.query);
    this.path = incoming.url;
    this.headers = incoming.headers;
    this.remoteAddress = incoming.remoteAddress;
    this.actAsKeyId = incoming.actAsKeyId;
    this.clientAddress = incoming.remoteAddress;
  }

  /** Lazy (see IncomingRequest.signal): read it as `context.signal`, not through a rest copy of the context. */
  get signal(): AbortSignal {
    return this.incoming.signal;
  }

  /** An arrow property, so handlers may destructure it. */
  readonly setHeader = (name: string, value: string): void => {
    this.responseHeaders[name.toLowerCase()] = value;
  };
}

function errorResponseOf(error: unknown, requestId: string, log: Logger): OutgoingResponse {
  const mapped = toErrorResponse(error, requestId, log);
  return {
    status: mapped.status,
    headers: { 'content-type': JSON_CONTENT_TYPE, ...mapped.headers },
    body: JSON.stringify(mapped.body),
    // An unread (oversize) body leaves the connection unusable.
    closeConnection: error instanceof ApiError && error.code === 'PAYLOAD_TOO_LARGE',
  };
}

/** Builds the processor that turns one route's requests into responses. */
export function createRouteProcessor(target: PipelineRoute, deps: PipelineDeps): RequestProcessor {
  const { route, label, paramNames } = target;
  const log = deps.logger;
  const requestIds = deps.requestIds ?? new RequestIds();
  const writeInfoLine = infoLineWriter(log);
  const urlSerializer = serializerOf(log, 'url');
  const routeMember = `,"route":${JSON.stringify(label)}`;
  const secretInPath = route?.path.includes('{token}') === true;
  /** The metrics series of the last answer: a route answers the same method and status again and again. */
  let series: RouteSeries | undefined;

  /** Headers every answer carries, then its metrics and its log line. */
  const finish = (incoming: IncomingRequest, requestId: string, request: PipelineRequest | undefined, response: OutgoingResponse, startedAt: bigint): OutgoingResponse => {
    const headers = response.headers;
    if (request) for (const name in request.responseHeaders) headers[name] = request.responseHeaders[name]!;
    const origin = incoming.headers.origin;
    if (origin) {
      // a reply that already varies (a tile by Accept-Encoding) keeps its own Vary beside Origin
      const varies = headers.vary;
      Object.assign(headers, corsHeaders(origin));
      if (varies) headers.vary = `${varies}, Origin`;
    }
    headers['x-request-id'] = requestId;
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const status = response.status;
    if (series === undefined || series.statusCode !== status || series.labels.method !== incoming.method) series = deps.metrics.seriesOf(incoming.method, label, status);
    series.observe(seconds);
    // the line is built only when it will be written; the logger's `url` serializer masks secret query parameters
    if (log.isLevelEnabled('info')) {
      const url = incoming.query ? `${incoming.url}?${incoming.query}` : incoming.url;
      // Routes with a secret in the path (share and push tokens) are logged by their pattern.
      const logged = secretInPath ? label : url.length > LOGGED_URL_CHARS ? `${url.slice(0, LOGGED_URL_CHARS)}…` : url;
      const durationMs = Math.round(seconds * 1e6) / 1e3;
      if (writeInfoLine) {
        // the same line pino writes for these fields, built without its generic walk (see infoLineWriter)
        const shownUrl = urlSerializer ? urlSerializer(logged) : logged;
        writeInfoLine(
          `,"requestId":${jsonString(requestId)},"method":${jsonString(incoming.method)},"url":${typeof shownUrl === 'string' ? jsonString(shownUrl) : JSON.stringify(shownUrl)}${routeMember},"status":${response.status},"durationMs":${durationMs},"remoteAddress":${jsonString(incoming.remoteAddress)}`,
          'request',
        );
      } else {
        log.info({ requestId, method: incoming.method, url: logged, route: label, status: response.status, durationMs, remoteAddress: incoming.remoteAddress }, 'request');
      }
    }
    return response;
  };

  /**
   * Not async: a request whose guards, validation and handler are all synchronous (no body, embedded counters) is
   * answered at once, with no promise and no trip through the microtask queue; the rest continue as promises.
   */
  const processor: RequestProcessor = (incoming: IncomingRequest): OutgoingResponse | Promise<OutgoingResponse> => {
    const startedAt = process.hrtime.bigint();
    const requestId = requestIdOf(incoming.headers, requestIds);
    let request: PipelineRequest | undefined;
    let response: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      if (!route) {
        throw new ApiError('NOT_FOUND', { message: `Cannot ${incoming.method} ${incoming.url}` });
      }
      request = new PipelineRequest(incoming, requestId, route.method, log);
      response = runRoute(route, request, incoming, paramNames, deps.guards, 0);
    } catch (error) {
      response = errorResponseOf(error, requestId, log);
    }
    if (response instanceof Promise) {
      const pending = request;
      return response.then(
        (answered) => finish(incoming, requestId, pending, answered, startedAt),
        (error: unknown) => finish(incoming, requestId, pending, errorResponseOf(error, requestId, log), startedAt),
      );
    }
    return finish(incoming, requestId, request, response, startedAt);
  };
  processor.refuse = (incoming, error) => {
    const startedAt = process.hrtime.bigint();
    const requestId = requestIdOf(incoming.headers, requestIds);
    return finish(incoming, requestId, undefined, { ...errorResponseOf(error, requestId, log), closeConnection: true }, startedAt);
  };
  return processor;
}

/** Runs the guards from `first` on, then the route: synchronously as far as nothing returns a promise. */
function runRoute(
  route: BoundRoute,
  request: PipelineRequest,
  incoming: IncomingRequest,
  paramNames: readonly string[],
  guards: readonly RequestGuard[],
  first: number,
): OutgoingResponse | Promise<OutgoingResponse> {
  for (let at = first; at < guards.length; at++) {
    const pending = guards[at]!(route, request);
    if (pending) return pending.then(() => runRoute(route, request, incoming, paramNames, guards, at + 1));
  }
  request.params = validate('params', route.params, paramsObject(paramNames, incoming.params));
  request.query = validate('query', route.query, request.rawQuery, route.queryCheck);
  // Each await is a trip through the microtask queue; routes without a body skip this one.
  const bodyKind = effectiveBodyKind(route);
  if (bodyKind !== 'none') return runWithBody(route, request, incoming, bodyKind);
  request.rawBody = NO_BODY;
  request.body = validate('body', route.body, decodeBody(bodyKind, NO_BODY, incoming.headers['content-type']));
  return runHandler(route, request);
}

async function runWithBody(route: BoundRoute, request: PipelineRequest, incoming: IncomingRequest, bodyKind: ReturnType<typeof effectiveBodyKind>): Promise<OutgoingResponse> {
  const raw = await incoming.body;
  request.rawBody = raw;
  if (bodyKind === 'multipart' && route.nonMultipartMessage && !/^multipart\/form-data\s*(;|$)/i.test(incoming.headers['content-type']?.trim() ?? '')) {
    throw new ApiError('VALIDATION_ERROR', { message: route.nonMultipartMessage });
  }
  request.body = validate('body', route.body, decodeBody(bodyKind, raw, incoming.headers['content-type']));
  return runHandler(route, request);
}

function runHandler(route: BoundRoute, request: PipelineRequest): OutgoingResponse | Promise<OutgoingResponse> {
  const result = route.handler(request);
  const status = successStatusOf(route);
  return result instanceof Promise ? result.then((value: unknown) => toOutgoing(value, status)) : toOutgoing(result, status);
}

function toOutgoing(result: unknown, status: number): OutgoingResponse {
  if (result instanceof HttpReply) {
    // copied by a loop into one literal: spreading made temporary objects per answer
    const headers: Record<string, string> = {};
    const given = result.headers;
    for (const name in given) headers[name] = given[name]!;
    if (result.contentType) headers['content-type'] = result.contentType;
    const response: OutgoingResponse = { status: result.status, headers };
    if (result.body !== undefined) response.body = result.body;
    return response;
  }
  return {
    status,
    headers: { 'content-type': JSON_CONTENT_TYPE },
    // A handler returning undefined answers JSON null, never an empty 200 body.
    body: result instanceof JsonText ? result.text : JSON.stringify(result ?? null),
  };
}


/** A request that is not an HTTP call of a route table entry (a WebSocket handshake or message). */
export interface GuardedCall {
  /** Absent: one is made if a guard asks for it (a stream message, which rarely needs one). */
  requestId?: string | undefined;
  headers: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string | string[]>>;
  remoteAddress: string;
  /** The client's address as the guards resolved it earlier on the same connection (not resolved again). */
  clientAddress?: string | undefined;
  log: Logger;
}

/** Who made a guarded call, and from where (the client's address behind trusted proxies). */
export interface AuthorizedCall {
  principal: Principal | undefined;
  /** Undefined when no guard resolved it (e.g. an operations route outside the access gate). */
  clientAddress: string | undefined;
}

/**
 * Runs the guards for a call made outside the HTTP pipeline — a WebSocket handshake or each
 * message on it — as if it were a request of `route`: the same credentials, scopes, key
 * restrictions and quotas. Answers who the caller is and from where; throws the guards' ApiError.
 */
export async function authorizeCall(route: BoundRoute, call: GuardedCall, guards: readonly RequestGuard[], established?: Principal): Promise<AuthorizedCall> {
  const context = new GuardedCallContext(call, established);
  for (const guard of guards) {
    const pending = guard(route, context);
    if (pending) await pending;
  }
  return { principal: context.principal, clientAddress: context.clientAddressResolved ? context.clientAddress : undefined };
}

/** The guards' view of a guarded call: a class (one shape, no closures), since one is made per stream message. */
class GuardedCallContext implements GuardContext {
  readonly headers: Readonly<Record<string, string>>;
  readonly rawQuery: Readonly<Record<string, string | string[]>>;
  readonly remoteAddress: string;
  readonly log: Logger;
  readonly actAsKeyId = undefined;
  clientAddress: string;
  clientAddressResolved: boolean;
  /** A user authenticated earlier on the same connection: the guards skip re-authenticating, still count quotas. */
  principal: Principal | undefined;
  private id: string | undefined;

  constructor(call: GuardedCall, established: Principal | undefined) {
    this.id = call.requestId;
    this.headers = call.headers;
    this.rawQuery = call.query;
    this.remoteAddress = call.remoteAddress;
    this.log = call.log;
    this.clientAddress = call.clientAddress ?? call.remoteAddress;
    this.clientAddressResolved = call.clientAddress !== undefined;
    this.principal = established;
  }

  get requestId(): string {
    return (this.id ??= randomUUID());
  }

  /** Quota headers have nowhere to go on a socket. */
  setHeader(): void {}
}
