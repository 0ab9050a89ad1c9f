/**
 * The trip assembler: searched legs → a Valhalla-compatible `trip`.
 *
 * This is the API the route endpoints call; keep it stable:
 * `buildTrip(pack, legs, options)` returns exactly Valhalla's trip object
 * (`{ locations, legs: [{ maneuvers, summary, shape }], summary, status: 0,
 * status_message, units, language }`); the caller wraps it as `{ trip }`.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { buildTripLeg, tripSummary, type LegSettings } from './leg-assembly.js';
import { ManeuverType as T } from './maneuver-types.js';
import type { DistanceUnits } from './narrative/distance-phrases.js';
import { costingMode } from './costing-modes.js';
import { narrativeLanguage } from './street-names.js';
import { MAX_LANE_LOOKUPS, type GuidanceLeg, type Trip, type TripLocation, type TripOptions } from './trip-types.js';
import type { Costing } from '../../../domain/costing.js';

/** `kilometers` unless miles were asked for (`miles` or `mi`). */
export function distanceUnits(units: TripOptions['units']): DistanceUnits {
  return units === 'miles' || units === 'mi' ? 'miles' : 'kilometers';
}

/**
 * Builds the trip for consecutive legs (leg i ends where leg i+1 starts).
 *
 * @param pack the map pack the legs were searched on
 * @param legs one {@link GuidanceLeg} per pair of consecutive break locations, in order; at least one
 * @param options narrative language (default `en-US`), units (default `kilometers`), costing (default
 *   `auto`), `includeLanes`, `includeAttributes`
 * @returns Valhalla's trip object; `language` echoes an `en*`/`ar*` tag (anything else was written in, and says,
 *   `en-US`); `units` is `kilometers` or `miles`
 * @throws RangeError when `legs` is empty
 */
export function buildTrip(pack: MapPack, legs: GuidanceLeg[], options: TripOptions = {}): Trip {
  if (legs.length === 0) throw new RangeError('buildTrip needs at least one leg');
  const costing = options.costing ?? 'auto';
  const units = distanceUnits(options.units);
  const { mode, type } = costingMode(costing);
  const settings: LegSettings = {
    language: narrativeLanguage(options.language),
    units,
    costing,
    mode,
    travelType: type,
    includeLanes: options.includeLanes ?? false,
    includeAttributes: options.includeAttributes ?? false,
    laneBudget: { remaining: MAX_LANE_LOOKUPS },
  };
  const tripLegs = legs.map((leg) => buildTripLeg(pack, leg, settings));
  return {
    locations: tripLocations(legs, tripLegs.map((leg) => leg.maneuvers)),
    legs: tripLegs,
    summary: tripSummary(tripLegs.map((leg) => leg.summary)),
    status_message: 'Found route between points',
    status: 0,
    units,
    language: echoedLanguage(options.language),
  };
}

/** The language the narrative is in: the caller's `ar*`/`en*` tag as given, anything else `en-US` (what was written). */
export function echoedLanguage(language: string | undefined): string {
  if (!language) return 'en-US';
  return narrativeLanguage(language) === 'ar' || /^en(?:$|[-_])/i.test(language) ? language : 'en-US';
}

function sideOfStreet(type: number | undefined): 'left' | 'right' | undefined {
  if (type === T.startRight || type === T.destinationRight) return 'right';
  if (type === T.startLeft || type === T.destinationLeft) return 'left';
  return undefined;
}

function tripLocations(legs: GuidanceLeg[], maneuvers: { type: number }[][]): TripLocation[] {
  const location = (at: GuidanceLeg['origin'], index: number, maneuverType: number | undefined): TripLocation => {
    const side = sideOfStreet(maneuverType);
    return { type: at.type, lat: at.lat, lon: at.lon, ...(side ? { side_of_street: side } : {}), original_index: index, ...(at.name ? { name: at.name } : {}) };
  };
  const result = [location(legs[0]!.origin, 0, maneuvers[0]![0]?.type)];
  legs.forEach((leg, index) => {
    const list = maneuvers[index]!;
    result.push(location(leg.destination, index + 1, list[list.length - 1]?.type));
  });
  return result;
}
