/**
 * The live fleet stream (WebSocket): dispatchers and drivers' apps send
 * positions, new stops, cancellations and completions; every subscriber gets
 * every new plan with its diff. Any process serves any fleet: events go to
 * the fleet's owner and plan frames come back from it, both through the
 * live-fleets service. Protocol: fleet-stream-protocol.ts and
 * docs/optimization.md.
 */
import type { LiveFleets } from '../../services/optimization/live-fleets.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { RequestGuard } from '../request-pipeline.js';
import type { BoundRoute } from '../route.js';
import { fleetClientMessageSchema } from '../schemas/fleet.js';
import { OrderedSender } from './ordered-sender.js';
import { PlanDelivery, type ResyncFrame } from './plan-delivery.js';
import type { StreamAdmission } from './stream-admission.js';
import { streamChannelEndpoint } from './stream-channel.js';
import type { WebSocketEndpoint } from './websocket-endpoint.js';

export interface FleetStreamDeps {
  fleets: LiveFleets;
  guards: readonly RequestGuard[];
  /** The caps on open sockets, shared by every stream channel of the process. */
  admission: StreamAdmission;
  logger: Logger;
  /** The stream's route entry (access and scopes of the handshake). */
  streamRoute: BoundRoute;
  /** Each event message is held to this route's rules and quota (POST …/events). */
  eventsRoute: BoundRoute;
}

/** A plan is a few hundred bytes per stop: room for several full plans before frames queue. */
const HIGH_WATER_BYTES = 1024 * 1024;
const MAX_QUEUED_FRAMES = 1_000;
/** Held for one socket beyond this (uWS's buffer plus the queue), the reader is closed with 4408: about ten more of the largest plans. */
const MAX_HELD_BYTES = 2 * 1024 * 1024;

export function fleetStreamEndpoint(deps: FleetStreamDeps): WebSocketEndpoint {
  return streamChannelEndpoint({
    route: deps.streamRoute,
    guards: deps.guards,
    admission: deps.admission,
    logger: deps.logger,
    messages: fleetClientMessageSchema,
    // add_stops with 100 stops is about 10 KB
    maxMessageBytes: 64 * 1024,
    maxHeldBytes: MAX_HELD_BYTES,
    inboxCapacity: 64,
    sinceName: 'planVersion',
    check: async (principal, fleetId, since) => assertSinceReachable(since, await deps.fleets.get(principal, fleetId)),
    // watch first, then read the fleet, so no plan falls between the two
    begin: async (socket, state) => {
      const sender = new OrderedSender(socket, {
        highWaterBytes: HIGH_WATER_BYTES,
        maxQueuedFrames: MAX_QUEUED_FRAMES,
        maxHeldBytes: MAX_HELD_BYTES,
        tooSlowReason: 'reader too slow; reconnect with since=<last planVersion>',
        onTooSlow: (report) => deps.logger.warn({ channel: 'fleet', fleetId: state.target, ...report }, 'stream reader too slow; closed 4408'),
      });
      const delivery = new PlanDelivery(sender);
      state.delivery = delivery;
      state.unwatch = deps.fleets.watch(state.principal, state.target, (frames) => delivery.offer(frames));
      const fleet = await deps.fleets.get(state.principal, state.target);
      assertSinceReachable(state.since, fleet);
      const current: ResyncFrame | undefined = fleet.plan
        ? { type: 'plan', fleetId: fleet.fleetId, planVersion: fleet.planVersion, previousPlanVersion: state.since, plan: fleet.plan, diff: null }
        : undefined;
      delivery.start({ type: 'ready', fleetId: fleet.fleetId, resumedFrom: state.since, fleet }, current, state.since);
    },
    handle: async (message, state, authorize) => {
      const { id, ...event } = message;
      const principal = await authorize(deps.eventsRoute);
      const answer = await deps.fleets.apply(principal, state.target, [event]);
      state.delivery?.sendControl({ type: 'ack', ...(id ? { id } : {}), changeSeq: answer.changeSeq, planVersion: answer.planVersion, replanning: answer.replanning });
    },
  });
}

/** A `since` beyond the fleet's current plan would silently skip the plans up to it. */
function assertSinceReachable(since: number, fleet: { planVersion: number }): void {
  if (since > fleet.planVersion) {
    throw new ApiError('VALIDATION_ERROR', { message: [`query.since: ${since} is past the fleet's current planVersion (${fleet.planVersion})`], details: { planVersion: fleet.planVersion } });
  }
}
