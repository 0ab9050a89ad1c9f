/**
 * Walking a route's shape at a fixed pace, for load scenarios that stream navigation fixes along real routes
 * (the navigation scenario and the soak).
 */
import polyline from '@mapbox/polyline';

/** Real origin/destination pairs across Nasr City and Heliopolis, 2–6 km apart (long enough to outlast a run). */
export const NASR_CITY_PAIRS: [number, number, number, number][] = [
  [30.0626, 31.3219, 30.07, 31.34],
  [30.0512, 31.3402, 30.0795, 31.3292],
  [30.0708, 31.3187, 30.0468, 31.3569],
  [30.0598, 31.3551, 30.0867, 31.3342],
  [30.0455, 31.3371, 30.0662, 31.3105],
  [30.0785, 31.3455, 30.0536, 31.3212],
  [30.0674, 31.3638, 30.0521, 31.3275],
  [30.0891, 31.3205, 30.0611, 31.3449],
];

export interface RouteWalk {
  points: [number, number][];
  /** metres from the start to each point */
  along: number[];
}

/** The integer right after the first `key` in `text` (frames are JSON the server writes in a fixed field order). */
export function numberAfter(text: string, key: string): number {
  const start = text.indexOf(key) + key.length;
  let end = start;
  while (end < text.length && text.charCodeAt(end) >= 48 && text.charCodeAt(end) <= 57) end++;
  return Number(text.slice(start, end));
}

export function walkOf(shape: string): RouteWalk {
  const points = polyline.decode(shape, 6) as [number, number][];
  const along = [0];
  for (let index = 1; index < points.length; index++) {
    const [lat1, lng1] = points[index - 1]!;
    const [lat2, lng2] = points[index]!;
    const dy = (lat2 - lat1) * 111_195;
    const dx = (lng2 - lng1) * 111_195 * Math.cos((lat1 * Math.PI) / 180);
    along.push(along[index - 1]! + Math.hypot(dx, dy));
  }
  return { points, along };
}

export function pointAt(walk: RouteWalk, meters: number): [number, number] {
  const { points, along } = walk;
  let low = 0;
  let high = along.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (along[middle]! <= meters) low = middle;
    else high = middle - 1;
  }
  if (low >= points.length - 1) return points[points.length - 1]!;
  const span = along[low + 1]! - along[low]!;
  const t = span > 0 ? (meters - along[low]!) / span : 0;
  return [points[low]![0] + t * (points[low + 1]![0] - points[low]![0]), points[low]![1] + t * (points[low + 1]![1] - points[low]![1])];
}

/** Runs `work` over `items` with at most `concurrency` in flight. */
export async function inBatches<T>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const index = next++;
        await work(items[index]!, index);
      }
    }),
  );
}
