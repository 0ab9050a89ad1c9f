/**
 * The navigation stream's messages (WebSocket, JSON text frames). Client
 * messages are validated here; server frames are typed here (the session's
 * feed frames as the socket gets them, and the stream's own) and described
 * by `serverFrameSchema` for the docs and the OpenAPI description. A test
 * (stream-frames.test.ts) holds the two together.
 */
import { z } from 'zod';
import type { NavigationEvent } from '../../domain/navigation-session.js';
import type { FeedFrame, FixAck, SessionSnapshot } from '../../services/navigation/navigation-sessions.js';
import type { ErrorBody } from '../error-response.js';
import { fixBatchSchema, fixSchema } from '../../services/navigation/session-requests.js';

/** Optional correlation id, echoed in the `ack` or `error` answering the message. */
export const messageId = z.string().min(1).max(64).optional();

/** Authentication when the handshake carried none: an API key or a bearer token (every stream channel). */
export const authMessage = z
  .object({ type: z.literal('auth'), apiKey: z.string().min(1).max(512).optional(), token: z.string().min(1).max(8192).optional(), id: messageId })
  .refine((value) => (value.apiKey === undefined) !== (value.token === undefined), { message: 'give exactly one of apiKey and token' });

/** Answered with a pong (every stream channel). */
export const pingMessage = z.object({ type: z.literal('ping'), id: messageId });

export const clientMessageSchema = z.discriminatedUnion('type', [
  authMessage,
  z.object({ type: z.literal('fix'), fix: fixSchema, id: messageId }),
  z.object({ type: z.literal('fixes'), fixes: fixBatchSchema, id: messageId }),
  pingMessage,
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const STREAM_PROTOCOL_SUMMARY = `WebSocket: wss://<host>/api/v1/navigation/sessions/{id}/stream[?since=<eventSeq>]
Authenticate in the handshake (x-api-key or Authorization: Bearer header, or api_key / access_token query parameter), or with the first message {"type":"auth","apiKey":"…"} / {"type":"auth","token":"…"} within 10 s (WS_AUTH_TIMEOUT_MS).
Client → server: {"type":"fix","fix":{lat,lng,speed?,heading?,accuracy?,capturedAt?},"id"?} · {"type":"fixes","fixes":[…≤50],"id"?} · {"type":"ping"}.
Server → client: {"type":"ready",session,resumedFrom} once; then {"type":"event",event:{seq,type,at,data}} for every event exactly once in seq order (after since), {"type":"progress",fixSeq,…} per accepted fix (coalesced to the latest for a slow reader), {"type":"route",route,reroutes} on a re-plan, {"type":"status",status} when the session ends, {"type":"ack",id,accepted,eventSeq,status} for a fix message that carried an id, {"type":"error",statusCode,code,message,details,requestId,id?}, {"type":"gap",fromSeq,toSeq} when events older than the retained ~50 were asked for.
Each fix message counts against the key's quota like a POST …/positions call. Close codes: 4401 not authenticated (or not within the time allowed), 4403 forbidden, 4404 unknown session, 4408 too slow (resume with since), 4429 too many open streams (per user, API key or client address; error frame TOO_MANY_STREAMS), 1009 a message over 64 KiB (after a 413 error frame).`;

const eventFrame = z.object({
  type: z.literal('event'),
  event: z.object({
    seq: z.number().int().min(1),
    type: z.enum(['maneuver_approaching', 'maneuver_completed', 'off_route', 'incident_ahead', 'rerouted', 'arrived']),
    at: z.string(),
    data: z.record(z.string(), z.unknown()),
  }),
});

const progressSummary = {
  sessionId: z.string(),
  status: z.enum(['active', 'arrived', 'cancelled', 'expired']),
  maneuverIndex: z.number().int(),
  eventSeq: z.number().int(),
  etaSeconds: z.number(),
  distanceRemainingMeters: z.number(),
  durationRemainingSeconds: z.number(),
  progress: z.record(z.string(), z.unknown()).nullable().describe('as in the PATCH answer'),
};

/** The first frame of a stream: the session as GET answers it, and the `since` it resumed from. */
export type ReadyFrame = { type: 'ready'; session: SessionSnapshot; resumedFrom: number };
/** An event as the socket gets it: the feed's session id is the stream's own, so left out. */
export type EventFrame = { type: 'event'; event: NavigationEvent };
/** The session's feed frames as the socket gets them. */
export type SocketFeedFrame = Exclude<FeedFrame, { type: 'event' }> | EventFrame;
/** The answer to a fix message that carried an id. */
export type AckFrame = { type: 'ack'; id: string } & FixAck;
export type PongFrame = { type: 'pong'; id?: string };
/** Events older than the retained log were asked for: these are missing. */
export type GapFrame = { type: 'gap'; fromSeq: number; toSeq: number };
/** A refused message or a failure, in the spec's error body; `id` is the message's. */
export type ErrorFrame = { type: 'error'; id?: string } & ErrorBody;

/** Every frame the server sends on the navigation stream. */
export type ServerFrame = ReadyFrame | SocketFeedFrame | AckFrame | PongFrame | GapFrame | ErrorFrame;

export function readyFrame(session: SessionSnapshot, resumedFrom: number): ReadyFrame {
  return { type: 'ready', session, resumedFrom };
}

export function ackFrame(id: string, answer: FixAck): AckFrame {
  return { type: 'ack', id, accepted: answer.accepted, eventSeq: answer.eventSeq, status: answer.status };
}

/**
 * Every frame the server sends on the stream (documentation: the OpenAPI entry of the stream and
 * docs/navigation.md); `ServerFrame` is its type.
 */
export const serverFrameSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), session: z.record(z.string(), z.unknown()).describe('the session, as GET returns it'), resumedFrom: z.number().int() }),
  eventFrame,
  z.object({ type: z.literal('progress'), fixSeq: z.number().int().describe('accepted fixes so far'), ...progressSummary }),
  z.object({ type: z.literal('route'), sessionId: z.string(), reroutes: z.number().int(), route: z.record(z.string(), z.unknown()).describe('{ shape, maneuvers, distanceMeters, etaSeconds }') }),
  z.object({ type: z.literal('status'), sessionId: z.string(), status: z.enum(['arrived', 'cancelled', 'expired']), eventSeq: z.number().int() }),
  z.object({ type: z.literal('ack'), id: z.string(), accepted: z.number().int(), eventSeq: z.number().int(), status: z.string() }),
  z.object({ type: z.literal('pong'), id: z.string().optional() }),
  z.object({ type: z.literal('gap'), fromSeq: z.number().int(), toSeq: z.number().int() }),
  z.object({
    type: z.literal('error'),
    id: z.string().optional(),
    statusCode: z.number().int(),
    message: z.union([z.string(), z.array(z.string())]),
    error: z.string(),
    code: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
    requestId: z.string(),
  }),
]);
