/**
 * Live location sharing with ETA (designed in docs/accounts.md). The owner
 * manages their shares (signed in, or through one of their API keys); anyone holding a share's token sees its position, ETA
 * and destination, never who owns it. Only the token's SHA-256 is stored, so
 * the token is handed out once, when the share starts.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/errors.js';
import type { Principal } from '../../domain/principal.js';
import { actingUserId } from './acting-user.js';
import { randomHexToken, sha256Hex } from '../../shared/secrets.js';
import type { LiveSharePosition, LiveShareRecord, LiveShareRepository } from '../../store/pg/live-shares.js';

/** Longest a share may run: one day. */
export const MAX_SHARE_MINUTES = 24 * 60;
const SHARE_TOKEN = /^shr_[0-9a-f]{48}$/;

export interface NewLiveShare {
  lat: number;
  lng: number;
  heading?: number | undefined;
  etaSeconds?: number | undefined;
  destination?: { name: string; lat: number; lng: number } | undefined;
  /** 1 to MAX_SHARE_MINUTES. */
  expiresInMinutes: number;
}

/** The fields given move the share; the others stay. */
export type LiveSharePositionUpdate = Partial<Pick<LiveSharePosition, 'lat' | 'lng' | 'heading' | 'etaSeconds'>>;

const notFound = () => new ApiError('NOT_FOUND', { message: 'Live share not found' });

/** What anyone holding the link sees: position, ETA and destination, never who owns it. */
function publicView(share: LiveShareRecord) {
  return {
    lat: share.lat,
    lng: share.lng,
    heading: share.heading,
    etaSeconds: share.etaSeconds,
    destination: share.destination,
    updatedAt: share.updatedAt,
    expiresAt: share.expiresAt,
  };
}

export class LiveShares {
  constructor(private readonly shares: LiveShareRepository) {}

  /** Starts a share; `token` is returned this once (only its hash is kept). */
  async start(caller: Principal | undefined, input: NewLiveShare): Promise<{ share: LiveShareRecord; token: string }> {
    const userId = actingUserId(caller);
    const token = randomHexToken('shr_', 24);
    const share = await this.shares.create(userId, {
      id: randomUUID(),
      tokenHash: sha256Hex(token),
      expiresAt: new Date(Date.now() + input.expiresInMinutes * 60_000),
      lat: input.lat,
      lng: input.lng,
      heading: input.heading ?? null,
      etaSeconds: input.etaSeconds ?? null,
      destination: input.destination ?? null,
    });
    return { share, token };
  }

  /** The user's shares that have not ended. */
  listActive(caller: Principal | undefined): Promise<LiveShareRecord[]> {
    return this.shares.listActive(actingUserId(caller));
  }

  /** Moves one of the user's active shares. */
  async updatePosition(caller: Principal | undefined, id: string, position: LiveSharePositionUpdate): Promise<LiveShareRecord> {
    const share = await this.shares.updatePosition(actingUserId(caller), id, position);
    if (!share) throw notFound();
    return share;
  }

  /** Ends a share: the link stops working at once. */
  async stop(caller: Principal | undefined, id: string): Promise<void> {
    if (!(await this.shares.revoke(actingUserId(caller), id))) throw notFound();
  }

  /** The public view of an active share, by its token. */
  async viewByToken(token: string): Promise<ReturnType<typeof publicView>> {
    // Malformed tokens are simply not found: the answer never says why.
    if (!SHARE_TOKEN.test(token)) throw notFound();
    const share = await this.shares.findActiveByTokenHash(sha256Hex(token));
    if (!share) throw notFound();
    return publicView(share);
  }
}
