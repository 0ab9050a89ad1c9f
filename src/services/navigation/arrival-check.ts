/**
 * POST /navigation/arrival-check (spec part 3 §4.2; the response is ours, see
 * docs/navigation.md): has the traveller arrived? The arrival point is the
 * mapped place's entrance or road access when a place slug is given, else
 * the destination itself; arrival is being within the radius of it.
 */
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import { roundTo } from '../../shared/rounding.js';
import { unknownPlace, type ArrivalPointType, type PlaceEntranceResolver, type ResolvedPlaceEntrance } from './place-entrances.js';
import { PROVIDER, type Position } from './stateless-navigation.js';
import type { NavigationCosting } from '../../domain/costing.js';

/** About the fix accuracy of a phone in a street: the session arrival radius of the spec (§3). */
export const DEFAULT_ARRIVAL_RADIUS_METERS = 35;

export interface ArrivalCheckInput {
  destination: Position & { placeSlug?: string };
  position: Position;
  /** Overrides `destination.placeSlug`. */
  placeSlug?: string;
  arrivalRadiusMeters: number;
  costing: NavigationCosting;
  language: string;
}

export interface ArrivalCheck {
  provider: typeof PROVIDER;
  arrived: boolean;
  /** Metres from the position to the arrival point. */
  distanceMeters: number;
  arrivalRadiusMeters: number;
  arrivalPoint: { type: 'destination' | ArrivalPointType; lat: number; lng: number };
  /** Metres from the position to the destination as given. */
  distanceToDestinationMeters: number;
  /** The place the slug resolved to and its arrival point; null without a slug. */
  entrance: ResolvedPlaceEntrance | null;
}

export class ArrivalChecker {
  constructor(private readonly entrances: PlaceEntranceResolver) {}

  async check(input: ArrivalCheckInput, signal?: AbortSignal): Promise<ArrivalCheck> {
    const slug = input.placeSlug ?? input.destination.placeSlug;
    let entrance: ResolvedPlaceEntrance | null = null;
    if (slug !== undefined) {
      entrance = (await this.entrances.resolve(slug, { costing: input.costing, language: input.language, near: input.position }, signal)) ?? null;
      if (!entrance) throw unknownPlace(slug);
    }
    const point = entrance ? { type: entrance.type, lat: entrance.lat, lng: entrance.lng } : { type: 'destination' as const, lat: input.destination.lat, lng: input.destination.lng };
    const distance = haversineMeters(input.position.lat, input.position.lng, point.lat, point.lng);
    return {
      provider: PROVIDER,
      arrived: distance <= input.arrivalRadiusMeters,
      distanceMeters: roundTo(distance, 1),
      arrivalRadiusMeters: input.arrivalRadiusMeters,
      arrivalPoint: point,
      distanceToDestinationMeters: roundTo(haversineMeters(input.position.lat, input.position.lng, input.destination.lat, input.destination.lng), 1),
      entrance,
    };
  }
}
