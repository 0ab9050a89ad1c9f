/**
 * An authenticated WebSocket channel on one entity (a navigation session, a
 * live fleet): the handshake (credentials in headers or query, or a first
 * `auth` message within WS_AUTH_TIMEOUT_MS), the caps on open sockets, the
 * guards of the channel's route at the handshake and per message, the message
 * size limit, one message at a time per socket, `ping`, error frames in the
 * spec's error shape and close codes. The channel supplies what differs: who
 * may stream the entity, how delivery starts, what a message does.
 */
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, WebSocket, us_socket_context_t } from 'uWebSockets.js';
import type { z } from 'zod';
import { Mailbox, MailboxFullError } from '../../shared/mailbox.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { RequestGuard } from '../request-pipeline.js';
import type { BoundRoute } from '../route.js';
import type { FrameSocket } from './ordered-sender.js';
import { isStreamLimit, type StreamAdmission, type StreamSlot } from './stream-admission.js';
import {
  CLOSE,
  closeCodeFor,
  credentialsOfAuthMessage,
  decodeClientMessage,
  errorFrame,
  nextRecheck,
  pongFrame,
  readHandshake,
  streamAuthorizer,
  streamSocketOptions,
  type StreamIdentity,
} from './stream-handshake.js';
import type { WebSocketEndpoint } from './websocket-endpoint.js';
import type { Principal } from '../../domain/principal.js';

/** What a channel sends on: its frames in order, and the control frames (acks, errors, pongs) among them. */
export interface ChannelDelivery {
  sendControl(frame: object): void;
  drain(): void;
  close(): void;
}

export interface ChannelState extends StreamIdentity {
  /** The entity streamed (lower-cased id from the path). */
  target: string;
  /** `since` from the query. */
  since: number;
  delivery?: ChannelDelivery;
  unwatch?: () => void;
  authTimer?: NodeJS.Timeout;
  inbox: Mailbox;
  open: boolean;
  /** The socket's place in the caps on open sockets; released when it closes. */
  slot?: StreamSlot;
  /** Set when the socket is over a cap: it is opened only to be told so (error frame, close 4429). */
  refusal?: ApiError;
}

type ChannelMessage = { type: string; id?: string | undefined };
type AuthMessage = { type: 'auth'; apiKey?: string | undefined; token?: string | undefined; id?: string | undefined };

export interface StreamChannel<M extends ChannelMessage> {
  /** The stream's route entry: access and scopes of the handshake. */
  route: BoundRoute;
  guards: readonly RequestGuard[];
  logger: Logger;
  /** The caps on open sockets, shared by every channel of the process. */
  admission: StreamAdmission;
  /** Client messages, `auth` and `ping` included. */
  messages: z.ZodType<M>;
  /** The channel's hot message shape checked by hand (see decodeClientMessage); undefined: not decided there. */
  hotMessage?(raw: unknown): M | undefined;
  /** A longer message is answered with an error frame (413), then close code 1009. */
  maxMessageBytes: number;
  /** The most the server holds for one socket (uWS's buffer and the delivery's queue): uWS's maxBackpressure. */
  maxHeldBytes: number;
  /** Messages a socket may have waiting before it is told to slow down. */
  inboxCapacity: number;
  /** What `since` counts, for its validation message ("eventSeq"). */
  sinceName: string;
  /** At the handshake: throws ApiError (403, 404, 400 for an impossible since) unless `principal` may stream `target` from `since`. */
  check(principal: Principal | undefined, target: string, since: number): Promise<unknown>;
  /** Starts delivery on an authenticated socket: sets `state.delivery` (and `state.unwatch`). */
  begin(socket: FrameSocket, state: ChannelState): Promise<void>;
  /** One channel message (not auth, not ping), with the guards of `route` to run on it. */
  handle(message: Exclude<M, { type: 'auth' | 'ping' }>, state: ChannelState, authorize: (route: BoundRoute) => Promise<Principal | undefined>): Promise<void>;
}

export function streamChannelEndpoint<M extends ChannelMessage>(channel: StreamChannel<M>): WebSocketEndpoint {
  const log = channel.logger;
  const admission = channel.admission;
  const { authorize, authorizeMessage } = streamAuthorizer(channel.guards, log);

  const socketOf = (ws: WebSocket<ChannelState>): FrameSocket => {
    const state = ws.getUserData();
    return {
      send: (text) => (state.open ? ws.send(text, false) : 2),
      bufferedAmount: () => (state.open ? ws.getBufferedAmount() : 0),
      end: (code, reason) => state.open && ws.end(code, reason),
      cork: (work) => (state.open ? ws.cork(work) : work()),
    };
  };

  const fail = (ws: WebSocket<ChannelState>, error: unknown, id?: string) => {
    const state = ws.getUserData();
    if (!state.open) return;
    const frame = errorFrame(error, log, id);
    if (state.delivery) state.delivery.sendControl(frame);
    else ws.send(JSON.stringify(frame), false);
  };

  /** An error frame straight to the socket (ahead of any queued frame: the socket is closing), then the close. */
  const closeWith = (ws: WebSocket<ChannelState>, error: ApiError, code: number, reason: string, id?: string) => {
    if (!ws.getUserData().open) return;
    ws.send(JSON.stringify(errorFrame(error, log, id)), false);
    ws.end(code, reason);
  };

  const startOrClose = async (ws: WebSocket<ChannelState>, id?: string) => {
    const state = ws.getUserData();
    try {
      if (state.open) await channel.begin(socketOf(ws), state);
    } catch (error) {
      fail(ws, error, id);
      if (state.open) ws.end(error instanceof ApiError ? closeCodeFor(error) : 1011, 'stream could not start');
    }
  };

  const authenticate = async (ws: WebSocket<ChannelState>, message: AuthMessage) => {
    const state = ws.getUserData();
    if (state.principal || state.delivery) throw new ApiError('VALIDATION_ERROR', { message: ['auth: this stream is already authenticated'] });
    clearTimeout(state.authTimer);
    state.credentials = credentialsOfAuthMessage(message);
    try {
      const principal = await authorize(channel.route, state, randomUUID());
      state.slot?.authenticated(principal);
      state.principal = principal;
      state.recheckAtMs = nextRecheck(Date.now());
    } catch (error) {
      fail(ws, error, message.id);
      if (state.open) ws.end(error instanceof ApiError ? closeCodeFor(error) : 1011, isStreamLimit(error) ? 'too many streams' : 'authentication failed');
      return;
    }
    await startOrClose(ws, message.id);
  };

  const handle = async (ws: WebSocket<ChannelState>, message: M) => {
    const state = ws.getUserData();
    if (message.type === 'auth') return authenticate(ws, message as unknown as AuthMessage);
    if (!state.delivery) throw new ApiError('UNAUTHENTICATED', { message: 'Send {"type":"auth",…} first' });
    if (message.type === 'ping') {
      state.delivery.sendControl(pongFrame(message.id));
      return;
    }
    await channel.handle(message as Exclude<M, { type: 'auth' | 'ping' }>, state, (route) => authorizeMessage(route, state));
  };

  return {
    route: channel.route,
    behavior: {
      ...streamSocketOptions(channel.maxMessageBytes, channel.maxHeldBytes),
      upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
        const handshake = readHandshake(res, req, context, log);
        let since: number;
        try {
          since = handshake.since(channel.sinceName);
        } catch (error) {
          handshake.refuse(error);
          return;
        }
        const { credentials, remoteAddress, origin } = handshake;
        const clientAddress = admission.clientAddressOf(remoteAddress, origin['x-forwarded-for']);
        // without credentials the first message must authenticate (browsers cannot set headers on a WebSocket)
        const withCredentials = Object.keys(credentials).length > 0;
        const stateOf = (principal: Principal | undefined, slot: StreamSlot | undefined, refusal?: ApiError): ChannelState => ({
          target: handshake.target.toLowerCase(),
          since,
          principal,
          recheckAtMs: nextRecheck(Date.now()),
          credentials,
          remoteAddress,
          clientAddress,
          origin,
          inbox: new Mailbox(channel.inboxCapacity),
          open: false,
          ...(slot ? { slot } : {}),
          ...(refusal ? { refusal } : {}),
        });
        // A socket over a cap is accepted only to be closed with its reason: a browser cannot read a refused handshake.
        let slot: StreamSlot;
        try {
          slot = admission.admit(clientAddress, withCredentials);
        } catch (error) {
          if (!isStreamLimit(error)) throw error;
          handshake.accept(stateOf(undefined, undefined, error));
          return;
        }
        void (async () => {
          let principal: Principal | undefined;
          try {
            if (withCredentials) {
              principal = await authorize(channel.route, { credentials, remoteAddress, origin, clientAddress }, handshake.requestId);
              slot.authenticated(principal);
              await channel.check(principal, handshake.target, since);
            }
          } catch (error) {
            slot.release();
            if (isStreamLimit(error)) handshake.accept(stateOf(undefined, undefined, error));
            else handshake.refuse(error);
            return;
          }
          if (!handshake.accept(stateOf(principal, slot))) slot.release();
        })();
      },
      open: (ws: WebSocket<ChannelState>) => {
        const state = ws.getUserData();
        state.open = true;
        if (state.refusal) {
          closeWith(ws, state.refusal, CLOSE.tooManyStreams, 'too many streams');
          return;
        }
        if (!state.principal) {
          state.authTimer = setTimeout(() => {
            const seconds = admission.limits.authTimeoutMs / 1000;
            const late = new ApiError('UNAUTHENTICATED', { message: `Authenticate within ${seconds} s of connecting: send {"type":"auth",…}` });
            closeWith(ws, late, CLOSE.unauthenticated, `authenticate within ${seconds} s`);
          }, admission.limits.authTimeoutMs);
          return;
        }
        // Start after uWS's open callback has returned: a bus subscription made inside it (NATS writes on its
        // own socket) was seen to drop the new WebSocket (1006) for some subject lengths.
        setImmediate(() => void startOrClose(ws));
      },
      message: (ws: WebSocket<ChannelState>, data: ArrayBuffer) => {
        // uWS reads up to its own, higher limit, so that this one is answered rather than cut off
        if (data.byteLength > channel.maxMessageBytes) {
          const tooBig = new ApiError('PAYLOAD_TOO_LARGE', { message: `A message may hold at most ${channel.maxMessageBytes} bytes`, details: { limitBytes: channel.maxMessageBytes } });
          closeWith(ws, tooBig, CLOSE.messageTooBig, 'message too big');
          return;
        }
        const decoded = decodeClientMessage(data, channel.messages, channel.hotMessage);
        if (!decoded.ok) {
          fail(ws, decoded.error, decoded.id);
          return;
        }
        const message = decoded.message;
        // one message at a time per socket, so messages reach the entity in the order sent
        ws.getUserData()
          .inbox.post(() => handle(ws, message))
          .catch((error) => {
            if (error instanceof MailboxFullError) {
              fail(ws, new ApiError('RATE_LIMITED', { message: 'Too many messages waiting on this stream; slow down' }), message.id);
              return;
            }
            fail(ws, error, message.id);
          });
      },
      drain: (ws: WebSocket<ChannelState>) => ws.getUserData().delivery?.drain(),
      close: (ws: WebSocket<ChannelState>) => {
        const state = ws.getUserData();
        state.open = false;
        clearTimeout(state.authTimer);
        state.slot?.release();
        state.unwatch?.();
        state.delivery?.close();
      },
    },
  };
}
