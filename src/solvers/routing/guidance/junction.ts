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

export class JunctionReader {
  private readonly bearingsIn = new Map<number, number>();
  private readonly bearingsOut = new Map<number, number>();

  constructor(
    readonly pack: MapPack,
    readonly modeBit: number,
  ) {}

  /** Bearing arriving at the end of an edge. */
  inBearing(edge: number): number {
    let bearing = this.bearingsIn.get(edge);
    if (bearing === undefined) {
      bearing = bearingArriving(this.pack.edgeShape(edge)) ?? 0;
      this.bearingsIn.set(edge, bearing);
    }
    return bearing;
  }

  /** Bearing leaving the start of an edge. */
  outBearing(edge: number): number {
    let bearing = this.bearingsOut.get(edge);
    if (bearing === undefined) {
      bearing = bearingAlong(this.pack.edgeShape(edge)) ?? 0;
      this.bearingsOut.set(edge, bearing);
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
