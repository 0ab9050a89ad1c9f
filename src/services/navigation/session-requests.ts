/**
 * Request schemas of navigation sessions, shared by the REST routes and the
 * WebSocket stream so a fix means the same thing on both.
 */
import { z } from 'zod';
import { heading, latitude, longitude } from '../../domain/geo.js';
import { navigationDestination, navigationPosition, navigationRouteOptions } from './navigation-requests.js';

/** Fixes one positions call (or one stream message) may carry. */
export const MAX_FIXES_PER_BATCH = 50;

export const fixSchema = z.object({
  lat: latitude,
  lng: longitude,
  /** m/s; 150 m/s is far above any road vehicle. */
  speed: z.number().finite().min(0).max(150).optional(),
  heading: heading.optional(),
  /** Horizontal accuracy of the fix, m. */
  accuracy: z.number().finite().min(0).max(10_000).optional(),
  capturedAt: z.iso.datetime({ offset: true }).optional(),
});

export const fixBatchSchema = z.array(fixSchema).min(1).max(MAX_FIXES_PER_BATCH);

/** POST /navigation/sessions: the route options read exactly as the stateless re-planning reads them. */
export const sessionCreateSchema = z.object({
  origin: navigationPosition,
  destination: navigationDestination,
  ...navigationRouteOptions,
  /** https URL receiving every event, signed (docs/webhooks.md); checked again before each delivery. */
  webhookUrl: z.string().trim().min(1).max(2048).optional(),
});

export const sessionIdParams = z.object({ id: z.string().min(1).max(64) });
