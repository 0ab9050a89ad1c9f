/**
 * The live fleet stream (WebSocket): dispatchers and drivers' apps send
 * positions, new stops, cancellations and completions; every subscriber gets
 * every new plan with its diff. Any process serves any fleet: events go to
 * the fleet's owner through the host, plan frames come back through the
 * host's feed. Protocol: fleet-stream-protocol.ts and docs/optimization.md.
 */
import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponse, WebSocket, us_socket_context_t } from 'uWebSockets.js';
import type { FleetHost } from '../../actors/fleet/fleet-host.js';
import type { FleetEvent } from '../../actors/fleet/fleet-protocol.js';
import { Mailbox, MailboxFullError } from '../../actors/runtime/mailbox.js';
import type { FleetView, LiveFleets } from '../../services/optimization/live-fleets.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { RequestGuard } from '../request-pipeline.js';
import type { Principal, RouteDefinition } from '../route.js';
import { fleetClientMessageSchema, type FleetClientMessage } from '../schemas/fleet.js';
import { OrderedSender } from './ordered-sender.js';
import { PlanDelivery, type ResyncFrame } from './plan-delivery.js';
import {
  AUTH_TIMEOUT_MS,
  CLOSE,
  closeCodeFor,
  credentialsOfAuthMessage,
  decodeClientMessage,
  errorFrame,
  nextRecheck,
  readHandshake,
  streamAuthorizer,
  streamSocketOptions,
  type StreamIdentity,
} from './stream-handshake.js';
import type { WebSocketEndpoint } from './websocket-endpoint.js';

export interface FleetStreamDeps {
  fleets: LiveFleets;
  host: FleetHost;
  guards: readonly RequestGuard[];
  logger: Logger;
  /** The stream's route entry (access and scopes of the handshake). */
  streamRoute: RouteDefinition;
  /** Each event message is held to this route's rules and quota (POST …/events). */
  eventsRoute: RouteDefinition;
}

interface FleetStreamState extends StreamIdentity {
  fleetId: string;
  since: number;
  delivery?: PlanDelivery;
  unwatch?: () => void;
  authTimer?: NodeJS.Timeout;
  inbox: Mailbox;
  open: boolean;
}

/** A plan is a few hundred bytes per stop: room for several full plans before frames queue. */
const HIGH_WATER_BYTES = 1024 * 1024;
const MAX_QUEUED_FRAMES = 1_000;
/** add_stops with 100 stops is about 10 KB. */
const MAX_MESSAGE_BYTES = 64 * 1024;
const INBOX_CAPACITY = 64;

export function fleetStreamEndpoint(deps: FleetStreamDeps): WebSocketEndpoint {
  const log = deps.logger;
  const { authorize, authorizeMessage } = streamAuthorizer(deps.guards, log);

  /** Starts streaming to an authenticated socket: watch first, then read the fleet, so no plan falls between. */
  const begin = async (ws: WebSocket<FleetStreamState>) => {
    const state = ws.getUserData();
    const sender = new OrderedSender(
      {
        send: (text) => (state.open ? ws.send(text, false) : 2),
        bufferedAmount: () => (state.open ? ws.getBufferedAmount() : 0),
        end: (code, reason) => state.open && ws.end(code, reason),
      },
      { highWaterBytes: HIGH_WATER_BYTES, maxQueuedFrames: MAX_QUEUED_FRAMES, tooSlowReason: 'reader too slow; reconnect with since=<last planVersion>' },
    );
    const delivery = new PlanDelivery(sender);
    state.delivery = delivery;
    state.unwatch = deps.host.watch(state.fleetId, (frames) => delivery.offer(frames));
    const fleet: FleetView = await deps.fleets.get(state.principal, state.fleetId);
    const current: ResyncFrame | undefined = fleet.plan
      ? { type: 'plan', fleetId: fleet.fleetId, planVersion: fleet.planVersion, previousPlanVersion: state.since, plan: fleet.plan, diff: null }
      : undefined;
    delivery.start({ type: 'ready', fleetId: fleet.fleetId, resumedFrom: state.since, fleet }, current, state.since);
  };

  const fail = (ws: WebSocket<FleetStreamState>, error: unknown, id?: string) => {
    const state = ws.getUserData();
    if (!state.open) return;
    const frame = errorFrame(error, log, id);
    if (state.delivery) state.delivery.sendControl(frame);
    else ws.send(JSON.stringify(frame), false);
  };

  const startOrClose = async (ws: WebSocket<FleetStreamState>, id?: string) => {
    const state = ws.getUserData();
    try {
      if (state.open) await begin(ws);
    } catch (error) {
      fail(ws, error, id);
      if (state.open) ws.end(error instanceof ApiError ? closeCodeFor(error) : 1011, 'stream could not start');
    }
  };

  const handle = async (ws: WebSocket<FleetStreamState>, message: FleetClientMessage) => {
    const state = ws.getUserData();
    if (message.type === 'auth') {
      if (state.principal || state.delivery) throw new ApiError('VALIDATION_ERROR', { message: ['auth: this stream is already authenticated'] });
      clearTimeout(state.authTimer);
      state.credentials = credentialsOfAuthMessage(message);
      try {
        state.principal = await authorize(deps.streamRoute, state, randomUUID());
        state.recheckAtMs = nextRecheck(Date.now());
      } catch (error) {
        fail(ws, error, message.id);
        if (state.open) ws.end(error instanceof ApiError ? closeCodeFor(error) : 1011, 'authentication failed');
        return;
      }
      await startOrClose(ws, message.id);
      return;
    }
    if (!state.delivery) throw new ApiError('UNAUTHENTICATED', { message: 'Send {"type":"auth",…} first' });
    if (message.type === 'ping') {
      state.delivery.sendControl({ type: 'pong', ...(message.id ? { id: message.id } : {}) });
      return;
    }
    const { id, ...event } = message;
    const principal = await authorizeMessage(deps.eventsRoute, state, randomUUID());
    const answer = await deps.fleets.apply(principal, state.fleetId, [event as FleetEvent]);
    state.delivery.sendControl({ type: 'ack', ...(id ? { id } : {}), changeSeq: answer.changeSeq, planVersion: answer.planVersion, replanning: answer.replanning });
  };

  return {
    route: deps.streamRoute,
    behavior: {
      ...streamSocketOptions(MAX_MESSAGE_BYTES),
      upgrade: (res: HttpResponse, req: HttpRequest, context: us_socket_context_t) => {
        const handshake = readHandshake(res, req, context, log);
        let since: number;
        try {
          since = handshake.since('planVersion');
        } catch (error) {
          handshake.refuse(error);
          return;
        }
        const { credentials, remoteAddress, origin } = handshake;
        void (async () => {
          let principal: Principal | undefined;
          try {
            // without credentials the first message must authenticate (browsers cannot set headers on a WebSocket)
            if (Object.keys(credentials).length > 0) {
              principal = await authorize(deps.streamRoute, { credentials, remoteAddress, origin }, handshake.requestId);
              await deps.fleets.get(principal, handshake.target);
            }
          } catch (error) {
            handshake.refuse(error);
            return;
          }
          const state: FleetStreamState = {
            fleetId: handshake.target.toLowerCase(),
            since,
            principal,
            recheckAtMs: nextRecheck(Date.now()),
            credentials,
            remoteAddress,
            origin,
            inbox: new Mailbox(INBOX_CAPACITY),
            open: false,
          };
          handshake.accept(state);
        })();
      },
      open: (ws: WebSocket<FleetStreamState>) => {
        const state = ws.getUserData();
        state.open = true;
        if (!state.principal) {
          state.authTimer = setTimeout(() => state.open && ws.end(CLOSE.unauthenticated, 'authenticate within 10 s'), AUTH_TIMEOUT_MS);
          return;
        }
        void startOrClose(ws);
      },
      message: (ws: WebSocket<FleetStreamState>, data: ArrayBuffer) => {
        const decoded = decodeClientMessage(data, fleetClientMessageSchema);
        if (!decoded.ok) {
          fail(ws, decoded.error, decoded.id);
          return;
        }
        const message = decoded.message;
        // one message at a time per socket, so events reach the fleet in the order sent
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
      drain: (ws: WebSocket<FleetStreamState>) => ws.getUserData().delivery?.drain(),
      close: (ws: WebSocket<FleetStreamState>) => {
        const state = ws.getUserData();
        state.open = false;
        clearTimeout(state.authTimer);
        state.unwatch?.();
        state.delivery?.close();
      },
    },
  };
}
