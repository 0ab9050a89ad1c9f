/**
 * The body of POST /telemetry/trips (docs/traffic.md "Intake"): one trip of
 * timestamped fixes. A trace the model cannot learn from is refused with 400
 * naming the fix and the problem: time must strictly increase, consecutive
 * fixes may not imply an impossible speed, and the trip must lie within the
 * retention window and not in the future.
 */
import { z } from 'zod';
import { haversineMeters } from '../../solvers/graph/geodesy.js';

export const MAX_TRIP_FIXES = 10_000;
export const MIN_TRIP_FIXES = 2;
/** Fastest plausible road speed between two fixes (km/h); GPS jumps beyond it make a trace unusable. */
export const MAX_PLAUSIBLE_KPH = 250;
/** A trip may span at most this long. */
export const MAX_TRIP_SPAN_MS = 24 * 3_600_000;
/** Fixes may be this far ahead of the server's clock (device clocks drift). */
export const MAX_FUTURE_SKEW_MS = 5 * 60_000;
/** Raw fixes are kept this long at most (the oldest a trip may be when posted, too). */
export const RAW_FIX_RETENTION_MS = 7 * 24 * 3_600_000;
/** 10 000 fixes of `{"lat":..,"lng":..,"t":..}` are about 600 kB. */
export const TRIP_BODY_LIMIT_BYTES = 1_500_000;

const fix = z.object({
  lat: z.number().min(-90).max(90),
  lng: z.number().min(-180).max(180),
  /** Unix epoch milliseconds. */
  t: z.number().int('must be whole epoch milliseconds').positive(),
});

export const tripRequest = z
  .object({
    fixes: z.array(fix).min(MIN_TRIP_FIXES, `a trip needs at least ${MIN_TRIP_FIXES} fixes`).max(MAX_TRIP_FIXES, `a trip has at most ${MAX_TRIP_FIXES} fixes`),
    /** The caller's own device or driver id; only its salted hash is kept (contributor counting for k-anonymity). */
    deviceId: z.string().trim().min(1).max(128).optional(),
    /** Marks trips made up by the simulator: their samples are counted as simulated wherever shown. */
    simulated: z.boolean().default(false),
  })
  .strict();

export type TripRequest = z.infer<typeof tripRequest>;

/** Checks a parsed trip's trace; the first problem as a sentence naming the fix, or undefined. */
export function traceProblem(fixes: readonly { lat: number; lng: number; t: number }[], nowMs: number): string | undefined {
  const first = fixes[0]!;
  const last = fixes[fixes.length - 1]!;
  for (let index = 1; index < fixes.length; index++) {
    const a = fixes[index - 1]!;
    const b = fixes[index]!;
    if (b.t <= a.t) return `fixes[${index}].t (${b.t}) is not after fixes[${index - 1}].t (${a.t}): time must strictly increase`;
    const kph = (haversineMeters(a.lat, a.lng, b.lat, b.lng) / ((b.t - a.t) / 1000)) * 3.6;
    if (kph > MAX_PLAUSIBLE_KPH) return `fixes[${index}] is ${Math.round(kph)} km/h from fixes[${index - 1}]: more than the plausible ${MAX_PLAUSIBLE_KPH} km/h`;
  }
  if (last.t - first.t > MAX_TRIP_SPAN_MS) return `the trip spans ${Math.round((last.t - first.t) / 3_600_000)} h: at most 24 h`;
  if (last.t > nowMs + MAX_FUTURE_SKEW_MS) return `fixes[${fixes.length - 1}].t lies in the future`;
  if (first.t < nowMs - RAW_FIX_RETENTION_MS) return 'the trip is older than the 7-day retention of raw fixes';
  return undefined;
}
