import type { TravelMatrix } from '../../src/services/optimization/travel-matrix.js';

/** A matrix for tests, computed from the points: great-circle metres × 1.3 detour, at 8 m/s; `cut` points have no path to or from anything. */
export function computedMatrix(points: readonly { lat: number; lng: number }[], cut: readonly number[] = []): TravelMatrix {
  const n = points.length;
  const distances = new Float64Array(n * n);
  const durations = new Float64Array(n * n);
  const reachable = new Uint8Array(n * n).fill(1);
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      const p = points[a]!;
      const q = points[b]!;
      const dLat = ((q.lat - p.lat) * Math.PI) / 180;
      const dLng = ((q.lng - p.lng) * Math.PI) / 180;
      const h = Math.sin(dLat / 2) ** 2 + Math.cos((p.lat * Math.PI) / 180) * Math.cos((q.lat * Math.PI) / 180) * Math.sin(dLng / 2) ** 2;
      distances[a * n + b] = 2 * 6_371_000 * Math.asin(Math.sqrt(h)) * 1.3;
      durations[a * n + b] = distances[a * n + b]! / 8;
      if (a !== b && (cut.includes(a) || cut.includes(b))) reachable[a * n + b] = 0;
    }
  }
  return { size: n, durationsSeconds: durations, distancesMeters: distances, reachable };
}
