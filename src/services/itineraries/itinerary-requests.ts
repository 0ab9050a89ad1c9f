/** Request bodies of the itinerary endpoints (spec part 3 §2.4, §4.3; docs/itineraries.md). */
import { z } from 'zod';
import { latitude, longitude } from '../../domain/geo.js';

export const ITINERARY_COSTINGS = ['auto', 'bicycle', 'pedestrian'] as const;
export type ItineraryCosting = (typeof ITINERARY_COSTINGS)[number];
const costing = z.enum(ITINERARY_COSTINGS, { error: `must be one of ${ITINERARY_COSTINGS.join(', ')}` });

export const MIN_STOPS = 2;
export const MAX_STOPS = 40;
export const MAX_NOTES = 500;
/** A day: no stop is visited longer, no budget is longer. */
const DAY_MINUTES = 1440;

/** A stop (spec part 3 §2.4): `dwellMin` is the minutes spent there, default 0. */
export const itineraryStop = z.object({
  lat: latitude,
  lng: longitude,
  name: z.string().trim().max(200).optional(),
  placeId: z.string().trim().min(1).max(200).optional(),
  note: z.string().max(500).optional(),
  dwellMin: z.number().min(0).max(DAY_MINUTES).default(0),
});
export type ItineraryStop = z.output<typeof itineraryStop>;

const stops = (min: number) =>
  z
    .array(itineraryStop, { error: 'must be an array of stops' })
    .min(min, `must hold at least ${min} stops`)
    .max(MAX_STOPS, `must hold at most ${MAX_STOPS} stops`);

export const itineraryPlanBody = z.object({
  stops: stops(MIN_STOPS),
  costing: costing.default('auto'),
});
export type ItineraryPlanBody = z.output<typeof itineraryPlanBody>;

export const itineraryAutoBody = z.object({
  start: z.object({ lat: latitude, lng: longitude }),
  timeBudgetMin: z.number().min(30, 'must be at least 30').max(DAY_MINUTES, `must be at most ${DAY_MINUTES}`).default(240),
  interests: z.array(z.string().trim().min(1).max(60), { error: 'must be an array of words' }).max(20, 'must hold at most 20 words').default([]),
  radiusKm: z.number().gt(0, 'must be more than 0').max(50, 'must be at most 50').default(8),
  dwellMin: z.number().min(0).max(DAY_MINUTES).default(30),
  maxCandidates: z.number().int('must be a whole number').min(1, 'must be at least 1').max(60, 'must be at most 60').default(25),
  costing: costing.default('pedestrian'),
  /** Designed: the tour comes back to `start` (its last leg counts against the budget). */
  returnToStart: z.boolean().default(false),
});
export type ItineraryAutoBody = z.output<typeof itineraryAutoBody>;

const name = z.string().trim().min(1, 'must not be empty').max(120);
const notes = z.string().max(MAX_NOTES, `must be at most ${MAX_NOTES} characters`);
/** A cached plan object as a client keeps it (the plan endpoint's answer); bounded by the body limit. */
const plan = z.record(z.string(), z.unknown());

export const saveItineraryBody = z.object({
  name,
  stops: stops(1),
  notes: notes.optional(),
  plan: plan.optional(),
  isPublic: z.boolean().default(false),
});
export type SaveItineraryBody = z.output<typeof saveItineraryBody>;

/** Update: every field optional; `notes` and `plan` accept null to clear. */
export const updateItineraryBody = z.object({
  name: name.optional(),
  stops: stops(1).optional(),
  notes: notes.nullable().optional(),
  plan: plan.nullable().optional(),
  isPublic: z.boolean().optional(),
});
export type UpdateItineraryBody = z.output<typeof updateItineraryBody>;

export const itineraryIdParams = z.object({ id: z.uuid() });
export const shareSlugParams = z.object({ shareSlug: z.string().min(1).max(200) });
