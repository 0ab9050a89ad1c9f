/**
 * The navigation session stream (WebSocket): the client sends fixes, the
 * server pushes a progress frame per accepted fix, every event as it
 * happens, and re-routes with the new route. Any process serves any
 * session: fixes go to the session's owner through the host, frames come
 * back through the host's feed. Protocol: stream-protocol.ts and
 * docs/navigation.md.
 */
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, WebSocket, us_socket_context_t } from 'uWebSockets.js';
import type { NavigationSessionHost } from '../../actors/navigation-session/session-host.js';
import type { NavigationEvent } from '../../actors/navigation-session/session-model.js';
import { Mailbox, MailboxFullError } from '../../actors/runtime/mailbox.js';
import type { NavigationSessions } from '../../services/navigation/navigation-sessions.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { RequestGuard } from '../request-pipeline.js';
import type { Principal, RouteDefinition } from '../route.js';
import { clientMessageSchema, type ClientMessage } from './stream-protocol.js';
import { AUTH_TIMEOUT_MS, CLOSE, closeCodeFor, credentialsOfAuthMessage, decodeClientMessage, errorFrame, nextRecheck, readHandshake, streamAuthorizer, streamSocketOptions, type StreamIdentity } from './stream-handshake.js';
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

interface StreamState extends StreamIdentity {
  sessionId: string;
  since: number;
  delivery?: StreamDelivery;
  unwatch?: () => void;
  authTimer?: NodeJS.Timeout;
  inbox: Mailbox;
  open: boolean;
}

const HIGH_WATER_BYTES = 256 * 1024;
const MAX_QUEUED_FRAMES = 10_000;
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Fix messages a socket may have waiting; a client far ahead of the server is told to slow down. */
const INBOX_CAPACITY = 256;

export function navigationStreamEndpoint(deps: NavigationStreamDeps): WebSocketEndpoint {
  const log = deps.logger;

  const { authorize, authorizeMessage } = streamAuthorizer(deps.guards, log);
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
    state.unwatch = deps.host.watch(state.sessionId, (frames) => delivery.offer(frames));
    await delivery.start({ type: 'ready', session: snapshot, resumedFrom: state.since });
  };

  const fail = (ws: WebSocket<StreamState>, error: unknown, id?: string) => {
    const state = ws.getUserData();
    if (!state.open) return;
    const frame = errorFrame(error, log, id);
    if (state.delivery) state.delivery.sendControl(frame);
    else ws.send(JSON.stringify(frame), false);
  };

  const handle = async (ws: WebSocket<StreamState>, message: ClientMessage) => {
    const state = ws.getUserData();
    if (message.type === 'auth') {
      if (state.principal || state.delivery) throw new ApiError('VALIDATION_ERROR', { message: ['auth: this stream is already authenticated'] });
      clearTimeout(state.authTimer);
      state.credentials = credentialsOfAuthMessage(message);
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
    const principal = await authorizeMessage(deps.fixRoute, state, requestId);
    const startedAt = performance.now();
    const answer = (await deps.sessions.positions(principal, state.sessionId, fixes)) as { accepted: number; eventSeq: number; status: string };
    log.debug({ requestId, sessionId: state.sessionId, fixes: fixes.length, durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000 }, 'stream fixes');
    state.delivery.sendControl({ type: 'ack', ...(message.id ? { id: message.id } : {}), accepted: answer.accepted, eventSeq: answer.eventSeq, status: answer.status });
  };

  return {
    route: deps.streamRoute,
    behavior: {
      ...streamSocketOptions(MAX_MESSAGE_BYTES),
      upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
        const handshake = readHandshake(res, req, context, log);
        let since: number;
        try {
          since = handshake.since('eventSeq');
        } catch (error) {
          handshake.refuse(error);
          return;
        }
        const { credentials, remoteAddress, origin } = handshake;
        const sessionId = handshake.target;
        void (async () => {
          let principal: Principal | undefined;
          try {
            // without credentials the first message must authenticate (browsers cannot set headers on a WebSocket)
            if (Object.keys(credentials).length > 0) {
              principal = await authorize(deps.streamRoute, { credentials, remoteAddress, origin }, handshake.requestId);
              await deps.sessions.get(principal, sessionId);
            }
          } catch (error) {
            handshake.refuse(error);
            return;
          }
          const state: StreamState = { sessionId: sessionId.toLowerCase(), since, principal, recheckAtMs: nextRecheck(Date.now()), credentials, remoteAddress, origin, inbox: new Mailbox(INBOX_CAPACITY), open: false };
          handshake.accept(state);
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
        const decoded = decodeClientMessage(data, clientMessageSchema);
        if (!decoded.ok) {
          fail(ws, decoded.error, decoded.id);
          return;
        }
        const parsed = decoded.message;
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
