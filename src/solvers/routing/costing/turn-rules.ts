/**
 * Turn restrictions of the pack for one travel mode, as fast lookups.
 * `no_*` forbids one (from edge, to edge) pair at a via node; `only_*` forbids
 * every other exit of the from edge at that node. Via-way restrictions (a
 * chain of edges) need the path's history, which an edge-based search does
 * not keep; they are counted in `unenforcedViaWay` and documented.
 */
import { NO_INDEX } from '../../../datapack/pack-layout.js';
import type { MapPack } from '../../../datapack/map-pack.js';

export interface TurnRules {
  /** Whether turning from `fromEdge` into `toEdge` (at fromEdge's target) is allowed. */
  allows(fromEdge: number, toEdge: number): boolean;
  readonly unenforcedViaWay: number;
}

export function turnRulesFor(pack: MapPack, mode: number): TurnRules {
  const s = pack.sections;
  const edgeCount = pack.edgeCount;
  const forbidden = new Set<number>();
  const only = new Map<number, Set<number>>();
  let unenforcedViaWay = 0;
  for (let r = 0; r < s['restrictions.kind'].length; r++) {
    if (!(s['restrictions.modes'][r]! & mode)) continue;
    const from = s['restrictions.fromEdge'][r]!;
    const to = s['restrictions.toEdge'][r]!;
    if (s['restrictions.viaNode'][r] === NO_INDEX) {
      unenforcedViaWay++;
      continue;
    }
    if (s['restrictions.kind'][r] === 0) forbidden.add(from * edgeCount + to);
    else {
      const allowed = only.get(from) ?? new Set<number>();
      allowed.add(to);
      only.set(from, allowed);
    }
  }
  return {
    unenforcedViaWay,
    allows(fromEdge, toEdge) {
      if (forbidden.size && forbidden.has(fromEdge * edgeCount + toEdge)) return false;
      const allowed = only.size ? only.get(fromEdge) : undefined;
      return !allowed || allowed.has(toEdge);
    },
  };
}
