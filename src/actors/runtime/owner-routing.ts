/**
 * Commands to an actor that lives in some process: to the local actor when
 * this process owns it, else by request/reply on the actor's subject; when
 * nobody answers there (the owner died, or let the actor go idle), the caller
 * takes the actor over (load, fenced claim) and serves it from then on. The
 * serving side answers with the same reply shape, so errors cross the bus as
 * codes and come back as ApiError.
 */
import type { Exchange, ReplyTo } from './actor-protocol.js';
import { BusError, decodeJson, encodeJson, type Bus, type BusMessage } from './bus/bus.js';
import { MailboxFullError } from '../../shared/mailbox.js';
import { ApiError, errorCodes, unavailableDependencyError, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';

export interface ErrorReply {
  code: string;
  message: string | string[];
  details?: Record<string, unknown>;
  /** Response headers the error carries (Retry-After of SERVER_BUSY, COMPUTATION_TIMEOUT, RATE_LIMITED). */
  headers?: Record<string, string>;
}

/** An owner's answer: the command's reply, an API error, or "stale": it lost the actor to a takeover, ask again. */
export type OwnerReply<V = unknown> = { ok: true; value: V } | { ok: false; error: ErrorReply } | { ok: false; stale: true };

/** Who created an actor's entity: only the same key or user may use it. */
export interface ActorOwner {
  kind: 'key' | 'user';
  id: string;
}

/** What every routed command carries besides its own fields: who sends it, and who streams the actor. */
export interface CommandEnvelope {
  caller: ActorOwner;
  /** Set by a process that streams this actor to sockets of its own: it wants the feed. */
  watcherProcess?: string;
}

/** An actor as routing reaches it: each command of protocol `X` (sent in envelope `E`) answers its own reply. */
export interface CommandHandler<X extends Exchange, E extends CommandEnvelope> {
  handle<B extends X['command']>(command: B & E): Promise<ReplyTo<X, B>>;
}

/** What routing needs to know about one kind of actor, whose commands and replies are protocol `X`. */
export interface OwnedActorKind<X extends Exchange, E extends CommandEnvelope> {
  bus: Bus;
  /** The actor's command subject. */
  subjectOf(id: string): string;
  /** The live local actor serving `id`, if this process owns it. */
  local(id: string): CommandHandler<X, E> | undefined;
  /** The actor's write was fenced: it belongs to another process now. */
  isFenced(error: unknown): boolean;
  /** Drops the local actor after a fenced write. */
  lose(id: string): void;
  /** The command as sent over the bus (e.g. marked with this process's interest in the actor's feed). */
  outgoing<C extends E>(id: string, command: C): C;
  /** A command arrived over the bus for local actor `id` (e.g. a remote process's interest in its feed). */
  received(id: string, command: E): void;
  /** Nobody serves `id`: load and claim it here (throws ApiError NOT_FOUND / FORBIDDEN). */
  takeOver(id: string, command: E): Promise<void>;
  /** Refusals when the actor cannot be reached; `what` names it for the message ("navigation session"). */
  what: string;
  /** Details naming the actor in error bodies, e.g. { sessionId }. */
  detailsOf(id: string): Record<string, unknown>;
  /** Mailbox-full refusal details (`reason`). */
  busyReason: string;
  logger: Logger;
  now(): number;
}

/** Bounds the retries of one command (takeovers, fenced writes, timeouts) within its time budget. */
const MAX_ATTEMPTS = 20;
/** One wait for the owner's answer (ms): an owner killed with the command in flight never answers. */
const ATTEMPT_TIMEOUT_MS = 2_000;

/**
 * Runs `command` on actor `id` wherever it lives within `timeoutMs`. A retry reaching a live but busy
 * owner waits in its mailbox and gets the remembered answer (same command id), so it is never applied twice.
 */
export async function sendToOwner<X extends Exchange, E extends CommandEnvelope, B extends X['command']>(
  kind: OwnedActorKind<X, E>,
  id: string,
  command: B & E,
  timeoutMs: number,
): Promise<ReplyTo<X, B>> {
  const deadline = kind.now() + timeoutMs;
  for (let attempt = 0; attempt < MAX_ATTEMPTS && kind.now() < deadline; attempt++) {
    const local = kind.local(id);
    if (local) {
      try {
        return await local.handle(command);
      } catch (error) {
        if (kind.isFenced(error)) {
          kind.lose(id);
          continue;
        }
        throw translateLocal(kind, error) ?? error;
      }
    }
    let message: BusMessage;
    try {
      const attemptMs = Math.max(1, Math.min(ATTEMPT_TIMEOUT_MS, deadline - kind.now()));
      message = await kind.bus.request(kind.subjectOf(id), encodeJson(kind.outgoing(id, command)), { timeoutMs: attemptMs });
    } catch (error) {
      if (error instanceof BusError && error.code === 'NO_RESPONDERS') {
        await kind.takeOver(id, command);
        continue;
      }
      if (error instanceof BusError && error.code === 'TIMEOUT') continue;
      throw new ApiError('SERVICE_UNAVAILABLE', {
        message: `The ${kind.what} cannot be reached; retry the request`,
        details: { ...kind.detailsOf(id), reason: error instanceof BusError ? error.code : 'bus' },
      });
    }
    // the owner answered with its actor's reply to this very command (the protocol pairs them)
    const reply = decodeJson<OwnerReply<ReplyTo<X, B>>>(message.data);
    if (reply.ok) return reply.value;
    if ('stale' in reply) continue;
    throw new ApiError(knownCode(reply.error.code), {
      message: reply.error.message,
      ...(reply.error.details ? { details: reply.error.details } : {}),
      ...(reply.error.headers ? { headers: reply.error.headers } : {}),
    });
  }
  throw new ApiError('SERVICE_UNAVAILABLE', { message: `The ${kind.what} did not answer in time; retry the request`, details: kind.detailsOf(id) });
}

/** Serves one command that came over the bus to a local actor and answers it. */
export async function serveOwnerCommand<X extends Exchange, E extends CommandEnvelope>(kind: OwnedActorKind<X, E>, id: string, actor: CommandHandler<X, E>, message: BusMessage): Promise<void> {
  const command = decodeJson<X['command'] & E>(message.data);
  kind.received(id, command);
  let reply: OwnerReply;
  try {
    reply = { ok: true, value: await actor.handle(command) };
  } catch (error) {
    if (kind.isFenced(error)) {
      kind.lose(id);
      reply = { ok: false, stale: true };
    } else {
      const translated = translateLocal(kind, error) ?? new ApiError('INTERNAL_ERROR');
      // an overloaded engine (SERVER_BUSY, COMPUTATION_TIMEOUT) is a load condition the answer tells, not a fault
      if (translated.statusCode >= 500 && !TRANSIENT_CODES.has(translated.code)) kind.logger.error({ err: error, ...kind.detailsOf(id) }, `${kind.what} command failed`);
      reply = {
        ok: false,
        error: {
          code: translated.code,
          message: translated.messages,
          ...(translated.details ? { details: translated.details } : {}),
          ...(translated.headers ? { headers: translated.headers } : {}),
        },
      };
    }
  }
  message.respond(encodeJson(reply));
}

const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set(['SERVER_BUSY', 'COMPUTATION_TIMEOUT', 'DATABASE_UNAVAILABLE']);

function knownCode(code: string): ErrorCode {
  return code in errorCodes ? (code as ErrorCode) : 'INTERNAL_ERROR';
}

/** The API error a command failure stands for; undefined for a bug (a 500 with the error logged). */
function translateLocal(kind: Pick<OwnedActorKind<Exchange, CommandEnvelope>, 'what' | 'busyReason'>, error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const outage = unavailableDependencyError(error);
  if (outage) return outage;
  if (error instanceof MailboxFullError) {
    return new ApiError('RATE_LIMITED', { message: `Too many commands queued for this ${kind.what}; slow down`, details: { reason: kind.busyReason } });
  }
  return undefined;
}
