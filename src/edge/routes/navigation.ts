/**
 * Navigation (spec part 3 §4.2, scope `routing`). The stateless helpers for
 * now; sessions, their events and the WebSocket stream join this family.
 */
import { z } from 'zod';
import { offRoute, progress } from '../../services/navigation/stateless-navigation.js';
import { ArrivalChecker, DEFAULT_ARRIVAL_RADIUS_METERS } from '../../services/navigation/arrival-check.js';
import type { NavigationRoutePlanner } from '../../services/navigation/navigation-route-planner.js';
import type { PlaceEntranceResolver } from '../../services/navigation/place-entrances.js';
import { NavigationRecalculation, type RecalculateSession } from '../../services/navigation/recalculate.js';
import { speak } from '../../services/navigation/speech/speak.js';
import { unitsSchema } from '../../services/routing/engine-request.js';
import { defineRoute, type RouteDefinition } from '../route.js';
import { heading, latitude, longitude } from '../../domain/geo.js';
import {
  arrivalRadiusMeters,
  navigationCosting,
  navigationDestination,
  navigationHeading,
  navigationLanguage,
  navigationPosition,
  navigationRouteOverrides,
} from '../../services/navigation/navigation-requests.js';
import { arrivalCheckResponse, recalculateResponse, speakResponse } from '../schemas/navigation-responses.js';

export interface NavigationRouteOptions {
  planner: NavigationRoutePlanner;
  entrances: PlaceEntranceResolver;
  /** Re-plans a session in place (POST /navigation/recalculate with `sessionId`); absent, every session id is unknown (404). */
  recalculateSession?: RecalculateSession;
}

const ROUTING_ERRORS = ['NO_ROAD_NEARBY', 'NO_ROUTE', 'COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT', 'SERVER_BUSY'] as const;
/** Longest text /navigation/speak accepts: a few maneuvers' worth of guidance. */
const MAX_SPEECH_CHARACTERS = 2_000;
const speechText = z.string().max(MAX_SPEECH_CHARACTERS);

const route = { tags: ['navigation'], readOnly: true };
const position = z.object({ lat: latitude, lng: longitude });
/** A polyline6 route shape; 2 MB of text is about 400 000 points, far beyond any route. */
const routeShape = z.string().min(1).max(2_000_000);

export function navigationRoutes(options: NavigationRouteOptions): RouteDefinition[] {
  const recalculation = new NavigationRecalculation(options.planner, options.entrances, options.recalculateSession);
  const arrivals = new ArrivalChecker(options.entrances);
  return [
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/off-route',
      summary: 'Stateless: is a position outside the corridor of a route shape?',
      bodyLimitBytes: 4 * 1024 * 1024,
      body: z.object({
        routeShape,
        position,
        heading: heading.optional(),
        thresholdMeters: z.number().min(5).max(500).default(40),
      }),
      handler: ({ body }) => offRoute(body),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/progress',
      summary: 'Stateless: where a position lies along a route shape, what is left and the next maneuver',
      bodyLimitBytes: 4 * 1024 * 1024,
      body: z.object({
        routeShape,
        position,
        heading: heading.optional(),
        speed: z.number().min(0).max(150).optional(),
        maneuvers: z.array(z.object({ cumulativeMeters: z.number().min(0) })).max(10_000).optional(),
        totalDistanceMeters: z.number().positive().optional(),
        baseSeconds: z.number().min(0).optional(),
        arrivalRadiusMeters: z.number().min(5).max(200).default(30),
      }),
      handler: ({ body }) => progress(body),
    }),
    defineRoute({
      ...route,
      readOnly: false,
      method: 'POST',
      path: '/navigation/recalculate',
      summary: 'Re-plan from where the traveller is: a fresh route to the destination, or a session\'s route replaced in place',
      description:
        'Without `sessionId` it is stateless: `destination` is required and the route is planned from `current` ' +
        '(with `heading`, the route leaves in the direction of travel instead of turning around); a `destination.placeSlug` ' +
        'routes to the place\'s arrival point (entrance or road access; unknown slug 404). With `sessionId` the ' +
        'session\'s route is replaced in place and its reroute count incremented. Answers `{ provider, sessionId, costing, preference, route { shape, maneuvers, distanceMeters, etaSeconds } }`.',
      body: z
        .object({
          sessionId: z.string().min(1).max(100).optional(),
          current: navigationPosition,
          heading: navigationHeading.optional(),
          destination: navigationDestination.optional(),
          ...navigationRouteOverrides,
        })
        .refine((body) => body.sessionId !== undefined || body.destination !== undefined, {
          message: 'required when no sessionId is given',
          path: ['destination'],
        }),
      response: recalculateResponse,
      errors: [...ROUTING_ERRORS, 'NOT_FOUND', 'FORBIDDEN'],
      handler: ({ body, principal, signal }) => {
        const { sessionId, ...input } = body;
        return recalculation.recalculate(sessionId, principal!, input, signal);
      },
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/arrival-check',
      summary: 'Stateless: has the traveller arrived? Distance to the arrival point (a mapped place\'s entrance or road access, else the destination)',
      description:
        'A `placeSlug` (top level, or in `destination`; the top-level one wins) names a mapped place as `way-<osm id>`, `node-<osm id>` or ' +
        '`relation-<osm id>`; its arrival point is its entrance, or where it meets the road network (`type: "road_access"`). ' +
        'Unknown slug: 404. `arrivalRadiusMeters` 5–200, default 35. See docs/navigation.md for the response.',
      body: z.object({
        destination: navigationDestination.omit({ name: true }),
        position: navigationPosition,
        placeSlug: navigationDestination.shape.placeSlug,
        arrivalRadiusMeters: arrivalRadiusMeters.default(DEFAULT_ARRIVAL_RADIUS_METERS),
        costing: navigationCosting.default('auto'),
        language: navigationLanguage.default('en-US'),
      }),
      response: arrivalCheckResponse,
      errors: ['NOT_FOUND', 'COSTING_UNAVAILABLE', 'COMPUTATION_TIMEOUT', 'SERVER_BUSY'],
      handler: ({ body, signal }) => arrivals.check(body, signal),
    }),
    defineRoute({
      ...route,
      method: 'POST',
      path: '/navigation/speak',
      summary: 'Guidance text ready for a speech engine: abbreviations, numbers and distances in words (English, Arabic), and SSML',
      description:
        'Body: `text`, or a navigation `maneuver` with `cue` (`pre` default, `alert`, `post`, `instruction`); `language` `en`/`ar` tags ' +
        '(default: the script of the text); `distanceMeters` and `units` announce the maneuver that far ahead. Answers ' +
        '`{ provider, language, text, ssml }`. No speech engine is configured, so no `audioUrl` is returned.',
      body: z
        .object({
          text: speechText.optional(),
          maneuver: z
            .object({ instruction: speechText.optional(), verbalAlert: speechText.optional(), verbalPre: speechText.optional(), verbalPost: speechText.optional() })
            .optional(),
          cue: z.enum(['pre', 'alert', 'post', 'instruction']).default('pre'),
          language: z
            .string()
            .max(20)
            .regex(/^(en|ar)(-[A-Za-z0-9]{1,8})*$/i, 'must be an English or Arabic language tag (en, en-US, ar, ar-EG, …)')
            .optional(),
          distanceMeters: z.number().min(0).max(1_000_000).optional(),
          units: unitsSchema.optional(),
        })
        .refine((body) => (body.text === undefined) !== (body.maneuver === undefined), { message: 'give either text or maneuver', path: ['text'] }),
      response: speakResponse,
      handler: ({ body }) => speak(body),
    }),
  ];
}
