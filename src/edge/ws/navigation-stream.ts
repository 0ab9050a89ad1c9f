/**
 * The navigation session stream (WebSocket): the client sends fixes, the
 * server pushes a progress frame per accepted fix, every event as it
 * happens, and re-routes with the new route. Any process serves any
 * session: fixes go to the session's owner through the host, frames come
 * back through the host's feed. Protocol: stream-protocol.ts and
 * docs/navigation.md.
 */
import { randomUUID } from 'node:crypto';
import uWS, { type HttpRequest, type HttpResponse, type WebSocket, type us_socket_context_t } from 'uWebSockets.js';
import type { NavigationSessionHost } from '../../actors/navigation-session/session-host.js';
import type { NavigationEvent } from '../../actors/navigation-session/session-model.js';
import { Mailbox, MailboxFullError } from '../../actors/runtime/mailbox.js';
import { ownerOf, type NavigationSessions } from '../../services/navigation/navigation-sessions.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import { toErrorResponse } from '../error-response.js';
import { parseQueryString } from '../input.js';
import { authorizeCall, type RequestGuard } from '../request-pipeline.js';
import type { Principal, RouteDefinition } from '../route.js';
import { clientMessageSchema, type ClientMessage } from './stream-protocol.js';
import { StreamDelivery } from './stream-delivery.js';
import type { WebSocketEndpoint } from './websocket-endpoint.js';

export interface NavigationStreamDeps {
  sessions: NavigationSessions;
  host: NavigationSessionHost;
  guards: readonly RequestGuard[];
  logger: Logger;
  /** The stream's route entry (access and scopes of the handshake). */
  streamRoute: RouteDefinition;
  /** Each fix message is held to this route's rules and quota (POST …/positions). */
  fixRoute: RouteDefinition;
}

interface StreamState {
  sessionId: string;
  since: number;
  principal: Principal | undefined;
  /** When the user's bearer session is next checked (ms): about BEARER_RECHECK_MS after the last check. */
  recheckAtMs: number;
  /** The credentials of the handshake or the auth message, presented again for every fix message's guards. */
  credentials: Record<string, string>;
  remoteAddress: string;
  origin: Record<string, string>;
  delivery?: StreamDelivery;
  unwatch?: () => void;
  authTimer?: NodeJS.Timeout;
  inbox: Mailbox;
  open: boolean;
}

const HIGH_WATER_BYTES = 256 * 1024;
const MAX_QUEUED_FRAMES = 10_000;
const AUTH_TIMEOUT_MS = 10_000;
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Fix messages a socket may have waiting; a client far ahead of the server is told to slow down. */
const INBOX_CAPACITY = 256;
/**
 * A user's bearer session is checked at the handshake and then at most this often (ms), not on
 * every fix message: a revoked session or a disabled user ends the stream within a minute. Quotas and
 * key revocation still apply to every message (keys resolve from the in-memory key directory).
 */
const BEARER_RECHECK_MS = 60_000;
const CLOSE = { unauthenticated: 4401, forbidden: 4403, notFound: 4404, badRequest: 4400 } as const;
const decoder = new TextDecoder();
const NO_QUERY: Readonly<Record<string, string>> = Object.freeze({});

function closeCodeFor(error: ApiError): number {
  if (error.statusCode === 401) return CLOSE.unauthenticated;
  if (error.statusCode === 403) return CLOSE.forbidden;
  if (error.statusCode === 404) return CLOSE.notFound;
  return CLOSE.badRequest;
}

function credentialsOf(headers: Record<string, string>, query: Record<string, string | string[]>): Record<string, string> {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);
  const key = headers['x-api-key'] ?? first(query.api_key) ?? first(query.apiKey);
  if (key) return { 'x-api-key': key };
  if (headers.authorization) return { authorization: headers.authorization };
  const token = first(query.access_token) ?? first(query.token);
  return token ? { authorization: `Bearer ${token}` } : {};
}

export function navigationStreamEndpoint(deps: NavigationStreamDeps): WebSocketEndpoint {
  const log = deps.logger;

  const authorize = (route: RouteDefinition, state: Pick<StreamState, 'credentials' | 'remoteAddress' | 'origin'>, requestId: string, established?: Principal) =>
    authorizeCall(route, { requestId, headers: { ...state.origin, ...state.credentials }, query: NO_QUERY, remoteAddress: state.remoteAddress, log }, deps.guards, established);

  /** A fix message's guards: quotas every time; the user's bearer session only when due. */
  const authorizeFix = async (state: StreamState, requestId: string): Promise<Principal | undefined> => {
    const now = Date.now();
    const recheck = state.principal?.kind !== 'user' || now >= state.recheckAtMs;
    const principal = await authorize(deps.fixRoute, state, requestId, recheck ? undefined : state.principal);
    if (recheck) state.recheckAtMs = nextRecheck(now);
    return principal;
  };

  const errorFrame = (error: unknown, requestId: string, id?: string) => {
    const { body } = toErrorResponse(error, requestId, log);
    return { type: 'error', ...(id ? { id } : {}), ...body };
  };

  /** Starts streaming to an authenticated socket: ready frame, catch-up from since, then live frames. */
  const begin = async (ws: WebSocket<StreamState>, snapshot: Record<string, unknown>) => {
    const state = ws.getUserData();
    const delivery = new StreamDelivery(
      {
        send: (text) => (state.open ? ws.send(text, false) : 2),
        bufferedAmount: () => (state.open ? ws.getBufferedAmount() : 0),
        end: (code, reason) => state.open && ws.end(code, reason),
      },
      state.since,
      {
        highWaterBytes: HIGH_WATER_BYTES,
        maxQueuedFrames: MAX_QUEUED_FRAMES,
        eventsAfter: async (since) => ((await deps.sessions.events(state.principal, state.sessionId, since)) as { events: NavigationEvent[] }).events,
      },
    );
    state.delivery = delivery;
    // watch before reading the log, so nothing falls between the two
    state.unwatch = deps.host.watch(state.sessionId, ownerOf(state.principal), (frames) => delivery.offer(frames));
    await delivery.start({ type: 'ready', session: snapshot, resumedFrom: state.since });
  };

  const fail = (ws: WebSocket<StreamState>, error: unknown, id?: string) => {
    const state = ws.getUserData();
    if (!state.open) return;
    const frame = errorFrame(error, randomUUID(), id);
    if (state.delivery) state.delivery.sendControl(frame);
    else ws.send(JSON.stringify(frame), false);
  };

  const handle = async (ws: WebSocket<StreamState>, message: ClientMessage) => {
    const state = ws.getUserData();
    if (message.type === 'auth') {
      if (state.principal || state.delivery) throw new ApiError('VALIDATION_ERROR', { message: ['auth: this stream is already authenticated'] });
      clearTimeout(state.authTimer);
      state.credentials = message.apiKey ? { 'x-api-key': message.apiKey } : { authorization: `Bearer ${message.token}` };
      try {
        state.principal = await authorize(deps.streamRoute, state, randomUUID());
        state.recheckAtMs = nextRecheck(Date.now());
        const snapshot = (await deps.sessions.get(state.principal, state.sessionId)) as Record<string, unknown>;
        if (state.open) await begin(ws, snapshot);
      } catch (error) {
        fail(ws, error, message.id);
        if (state.open) ws.end(error instanceof ApiError ? closeCodeFor(error) : 1011, 'authentication failed');
      }
      return;
    }
    if (!state.delivery) throw new ApiError('UNAUTHENTICATED', { message: 'Send {"type":"auth",…} first' });
    if (message.type === 'ping') {
      state.delivery.sendControl({ type: 'pong', ...(message.id ? { id: message.id } : {}) });
      return;
    }
    const fixes = message.type === 'fix' ? [message.fix] : message.fixes;
    const requestId = randomUUID();
    const principal = await authorizeFix(state, requestId);
    const startedAt = performance.now();
    const answer = (await deps.sessions.positions(principal, state.sessionId, fixes)) as { accepted: number; eventSeq: number; status: string };
    log.debug({ requestId, sessionId: state.sessionId, fixes: fixes.length, durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000 }, 'stream fixes');
    // progress frames already report each fix; an ack answers only a message that asked (gave an id)
    if (message.id) state.delivery.sendControl({ type: 'ack', id: message.id, accepted: answer.accepted, eventSeq: answer.eventSeq, status: answer.status });
  };

  return {
    route: deps.streamRoute,
    behavior: {
      compression: uWS.DISABLED,
      maxPayloadLength: MAX_MESSAGE_BYTES,
      idleTimeout: 120,
      sendPingsAutomatically: true,
      // we queue frames ourselves above the high-water mark, so uWS should never drop one
      maxBackpressure: 64 * 1024 * 1024,
      upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
        const headers: Record<string, string> = {};
        req.forEach((name, value) => (headers[name] = value));
        const query = parseQueryString(req.getQuery() ?? '');
        const sessionId = safeDecode(req.getParameter(0) ?? '');
        const secKey = headers['sec-websocket-key'] ?? '';
        const protocol = headers['sec-websocket-protocol'] ?? '';
        const extensions = headers['sec-websocket-extensions'] ?? '';
        const remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString();
        const requestId = randomUUID();
        let aborted = false;
        res.onAborted(() => (aborted = true));
        const refuse = (error: unknown) => {
          if (aborted) return;
          const { status, body } = toErrorResponse(error, requestId, log);
          res.cork(() => res.writeStatus(`${status} ${body.error}`).writeHeader('content-type', 'application/json; charset=utf-8').end(JSON.stringify(body)));
        };
        const sinceText = Array.isArray(query.since) ? query.since[0] : query.since;
        const since = sinceText === undefined ? 0 : Number(sinceText);
        if (!Number.isInteger(since) || since < 0 || since > 2_147_483_647) {
          refuse(new ApiError('VALIDATION_ERROR', { message: ['query.since: must be an integer eventSeq ≥ 0'] }));
          return;
        }
        const origin: Record<string, string> = {};
        for (const name of ['origin', 'referer', 'x-forwarded-for', 'user-agent']) if (headers[name]) origin[name] = headers[name]!;
        const credentials = credentialsOf(headers, query);
        void (async () => {
          let principal: Principal | undefined;
          try {
            // without credentials the first message must authenticate (browsers cannot set headers on a WebSocket)
            if (Object.keys(credentials).length > 0) {
              principal = await authorize(deps.streamRoute, { credentials, remoteAddress, origin }, requestId);
              await deps.sessions.get(principal, sessionId);
            }
          } catch (error) {
            refuse(error);
            return;
          }
          if (aborted) return;
          const state: StreamState = { sessionId: sessionId.toLowerCase(), since, principal, recheckAtMs: nextRecheck(Date.now()), credentials, remoteAddress, origin, inbox: new Mailbox(INBOX_CAPACITY), open: false };
          res.cork(() => res.upgrade(state, secKey, protocol, extensions, context));
        })();
      },
      open: (ws: WebSocket<StreamState>) => {
        const state = ws.getUserData();
        state.open = true;
        if (!state.principal) {
          state.authTimer = setTimeout(() => state.open && ws.end(CLOSE.unauthenticated, 'authenticate within 10 s'), AUTH_TIMEOUT_MS);
          return;
        }
        void (async () => {
          try {
            const snapshot = (await deps.sessions.get(state.principal, state.sessionId)) as Record<string, unknown>;
            if (state.open) await begin(ws, snapshot);
          } catch (error) {
            fail(ws, error);
            if (state.open) ws.end(error instanceof ApiError ? closeCodeFor(error) : 1011, 'stream could not start');
          }
        })();
      },
      message: (ws: WebSocket<StreamState>, data: ArrayBuffer) => {
        const state = ws.getUserData();
        let parsed: ClientMessage;
        let id: string | undefined;
        try {
          const raw: unknown = JSON.parse(decoder.decode(data));
          id = typeof (raw as { id?: unknown })?.id === 'string' ? (raw as { id: string }).id : undefined;
          const result = clientMessageSchema.safeParse(raw);
          if (!result.success) {
            throw new ApiError('VALIDATION_ERROR', { message: result.error.issues.map((issue) => `${issue.path.join('.') || 'message'}: ${issue.message}`) });
          }
          parsed = result.data;
        } catch (error) {
          fail(ws, error instanceof ApiError ? error : new ApiError('VALIDATION_ERROR', { message: ['message: must be JSON'] }), id);
          return;
        }
        // one message at a time per socket, so fixes reach the session in the order sent
        state.inbox.post(() => handle(ws, parsed)).catch((error) => {
          if (error instanceof MailboxFullError) {
            fail(ws, new ApiError('RATE_LIMITED', { message: 'Too many messages waiting on this stream; slow down' }), parsed.id);
            return;
          }
          fail(ws, error, parsed.id);
        });
      },
      drain: (ws: WebSocket<StreamState>) => ws.getUserData().delivery?.drain(),
      close: (ws: WebSocket<StreamState>) => {
        const state = ws.getUserData();
        state.open = false;
        clearTimeout(state.authTimer);
        state.unwatch?.();
        state.delivery?.close();
      },
    },
  };
}

/** Jittered (±50 %), so sockets that connected together do not all re-check in the same second. */
function nextRecheck(now: number): number {
  return now + BEARER_RECHECK_MS * (0.5 + Math.random());
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
