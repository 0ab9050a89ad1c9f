/**
 * The route label and tip (purpose `route_labels`), generated from the trip
 * itself: the label names the roads that carry most of the route, the tip
 * says what to expect (length of the main road, turns, tolls, ferries,
 * highways). Deterministic: the same trip always gets the same words. A
 * language model may refine them only where one is configured (none is).
 * Pure, in the solver layer: a worker labels the route it narrated (routing-tasks.ts).
 */
import type { TripManeuver, TripSummary } from './trip-types.js';

/** What the labels read of a trip: its language, each maneuver's type, length and first street name, and the summary's flags. */
export interface TripDigest {
  language: string;
  legs: readonly { maneuvers: readonly Pick<TripManeuver, 'type' | 'length' | 'street_names'>[] }[];
  summary: Pick<TripSummary, 'has_toll' | 'has_ferry' | 'has_highway'>;
}

export interface RouteLabels {
  purpose: 'route_labels';
  parsed: { label: string; tip: string };
  source: 'generated';
}

/** Maneuver types that are decisions (not start, destination, continue, becomes, stay). */
const DECISION_TYPES = new Set([9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 25, 26, 37, 38]);

/** Labels from a trip (or anything with its digest's fields). */
export function routeLabels(trip: TripDigest): RouteLabels {
  const arabic = trip.language.toLowerCase().startsWith('ar');
  const byStreet = new Map<string, number>();
  let total = 0;
  let decisions = 0;
  for (const leg of trip.legs) {
    for (const maneuver of leg.maneuvers) {
      total += maneuver.length;
      if (DECISION_TYPES.has(maneuver.type)) decisions++;
      const name = maneuver.street_names?.[0];
      if (name) byStreet.set(name, (byStreet.get(name) ?? 0) + maneuver.length);
    }
  }
  const main = [...byStreet.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 2);
  const share = main[0] && total > 0 ? Math.round((100 * main[0][1]) / total) : 0;
  const summary = trip.summary;
  if (arabic) {
    const label = main.length === 0 ? 'طريق مباشر' : main.length === 1 ? `عبر ${main[0]![0]}` : `عبر ${main[0]![0]} و${main[1]![0]}`;
    const parts = [
      main[0] ? `${share}٪ من الطريق على ${main[0][0]}` : undefined,
      decisions === 0 ? 'بلا انعطافات' : decisions === 1 ? 'انعطاف واحد' : decisions === 2 ? 'انعطافان' : `${decisions} انعطافات`,
      summary.has_toll ? 'يشمل طرقًا برسوم' : undefined,
      summary.has_ferry ? 'يشمل عبّارة' : undefined,
      summary.has_highway ? 'يمر بطريق سريع' : undefined,
    ].filter(Boolean);
    return { purpose: 'route_labels', parsed: { label, tip: `${parts.join('، ')}.` }, source: 'generated' };
  }
  const label = main.length === 0 ? 'Direct route' : main.length === 1 ? `Via ${main[0]![0]}` : `Via ${main[0]![0]} and ${main[1]![0]}`;
  const parts = [
    main[0] ? `${share}% of the way on ${main[0][0]}` : undefined,
    decisions === 0 ? 'no turns' : decisions === 1 ? '1 turn' : `${decisions} turns`,
    summary.has_toll ? 'includes toll roads' : undefined,
    summary.has_ferry ? 'includes a ferry' : undefined,
    summary.has_highway ? 'uses a highway' : undefined,
  ].filter(Boolean);
  const tip = parts.join(', ');
  return { purpose: 'route_labels', parsed: { label, tip: `${tip.charAt(0).toUpperCase()}${tip.slice(1)}.` }, source: 'generated' };
}

/** What `includeLabels: false` answers (spec part 3 §4.1). */
export const SKIPPED_LABELS = { unavailable: false, purpose: 'route_labels', content: '' } as const;
