/**
 * What every authenticated WebSocket channel shares (navigation sessions,
 * live fleets): credentials from the handshake, the handshake's refusal as an
 * HTTP error body, close codes, client message decoding and error frames in
 * the spec's error shape. The channels keep their own protocols.
 */
import { randomUUID } from 'node:crypto';
import uWS, { type HttpRequest, type HttpResponse, type us_socket_context_t } from 'uWebSockets.js';
import type { z } from 'zod';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { toErrorResponse } from '../error-response.js';
import { parseQueryString, validate } from '../input.js';
import { authorizeCall, type RequestGuard } from '../request-pipeline.js';
import type { BoundRoute } from '../route.js';
import type { Principal } from '../../domain/principal.js';
import type { ErrorFrame, PongFrame } from './stream-protocol.js';

/** Close codes (docs/navigation.md, "The WebSocket stream"): 44xx mirror the HTTP status of the error frame before them. */
export const CLOSE = { unauthenticated: 4401, forbidden: 4403, notFound: 4404, badRequest: 4400, tooManyStreams: 4429, messageTooBig: 1009 } as const;

/**
 * What uWS reads of one message before handing it over. Above every channel's own limit, so that a message over
 * that limit is read and answered (an error frame, then 1009); past this one uWS drops the connection on its own,
 * without a close frame (the client sees 1006), before reading it.
 */
const MESSAGE_READ_LIMIT_BYTES = 1024 * 1024;

/**
 * A user's bearer session is checked at the handshake and then at most this often (ms), not on
 * every message: a revoked session or a disabled user ends the stream within a minute. Quotas and
 * key revocation still apply to every message (keys resolve from the in-memory key directory).
 */
const BEARER_RECHECK_MS = 60_000;

const decoder = new TextDecoder();
const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

/** The uWS socket settings every stream channel uses. */
export function streamSocketOptions(maxMessageBytes: number, maxHeldBytes: number) {
  return {
    compression: uWS.DISABLED,
    maxPayloadLength: Math.max(MESSAGE_READ_LIMIT_BYTES, maxMessageBytes),
    idleTimeout: 120,
    sendPingsAutomatically: true,
    // OrderedSender writes to uWS only below its high-water mark and closes a socket holding more than
    // maxHeldBytes, so uWS never needs more; its own limit is the same bound, in case a send bypasses the queue
    // (a send past it is refused, and the frame queues). The sender closes with 4408, not uWS.
    maxBackpressure: maxHeldBytes,
    closeOnBackpressureLimit: 0,
  };
}

export function closeCodeFor(error: ApiError): number {
  if (error.statusCode === 401) return CLOSE.unauthenticated;
  if (error.statusCode === 403) return CLOSE.forbidden;
  if (error.statusCode === 404) return CLOSE.notFound;
  if (error.statusCode === 429) return CLOSE.tooManyStreams;
  return CLOSE.badRequest;
}

/** Jittered (±50 %), so sockets that connected together do not all re-check in the same second. */
export function nextRecheck(now: number): number {
  return now + BEARER_RECHECK_MS * (0.5 + Math.random());
}

/** The error frame for `error`, in the spec's error body shape, with the message's id when it had one. */
export function errorFrame(error: unknown, log: Logger, id?: string): ErrorFrame {
  const { body } = toErrorResponse(error, randomUUID(), log);
  return { type: 'error', ...(id ? { id } : {}), ...body };
}

/** The answer to a `ping`, with its id when it had one. */
export function pongFrame(id: string | undefined): PongFrame {
  return { type: 'pong', ...(id ? { id } : {}) };
}

/** The credentials of an `auth` message, as the guards read them from headers. */
export function credentialsOfAuthMessage(message: { apiKey?: string | undefined; token?: string | undefined }): Record<string, string> {
  return message.apiKey ? { 'x-api-key': message.apiKey } : { authorization: `Bearer ${message.token}` };
}

/**
 * A client message checked as HTTP input is (`validate`: NUL, lone surrogates, nesting depth, then the channel's
 * schema); a refusal keeps the message's id for the error frame. `hot`, when given, answers the channel's most
 * frequent message shape without the schema (it must accept exactly what the schema accepts of that shape, and
 * answer undefined for anything else, which then goes the full way).
 */
export function decodeClientMessage<M>(
  data: ArrayBuffer,
  schema: z.ZodType<M>,
  hot?: (raw: unknown) => M | undefined,
): { ok: true; message: M } | { ok: false; error: ApiError; id: string | undefined } {
  let raw: unknown;
  try {
    raw = JSON.parse(decoder.decode(data));
  } catch {
    return { ok: false, id: undefined, error: new ApiError('VALIDATION_ERROR', { message: ['message: must be JSON'] }) };
  }
  const message = hot?.(raw);
  if (message !== undefined) return { ok: true, message };
  const id = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined;
  try {
    return { ok: true, message: validate('message', schema, raw) };
  } catch (error) {
    if (error instanceof ApiError) return { ok: false, id, error };
    throw error;
  }
}

/** One upgrade request as the channels need it; `refuse` answers it as HTTP, `accept` upgrades it. */
export interface Handshake {
  requestId: string;
  /** The first path parameter (the session or fleet id), URL-decoded. */
  target: string;
  /** `since` from the query: a non-negative integer, 0 when absent (throws ApiError otherwise). */
  since(what: string): number;
  /** Credentials from headers or query (api_key, access_token); empty: the first message must authenticate. */
  credentials: Record<string, string>;
  remoteAddress: string;
  /** Headers the key restrictions look at. */
  origin: Record<string, string>;
  readonly aborted: boolean;
  refuse(error: unknown): void;
  /** False when the client went away first (nothing was upgraded). */
  accept<S>(state: S): boolean;
}

/** Reads an upgrade request synchronously (uWS requests are only valid until the first await) and watches for abort. */
export function readHandshake(res: HttpResponse, req: HttpRequest, context: us_socket_context_t, log: Logger): Handshake {
  const headers: Record<string, string> = {};
  req.forEach((name, value) => (headers[name] = value));
  const query = parseQueryString(req.getQuery() ?? '');
  const target = safeDecode(req.getParameter(0) ?? '');
  const secKey = headers['sec-websocket-key'] ?? '';
  const protocol = headers['sec-websocket-protocol'] ?? '';
  const extensions = headers['sec-websocket-extensions'] ?? '';
  const remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
  const requestId = randomUUID();
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const origin: Record<string, string> = {};
  for (const name of ['origin', 'referer', 'x-forwarded-for', 'user-agent']) if (headers[name]) origin[name] = headers[name]!;
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  return {
    requestId,
    target,
    since: (what) => {
      const text = first(query.since);
      const since = text === undefined ? 0 : Number(text);
      if (!Number.isInteger(since) || since < 0 || since > 2_147_483_647) throw new ApiError('VALIDATION_ERROR', { message: [`query.since: must be an integer ${what} ≥ 0`] });
      return since;
    },
    credentials: credentialsOf(headers, query),
    remoteAddress,
    origin,
    get aborted() {
      return aborted;
    },
    refuse: (error) => {
      if (aborted) return;
      const { status, body } = toErrorResponse(error, requestId, log);
      res.cork(() => res.writeStatus(`${status} ${body.error}`).writeHeader('content-type', 'application/json; charset=utf-8').end(JSON.stringify(body)));
    },
    accept: (state) => {
      if (aborted) return false;
      res.cork(() => res.upgrade(state, secKey, protocol, extensions, context));
      return true;
    },
  };
}

function credentialsOf(headers: Record<string, string>, query: Record<string, string | string[]>): Record<string, string> {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const key = headers['x-api-key'] ?? first(query.api_key) ?? first(query.apiKey);
  if (key) return { 'x-api-key': key };
  if (headers.authorization) return { authorization: headers.authorization };
  const token = first(query.access_token) ?? first(query.token);
  return token ? { authorization: `Bearer ${token}` } : {};
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Who a socket is, as its guards need it again for every message. */
export interface StreamIdentity {
  /** The credentials of the handshake or the auth message. */
  credentials: Record<string, string>;
  remoteAddress: string;
  origin: Record<string, string>;
  principal: Principal | undefined;
  /** When the user's bearer session is next checked (ms). */
  recheckAtMs: number;
  /**
   * The headers the guards read (origin headers and credentials), kept from the socket's first message on: they do
   * not change on a socket once it streams, and rebuilding them was part of the guards' cost per message.
   */
  guardHeaders?: Readonly<Record<string, string>>;
  /**
   * The client's address (trusted proxies' X-Forwarded-For), resolved once at the handshake as the access gate
   * resolves it: the socket's caps count it, and the guards take it instead of resolving it again.
   */
  clientAddress?: string;
}

/**
 * Runs the guards for a stream's handshake and its messages as for REST calls of `route`: the same
 * credentials, scopes, key restrictions and quotas. A message is held to quotas every time and to the
 * user's bearer session only when its re-check is due.
 */
export function streamAuthorizer(guards: readonly RequestGuard[], log: Logger) {
  const authorize = async (route: BoundRoute, identity: Pick<StreamIdentity, 'credentials' | 'remoteAddress' | 'origin' | 'clientAddress'>, requestId: string): Promise<Principal | undefined> => {
    const call = { requestId, headers: { ...identity.origin, ...identity.credentials }, query: NO_QUERY, remoteAddress: identity.remoteAddress, clientAddress: identity.clientAddress, log };
    return (await authorizeCall(route, call, guards)).principal;
  };
  /** A message on a streaming socket (its credentials are settled: an `auth` message comes before any other). */
  const authorizeMessage = async (route: BoundRoute, identity: StreamIdentity): Promise<Principal | undefined> => {
    const now = Date.now();
    const recheck = identity.principal?.kind !== 'user' || now >= identity.recheckAtMs;
    const headers = (identity.guardHeaders ??= { ...identity.origin, ...identity.credentials });
    const call = { headers, query: NO_QUERY, remoteAddress: identity.remoteAddress, clientAddress: identity.clientAddress, log };
    const authorized = await authorizeCall(route, call, guards, recheck ? undefined : identity.principal);
    identity.clientAddress = authorized.clientAddress;
    if (recheck) identity.recheckAtMs = nextRecheck(now);
    return authorized.principal;
  };
  return { authorize, authorizeMessage };
}
