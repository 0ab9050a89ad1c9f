/**
 * What the navigation routes answer, for the OpenAPI description: the
 * navigable route, the re-plan, the arrival check and the spoken text.
 */
import { z } from 'zod';
import { navigationCosting, navigationPreference } from '../../services/navigation/navigation-requests.js';

const point = z.object({ lat: z.number(), lng: z.number() });

/** A navigation maneuver (spec §2.1). */
export const navigationManeuverResponse = z.object({
  index: z.number().int(),
  type: z.number().int().describe('maneuver type code, see GET /routing/maneuver-types'),
  instruction: z.string(),
  verbalAlert: z.string(),
  verbalPre: z.string(),
  verbalPost: z.string(),
  streetNames: z.array(z.string()),
  roundaboutExit: z.number().int().nullable(),
  exitSign: z.string().nullable(),
  distanceMeters: z.number(),
  timeSeconds: z.number(),
  lat: z.number(),
  lng: z.number(),
  cumulativeMeters: z.number().describe('metres from the route start to where the maneuver begins'),
  beginShapeIndex: z.number().int(),
  endShapeIndex: z.number().int(),
  legIndex: z.number().int(),
});

/** A navigable route: `{ shape (polyline6), maneuvers, distanceMeters, etaSeconds }`. */
export const navigationRouteResponse = z.object({
  shape: z.string().describe('polyline6 of the whole route'),
  maneuvers: z.array(navigationManeuverResponse),
  distanceMeters: z.number(),
  etaSeconds: z.number().describe('travel time without live traffic'),
});

export const recalculateResponse = z.object({
  provider: z.literal('svc-navigation'),
  sessionId: z.string().nullable(),
  costing: navigationCosting,
  preference: navigationPreference,
  route: navigationRouteResponse,
});

const arrivalPointType = z.enum(['destination', 'entrance', 'road_access', 'place']);

export const arrivalCheckResponse = z.object({
  provider: z.literal('svc-navigation'),
  arrived: z.boolean(),
  distanceMeters: z.number().describe('from the position to the arrival point'),
  arrivalRadiusMeters: z.number(),
  arrivalPoint: point.extend({ type: arrivalPointType }),
  distanceToDestinationMeters: z.number(),
  entrance: z
    .object({
      placeSlug: z.string(),
      name: z.string().nullable(),
      place: point,
      type: arrivalPointType.exclude(['destination']),
      lat: z.number(),
      lng: z.number(),
      streetName: z.string().nullable(),
      distanceFromPlaceMeters: z.number(),
    })
    .nullable(),
});

export const speakResponse = z.object({
  provider: z.literal('svc-navigation'),
  language: z.string(),
  text: z.string().describe('normalized for text-to-speech'),
  ssml: z.string().describe('an SSML 1.1 <speak> document'),
});
