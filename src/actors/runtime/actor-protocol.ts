/**
 * An actor's protocol as types: every command it takes, paired with the
 * reply it answers (an exchange); the protocol is the union of its
 * exchanges. `ReplyTo` reads the reply of one command, so a send answers the
 * type of the command it sent — in process and across the bus alike — and no
 * caller casts what comes back. On the wire nothing changes: commands and
 * replies stay the plain JSON they were.
 */
import { decodeJson, encodeJson, type Bus, type RequestOptions } from './bus/bus.js';

/** One command and its reply. */
export interface Exchange {
  command: object;
  reply: unknown;
}

/**
 * The reply to command `B`: of the exchanges whose command `B` is, the reply. A union of commands answers the
 * union of their replies; a command no exchange takes answers never.
 */
export type ReplyTo<X extends Exchange, B> = B extends unknown ? (X extends unknown ? (B extends X['command'] ? X['reply'] : never) : never) : never;

/** Sends `command` by request/reply on `subject` and reads the answer as its reply (rejects with BusError). */
export async function requestReply<X extends Exchange, B extends X['command']>(bus: Bus, subject: string, command: B, options?: RequestOptions): Promise<ReplyTo<X, B>> {
  const message = await bus.request(subject, encodeJson(command), options);
  return decodeJson<ReplyTo<X, B>>(message.data);
}
