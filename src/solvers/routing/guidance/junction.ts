/**
 * What a traveller sees at the node between two consecutive edges of a leg:
 * the turn degree from the incoming to the outgoing edge, and the other roads
 * leaving the node that the travel mode could have taken (each with its turn
 * degree, class and flags). Maneuver classification works on these.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { EdgeFlag, NO_INDEX } from '../../../datapack/pack-layout.js';
import { bearingAlong, bearingArriving, deviationFromStraight, turnDegree } from './geometry.js';

export interface JunctionBranch {
  edge: number;
  /** Turn degree from the incoming edge (0 straight, 90 right, 270 left). */
  degree: number;
  /** 0..180 away from straight on. */
  deviation: number;
  roadClass: number;
  flags: number;
}

export interface Junction {
  node: number;
  /** Bearing arriving at the node on the incoming edge. */
  inBearing: number;
  /** Bearing leaving the node on the outgoing edge. */
  outBearing: number;
  /** The taken branch. */
  taken: JunctionBranch;
  /** The other branches the mode could have taken (not the taken one, not straight back). */
  alternatives: JunctionBranch[];
}

/** Arriving and leaving bearings per edge of a pack, NaN until first asked for. */
interface EdgeBearingMemo {
  arriving: Float32Array;
  leaving: Float32Array;
}

/**
 * Bearings are a pure function of the (immutable) pack, and walking shapes for them was most of
 * guidance's time, so every trip of a worker shares one memo per pack. Keyed weakly: a pack that is
 * no longer used takes its memo with it.
 */
const bearingMemos = new WeakMap<MapPack, EdgeBearingMemo>();

function bearingMemo(pack: MapPack): EdgeBearingMemo {
  let memo = bearingMemos.get(pack);
  if (!memo) {
    memo = { arriving: new Float32Array(pack.edgeCount).fill(Number.NaN), leaving: new Float32Array(pack.edgeCount).fill(Number.NaN) };
    bearingMemos.set(pack, memo);
  }
  return memo;
}

export class JunctionReader {
  private readonly memo: EdgeBearingMemo;

  constructor(
    readonly pack: MapPack,
    readonly modeBit: number,
  ) {
    this.memo = bearingMemo(pack);
  }

  /** Bearing arriving at the end of an edge. */
  inBearing(edge: number): number {
    let bearing = this.memo.arriving[edge]!;
    if (Number.isNaN(bearing)) {
      bearing = bearingArriving(this.pack.edgeShape(edge)) ?? 0;
      this.memo.arriving[edge] = bearing;
    }
    return bearing;
  }

  /** Bearing leaving the start of an edge. */
  outBearing(edge: number): number {
    let bearing = this.memo.leaving[edge]!;
    if (Number.isNaN(bearing)) {
      bearing = bearingAlong(this.pack.edgeShape(edge)) ?? 0;
      this.memo.leaving[edge] = bearing;
    }
    return bearing;
  }

  private branch(inBearing: number, edge: number): JunctionBranch {
    const s = this.pack.sections;
    const degree = turnDegree(inBearing, this.outBearing(edge));
    return { edge, degree, deviation: deviationFromStraight(degree), roadClass: s['ways.class'][s['graph.edgeWay'][edge]!]!, flags: s['graph.edgeFlags'][edge]! };
  }

  /** True when the mode may travel the edge (in its direction). */
  usable(edge: number): boolean {
    return (this.pack.sections['graph.edgeAccess'][edge]! & this.modeBit) !== 0;
  }

  /** The junction between `incoming` and `outgoing` (consecutive edges of a path). */
  read(incoming: number, outgoing: number): Junction {
    const s = this.pack.sections;
    const node = s['graph.edgeTarget'][incoming]!;
    const inBearing = this.inBearing(incoming);
    const back = s['graph.edgeTwin'][incoming]!;
    const alternatives: JunctionBranch[] = [];
    if ((s['graph.nodeBlockedModes'][node]! & this.modeBit) === 0) {
      const end = s['graph.firstEdge'][node + 1]!;
      for (let edge = s['graph.firstEdge'][node]!; edge < end; edge++) {
        if (edge === outgoing || (back !== NO_INDEX && edge === back) || !this.usable(edge)) continue;
        alternatives.push(this.branch(inBearing, edge));
      }
    }
    return { node, inBearing, outBearing: this.outBearing(outgoing), taken: this.branch(inBearing, outgoing), alternatives };
  }
}

export const isRoundabout = (flags: number): boolean => (flags & EdgeFlag.roundabout) !== 0;
export const isLink = (flags: number): boolean => (flags & EdgeFlag.link) !== 0;
export const isFerry = (flags: number): boolean => (flags & EdgeFlag.ferry) !== 0;
export const isHighway = (flags: number): boolean => (flags & EdgeFlag.highway) !== 0;
