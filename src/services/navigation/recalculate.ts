/**
 * POST /navigation/recalculate (spec part 3 §4.2): a fresh route from where
 * the traveller is. Without a session it is stateless (the destination comes
 * with the request, and a `placeSlug` in it routes to the place's arrival
 * point); with one, the session's route is replaced in place by
 * the sessions' own hook (they own the route, the destination and the
 * reroute count).
 */
import { ApiError } from '../../shared/errors.js';
import type { NavigationRoute } from '../../domain/navigation-route.js';
import type { NavigationRoutePlanner } from './navigation-route-planner.js';
import { unknownPlace, type PlaceEntranceResolver } from './place-entrances.js';
import { PROVIDER, type Position } from './stateless-navigation.js';
import type { Avoidable, Preference } from '../../domain/costing.js';
import type { NavigationCosting } from '../../domain/costing.js';
import type { Principal } from '../../domain/principal.js';

/** The request as the handler validated it; route options absent where the caller left them out. */
export interface RecalculateInput {
  current: Position;
  heading?: number;
  destination?: Position & { name?: string; placeSlug?: string };
  costing?: NavigationCosting;
  preference?: Preference;
  avoid?: Avoidable[];
  language?: string;
}

export interface RecalculateResult {
  provider: typeof PROVIDER;
  sessionId: string | null;
  costing: NavigationCosting;
  preference: Preference;
  route: NavigationRoute;
}

/**
 * Re-plans a navigation session in place (the sessions' side): checks the caller owns it (403/404),
 * plans from `input.current` (with `input.heading`) to the session's destination, or to
 * `input.destination` when given, with the session's options unless overridden, replaces the route,
 * increments the reroute count, and answers the new route.
 */
export type RecalculateSession = (sessionId: string, principal: Principal, input: RecalculateInput, signal: AbortSignal) => Promise<RecalculateResult>;

export const DEFAULT_NAVIGATION_OPTIONS = { costing: 'auto', preference: 'balanced', avoid: [], language: 'en-US' } as const;

export class NavigationRecalculation {
  constructor(
    private readonly planner: NavigationRoutePlanner,
    private readonly entrances: PlaceEntranceResolver,
    private readonly recalculateSession?: RecalculateSession,
  ) {}

  async recalculate(sessionId: string | undefined, principal: Principal, input: RecalculateInput, signal: AbortSignal): Promise<RecalculateResult> {
    if (sessionId !== undefined) {
      if (!this.recalculateSession) throw new ApiError('NOT_FOUND', { message: `No navigation session ${sessionId}`, details: { sessionId } });
      return this.recalculateSession(sessionId, principal, input, signal);
    }
    if (!input.destination) {
      // the schema refuses this already; kept so a direct caller cannot plan to nowhere
      throw new ApiError('VALIDATION_ERROR', { message: ['destination: required when no sessionId is given'] });
    }
    const costing = input.costing ?? DEFAULT_NAVIGATION_OPTIONS.costing;
    const preference = input.preference ?? DEFAULT_NAVIGATION_OPTIONS.preference;
    const language = input.language ?? DEFAULT_NAVIGATION_OPTIONS.language;
    const to = await this.arrivalPointOf(input.destination, costing, language, signal);
    const route = await this.planner.plan(
      {
        from: { ...input.current, ...(input.heading !== undefined ? { heading: input.heading } : {}) },
        to,
        costing,
        preference,
        avoid: input.avoid ?? DEFAULT_NAVIGATION_OPTIONS.avoid,
        language,
      },
      signal,
    );
    return { provider: PROVIDER, sessionId: null, costing, preference, route };
  }

  /** A destination naming a mapped place is reached at the place's arrival point (its entrance or road access). */
  private async arrivalPointOf(destination: NonNullable<RecalculateInput['destination']>, costing: NavigationCosting, language: string, signal: AbortSignal): Promise<Position> {
    if (destination.placeSlug === undefined) return destination;
    const entrance = await this.entrances.resolve(destination.placeSlug, { costing, language }, signal);
    if (!entrance) throw unknownPlace(destination.placeSlug);
    return { lat: entrance.lat, lng: entrance.lng };
  }
}
