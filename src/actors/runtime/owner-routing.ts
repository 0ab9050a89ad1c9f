/**
 * Commands to an actor that lives in some process: to the local actor when
 * this process owns it, else by request/reply on the actor's subject; when
 * nobody answers there (the owner died, or let the actor go idle), the caller
 * takes the actor over (load, fenced claim) and serves it from then on. The
 * serving side answers with the same reply shape, so errors cross the bus as
 * codes and come back as ApiError.
 */
import { BusError, decodeJson, encodeJson, type Bus, type BusMessage } from './bus/bus.js';
import { MailboxFullError } from '../../shared/mailbox.js';
import { ApiError, errorCodes, type ErrorCode } from '../../shared/errors.js';
import type { Logger } from '../../shared/logger.js';

export interface ErrorReply {
  code: string;
  message: string | string[];
  details?: Record<string, unknown>;
  /** Response headers the error carries (Retry-After of SERVER_BUSY, COMPUTATION_TIMEOUT, RATE_LIMITED). */
  headers?: Record<string, string>;
}

/** An owner's answer: a value, an API error, or "stale": it lost the actor to a takeover, ask again. */
export type OwnerReply = { ok: true; value: unknown } | { ok: false; error: ErrorReply } | { ok: false; stale: true };

/** What routing needs to know about one kind of actor. */
export interface OwnedActorKind<C> {
  bus: Bus;
  /** The actor's command subject. */
  subjectOf(id: string): string;
  /** The live local actor serving `id`, if this process owns it. */
  local(id: string): { handle(command: C): Promise<unknown> } | undefined;
  /** The actor's write was fenced: it belongs to another process now. */
  isFenced(error: unknown): boolean;
  /** Drops the local actor after a fenced write. */
  lose(id: string): void;
  /** The command as sent over the bus (e.g. marked with this process's interest in the actor's feed). */
  outgoing(id: string, command: C): C;
  /** A command arrived over the bus for local actor `id` (e.g. a remote process's interest in its feed). */
  received(id: string, command: C): void;
  /** Nobody serves `id`: load and claim it here (throws ApiError NOT_FOUND / FORBIDDEN). */
  takeOver(id: string, command: C): Promise<void>;
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
export async function sendToOwner<C>(kind: OwnedActorKind<C>, id: string, command: C, timeoutMs: number): Promise<unknown> {
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
    const reply = decodeJson<OwnerReply>(message.data);
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
export async function serveOwnerCommand<C>(kind: OwnedActorKind<C>, id: string, actor: { handle(command: C): Promise<unknown> }, message: BusMessage): Promise<void> {
  const command = decodeJson<C>(message.data);
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

const TRANSIENT_CODES: ReadonlySet<ErrorCode> = new Set(['SERVER_BUSY', 'COMPUTATION_TIMEOUT']);

function knownCode(code: string): ErrorCode {
  return code in errorCodes ? (code as ErrorCode) : 'INTERNAL_ERROR';
}

/** The API error a command failure stands for; undefined for a bug (a 500 with the error logged). */
function translateLocal<C>(kind: OwnedActorKind<C>, error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof MailboxFullError) {
    return new ApiError('RATE_LIMITED', { message: `Too many commands queued for this ${kind.what}; slow down`, details: { reason: kind.busyReason } });
  }
  return undefined;
}
