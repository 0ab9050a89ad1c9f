/**
 * The navigation session stream (WebSocket): the client sends fixes, the
 * server pushes a progress frame per accepted fix, every event as it
 * happens, and re-routes with the new route. Any process serves any
 * session: fixes go to the session's owner and frames come back from it,
 * both through the sessions service. Protocol: stream-protocol.ts and
 * docs/navigation.md.
 */
import { randomUUID } from 'node:crypto';
import type { NavigationSessions } from '../../services/navigation/navigation-sessions.js';
import { ApiError } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';
import type { RequestGuard } from '../request-pipeline.js';
import type { BoundRoute } from '../route.js';
import { ackFrame, clientMessageSchema, readyFrame } from './stream-protocol.js';
import { decodeHotFixMessage } from './hot-fix-message.js';
import type { StreamAdmission } from './stream-admission.js';
import { streamChannelEndpoint } from './stream-channel.js';
import { StreamDelivery } from './stream-delivery.js';
import type { WebSocketEndpoint } from './websocket-endpoint.js';

export interface NavigationStreamDeps {
  sessions: NavigationSessions;
  guards: readonly RequestGuard[];
  /** The caps on open sockets, shared by every stream channel of the process. */
  admission: StreamAdmission;
  logger: Logger;
  /** The stream's route entry (access and scopes of the handshake). */
  streamRoute: BoundRoute;
  /** Each fix message is held to this route's rules and quota (POST …/positions). */
  fixRoute: BoundRoute;
}

const HIGH_WATER_BYTES = 256 * 1024;
const MAX_QUEUED_FRAMES = 10_000;
/** Held for one socket beyond this (uWS's buffer plus the queue), the reader is closed with 4408: 1 000 slow sockets hold at most 1 GiB. */
const MAX_HELD_BYTES = 1024 * 1024;

export function navigationStreamEndpoint(deps: NavigationStreamDeps): WebSocketEndpoint {
  const log = deps.logger;
  return streamChannelEndpoint({
    route: deps.streamRoute,
    guards: deps.guards,
    admission: deps.admission,
    logger: log,
    messages: clientMessageSchema,
    hotMessage: decodeHotFixMessage,
    maxMessageBytes: 64 * 1024,
    maxHeldBytes: MAX_HELD_BYTES,
    // fix messages a socket may have waiting; a client far ahead of the server is told to slow down
    inboxCapacity: 256,
    sinceName: 'eventSeq',
    check: async (principal, sessionId, since) => assertSinceReachable(since, await deps.sessions.get(principal, sessionId)),
    /** Ready frame, catch-up from since, then live frames. */
    begin: async (socket, state) => {
      const snapshot = await deps.sessions.get(state.principal, state.target);
      assertSinceReachable(state.since, snapshot);
      const delivery = new StreamDelivery(socket, state.since, {
        highWaterBytes: HIGH_WATER_BYTES,
        maxQueuedFrames: MAX_QUEUED_FRAMES,
        maxHeldBytes: MAX_HELD_BYTES,
        onTooSlow: (report) => log.warn({ channel: 'navigation', sessionId: state.target, ...report }, 'stream reader too slow; closed 4408'),
        onClosed: ({ coalesced }) => coalesced > 0 && log.info({ channel: 'navigation', sessionId: state.target, coalesced }, 'stream closed; progress frames were coalesced behind a slow reader'),
        eventsAfter: async (since) => (await deps.sessions.events(state.principal, state.target, since)).events,
      });
      state.delivery = delivery;
      // watch before reading the log, so nothing falls between the two
      state.unwatch = deps.sessions.watch(state.principal, state.target, (frames) => delivery.offer(frames));
      await delivery.start(readyFrame(snapshot, state.since));
    },
    handle: async (message, state, authorize) => {
      const fixes = message.type === 'fix' ? [message.fix] : message.fixes;
      const principal = await authorize(deps.fixRoute);
      // per-message logging is debug-level: at thousands of fixes a second even building the line costs
      const startedAt = log.isLevelEnabled('debug') ? performance.now() : 0;
      const answer = await deps.sessions.streamFixes(principal, state.target, fixes);
      if (startedAt) log.debug({ requestId: randomUUID(), sessionId: state.target, fixes: fixes.length, durationMs: Math.round((performance.now() - startedAt) * 1000) / 1000 }, 'stream fixes');
      // progress frames already report each fix; an ack answers only a message that asked (gave an id)
      if (message.id) state.delivery?.sendControl(ackFrame(message.id, answer));
    },
  });
}

/** A `since` beyond the session's last event would silently swallow the events up to it. */
function assertSinceReachable(since: number, session: { eventSeq: number }): void {
  if (since > session.eventSeq) {
    throw new ApiError('VALIDATION_ERROR', { message: [`query.since: ${since} is past the session's last event (${session.eventSeq})`], details: { eventSeq: session.eventSeq } });
  }
}
