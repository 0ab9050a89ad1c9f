/**
 * The session actor's own settings. The session record it holds and persists
 * is domain vocabulary (src/domain/navigation-session.ts).
 */
import type { SessionStatus } from '../../domain/navigation-session.js';


/** The three ends of `active → arrived | cancelled | expired`: final. */
export const ENDED_STATUSES: ReadonlySet<SessionStatus> = new Set(['arrived', 'cancelled', 'expired']);

/** Half-width of the route corridor; outside it (on consecutive fixes) the traveller is off route (m). */
export const DEFAULT_SESSION_CORRIDOR_METERS = 40;
/** A session arrives within this distance of its arrival point (m). */
export const DEFAULT_SESSION_ARRIVAL_METERS = 35;
export const SESSION_IDLE_TTL_MS = 6 * 60 * 60 * 1000;
/** Commands remembered for deduplicating retried deliveries. */
export const REMEMBERED_COMMANDS = 4;
