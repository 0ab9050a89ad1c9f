/**
 * The caps on stream sockets (README: WS_MAX_PER_USER, WS_MAX_PER_KEY, WS_MAX_PER_IP,
 * WS_MAX_UNAUTHENTICATED_PER_IP): how many sockets one user, one API key and one client address may hold, and
 * how many of an address's sockets may still be waiting to authenticate. Every stream channel of the process
 * shares one count.
 *
 * Counted per process, not across the deployment: a count in the counter store would need a lease per socket
 * (a process that dies must not keep its sockets counted), renewed while the socket lives, and a round trip on
 * every open and close; a cap per process bounds what each process holds, which is what the caps protect. With
 * N processes behind a port a caller may hold up to N times a cap.
 */
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';

export interface StreamLimits {
  /** Sockets one user (a bearer token's user) may hold open. */
  maxPerUser: number;
  /** Sockets one API key may hold open. */
  maxPerKey: number;
  /** Sockets from one client address, authenticated or not. */
  maxPerIp: number;
  /** Sockets from one client address that have not authenticated yet. */
  maxUnauthenticatedPerIp: number;
  /** How long a socket that connected without credentials has to authenticate (ms). */
  authTimeoutMs: number;
}

/** Which cap refused a socket (`details.limit` of TOO_MANY_STREAMS). */
export type StreamLimitName = 'user' | 'key' | 'ip' | 'unauthenticated_ip';

const HOLDER: Record<StreamLimitName, string> = {
  user: 'for this user',
  key: 'for this API key',
  ip: 'from this address',
  unauthenticated_ip: 'waiting to authenticate from this address',
};

/** Open sockets by holder for one cap; a holder leaves the map at zero, so it keeps only live holders. */
class Tally {
  private readonly counts = new Map<string, number>();

  constructor(
    readonly name: StreamLimitName,
    readonly max: number,
  ) {}

  /** Counts one more socket for `holder`, or throws TOO_MANY_STREAMS when it holds `max` already. */
  take(holder: string): void {
    const count = this.counts.get(holder) ?? 0;
    if (count >= this.max) {
      throw new ApiError('TOO_MANY_STREAMS', {
        message: `Too many open streams ${HOLDER[this.name]} (at most ${this.max} on this server); close one first`,
        details: { limit: this.name, max: this.max },
      });
    }
    this.counts.set(holder, count + 1);
  }

  give(holder: string): void {
    const count = this.counts.get(holder);
    if (count === undefined) return;
    if (count <= 1) this.counts.delete(holder);
    else this.counts.set(holder, count - 1);
  }
}

/**
 * What one socket holds: its address's slot from the handshake on, an unauthenticated slot until it
 * authenticates, then its caller's slot. Released once, when the socket closes or its handshake ends without one.
 */
export class StreamSlot {
  private caller: { tally: Tally; holder: string } | undefined;
  private released = false;

  constructor(
    private readonly tallies: StreamTallies,
    readonly clientAddress: string,
    private waiting: boolean,
  ) {}

  /** The socket authenticated as `principal`: takes the caller's slot (or throws TOO_MANY_STREAMS) and stops waiting. */
  authenticated(principal: Principal | undefined): void {
    if (this.released || this.caller) return;
    if (principal) {
      const tally = principal.kind === 'user' ? this.tallies.user : this.tallies.key;
      const holder = principal.kind === 'user' ? principal.userId : principal.keyId;
      tally.take(holder);
      this.caller = { tally, holder };
    }
    if (this.waiting) {
      this.waiting = false;
      this.tallies.unauthenticated.give(this.clientAddress);
    }
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.tallies.ip.give(this.clientAddress);
    if (this.waiting) this.tallies.unauthenticated.give(this.clientAddress);
    if (this.caller) this.caller.tally.give(this.caller.holder);
  }
}

interface StreamTallies {
  user: Tally;
  key: Tally;
  ip: Tally;
  unauthenticated: Tally;
}

/** Admits stream sockets within the caps; one per process, shared by every stream channel. */
export class StreamAdmission {
  private readonly tallies: StreamTallies;

  constructor(
    readonly limits: StreamLimits,
    /** The client's address as the access gate resolves it (trusted proxies' X-Forwarded-For). */
    readonly clientAddressOf: (peer: string, forwardedFor: string | undefined) => string,
  ) {
    this.tallies = {
      user: new Tally('user', limits.maxPerUser),
      key: new Tally('key', limits.maxPerKey),
      ip: new Tally('ip', limits.maxPerIp),
      unauthenticated: new Tally('unauthenticated_ip', limits.maxUnauthenticatedPerIp),
    };
  }

  /**
   * A new socket from `clientAddress` (checked before its credentials, so a flood costs no lookups), waiting to
   * authenticate unless its handshake carries credentials: its slot, or throws TOO_MANY_STREAMS.
   */
  admit(clientAddress: string, withCredentials: boolean): StreamSlot {
    this.tallies.ip.take(clientAddress);
    if (!withCredentials) {
      try {
        this.tallies.unauthenticated.take(clientAddress);
      } catch (error) {
        this.tallies.ip.give(clientAddress);
        throw error;
      }
    }
    return new StreamSlot(this.tallies, clientAddress, !withCredentials);
  }
}

/** The refusal of a socket over a cap: answered with an error frame and close code 4429, not as an HTTP error. */
export function isStreamLimit(error: unknown): error is ApiError {
  return error instanceof ApiError && error.code === 'TOO_MANY_STREAMS';
}
