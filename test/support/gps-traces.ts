import type { MapPack } from '../../src/datapack/map-pack.js';
import type { LegPath } from '../../src/solvers/routing/leg-path.js';
import { edgeLine, pointAt } from '../../src/solvers/routing/edge-geometry.js';

export interface SimulatedFix {
  lat: number;
  lon: number;
  time: number;
}

/** A seeded uniform generator (LCG), so a noisy trace is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state + 0.5) / 2 ** 32;
  };
}

/**
 * GPS fixes along a routed leg, one every `intervalSeconds` of its travel time (edge and turn
 * seconds), each displaced by Gaussian noise of `noiseMeters` standard deviation per axis.
 */
export function simulateTrace(pack: MapPack, leg: LegPath, options: { intervalSeconds: number; noiseMeters: number; seed: number; startTime?: number }): SimulatedFix[] {
  const random = seededRandom(options.seed);
  const gaussian = () => Math.sqrt(-2 * Math.log(random())) * Math.cos(2 * Math.PI * random());
  const fixes: SimulatedFix[] = [];
  let elapsed = 0;
  let next = 0;
  leg.edges.forEach((edge, index) => {
    const line = edgeLine(pack, edge);
    const from = index === 0 ? leg.origin.fraction : 0;
    const to = index === leg.edges.length - 1 ? leg.destination.fraction : 1;
    const seconds = leg.edgeSeconds[index]! + leg.turnSeconds[index]!;
    const start = elapsed;
    elapsed += seconds;
    while (next <= elapsed) {
      const moving = leg.edgeSeconds[index]!;
      const share = moving > 0 ? Math.max(0, (next - start - leg.turnSeconds[index]!) / moving) : 1;
      const [lat, lon] = pointAt(line, from + (to - from) * Math.min(1, share));
      const metersPerDegree = 111_195;
      fixes.push({
        lat: lat + (gaussian() * options.noiseMeters) / metersPerDegree,
        lon: lon + (gaussian() * options.noiseMeters) / (metersPerDegree * Math.cos((lat * Math.PI) / 180)),
        time: (options.startTime ?? 0) + next,
      });
      next += options.intervalSeconds;
    }
  });
  return fixes;
}
