/**
 * Turns a searched edge sequence into a LegPath: the travelled share of the
 * first and last edge, seconds and metres per edge, and the turn seconds.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import { findArc, type EdgeGraph } from './edge-graph.js';
import type { LegPath, SnappedLocation } from './leg-path.js';
import type { GuidanceLeg } from './guidance/index.js';

/** The leg with the search's costs per edge and turn (guidance reports them as maneuver `cost`). */
export function buildLegPath(pack: MapPack, graph: EdgeGraph, edges: number[], origin: SnappedLocation, destination: SnappedLocation): GuidanceLeg {
  const length = pack.sections['graph.edgeLength'];
  const seconds = graph.costs.seconds;
  const edgeSeconds: number[] = [];
  const edgeMeters: number[] = [];
  const turnSeconds: number[] = [];
  const edgeCost: number[] = [];
  const turnCost: number[] = [];
  const weight = graph.costs.weight;
  const last = edges.length - 1;
  for (let index = 0; index <= last; index++) {
    const edge = edges[index]!;
    let share = 1;
    if (last === 0) share = Math.max(0, destination.fraction - origin.fraction);
    else if (index === 0) share = 1 - origin.fraction;
    else if (index === last) share = destination.fraction;
    edgeSeconds.push(seconds[edge]! * share);
    edgeMeters.push(length[edge]! * share);
    edgeCost.push(weight[edge]! * share);
    const arc = index === 0 ? -1 : findArc(graph, edges[index - 1]!, edge);
    turnSeconds.push(arc >= 0 ? graph.arcTurnSeconds[arc]! : 0);
    turnCost.push(arc >= 0 ? graph.arcWeight[arc]! - weight[edge]! : 0);
  }
  return { edges, edgeSeconds, turnSeconds, edgeMeters, edgeCost, turnCost, origin, destination };
}

export function legSeconds(leg: LegPath): number {
  let total = 0;
  for (let index = 0; index < leg.edges.length; index++) total += leg.edgeSeconds[index]! + leg.turnSeconds[index]!;
  return total;
}

export function legMeters(leg: LegPath): number {
  let total = 0;
  for (const meters of leg.edgeMeters) total += meters;
  return total;
}
