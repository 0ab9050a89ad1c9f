/**
 * The trip simulator's model (docs/traffic.md "Simulator"): documented speed
 * patterns by local hour for working days, weekends and Ramadan (with the
 * iftar dip), and trips driven along a routed polyline at base speed × the
 * pattern's factor, one fix a second with seeded GPS noise. Everything it
 * makes is posted with `simulated: true`; the model learns from it as from
 * any trip and knows nothing of these patterns.
 */
import polyline from '@mapbox/polyline';
import { haversineMeters } from '../solvers/graph/geodesy.js';
import { Random } from '../solvers/random.js';
import type { CountryCode } from '../services/calendars/country-profiles.js';
import { localClock } from '../services/traffic/traffic-model.js';

export type DayKind = 'typical' | 'weekend' | 'ramadan';

/** Speed factor (share of the base speed) by local hour, 0–23. */
export interface SpeedPattern {
  typical: readonly number[];
  weekend: readonly number[];
  ramadan: readonly number[];
}

function hours(spans: [number, number, number][]): number[] {
  const out = new Array<number>(24).fill(0.9);
  for (const [from, to, factor] of spans) for (let hour = from; hour <= to; hour++) out[hour] = factor;
  return out;
}

/**
 * The default pattern: working-day rush hours 07–09 and 16–18 at 45 % of the base speed, daytime 70 %, nights 95 %;
 * weekends 95 % mornings, 80 % daytime, 65 % evenings; Ramadan days a later morning rush (09–10, 50 %), the rush
 * home in the hour before iftar (40 %), near-empty roads during iftar (98 %), busy evenings after (60 %).
 */
export function defaultPattern(iftarHour = 18): SpeedPattern {
  return {
    typical: hours([[0, 5, 0.95], [6, 6, 0.8], [7, 9, 0.45], [10, 14, 0.7], [15, 15, 0.6], [16, 18, 0.45], [19, 21, 0.65], [22, 23, 0.85]]),
    weekend: hours([[0, 9, 0.95], [10, 17, 0.8], [18, 21, 0.65], [22, 23, 0.85]]),
    ramadan: hours([[0, 8, 0.9], [9, 10, 0.5], [11, iftarHour - 2, 0.7], [iftarHour - 1, iftarHour - 1, 0.4], [iftarHour, iftarHour, 0.98], [iftarHour + 1, 23, 0.6]]),
  };
}

export function factorAt(pattern: SpeedPattern, kind: DayKind, hour: number): number {
  return pattern[kind][hour]!;
}

export interface SimulatedTrip {
  fixes: { lat: number; lng: number; t: number }[];
  /** The speed driven (km/h) and the local hour and day kind it was chosen for. */
  speedKph: number;
  hour: number;
  kind: DayKind;
}

/** Uniform in (0, 1], seeded (the Gaussian draw takes its logarithm). */
export function seededRandom(seed: number): () => number {
  const random = new Random(seed);
  return () => 1 - random.next();
}

const METERS_PER_DEGREE = 111_195;

/** Drives an encoded polyline (6 decimals) from `startMs` at base × factor, one fix a second, with Gaussian noise (m). */
export function driveTrip(shape: string, options: { startMs: number; baseKph: number; kind: DayKind; country: CountryCode; pattern: SpeedPattern; noiseMeters: number; seed: number }): SimulatedTrip {
  const points = polyline.decode(shape, 6) as [number, number][];
  const hour = localClock(options.country, options.startMs).hour;
  const speedKph = options.baseKph * factorAt(options.pattern, options.kind, hour);
  const speed = speedKph / 3.6;
  const random = seededRandom(options.seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
  const fixes: SimulatedTrip['fixes'] = [];
  let t = options.startMs;
  let carry = 0;
  const emit = (lat: number, lng: number) =>
    fixes.push({
      lat: Math.round((lat + (gaussian() * options.noiseMeters) / METERS_PER_DEGREE) * 1e7) / 1e7,
      lng: Math.round((lng + (gaussian() * options.noiseMeters) / (METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180))) * 1e7) / 1e7,
      t: Math.round(t),
    });
  emit(points[0]![0], points[0]![1]);
  for (let index = 1; index < points.length; index++) {
    const [lat1, lng1] = points[index - 1]!;
    const [lat2, lng2] = points[index]!;
    const step = haversineMeters(lat1, lng1, lat2, lng2);
    let at = speed - carry;
    while (at <= step) {
      const share = step > 0 ? at / step : 1;
      t += 1000;
      emit(lat1 + share * (lat2 - lat1), lng1 + share * (lng2 - lng1));
      at += speed;
    }
    carry = step - (at - speed);
  }
  return { fixes, speedKph, hour, kind: options.kind };
}
