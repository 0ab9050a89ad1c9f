/**
 * Lane guidance from OSM `turn:lanes` on the road approaching a maneuver, in the
 * spec's shape `{ roadName, laneCount, lanes: [{ indications, valid }] }`
 * (lanes from left to right as tagged; `valid` marks the lanes that lead
 * where the maneuver goes).
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import { EdgeFlag } from '../../../datapack/pack-layout.js';
import { ManeuverType as T } from './maneuver-types.js';
import type { LaneInfo } from '../../../domain/navigation-route.js';

/** The indications a maneuver type may use (OSM turn:lanes values). */
function indicationsFor(type: number): Set<string> {
  if ([T.right, T.sharpRight].includes(type as never)) return new Set(['right', 'sharp_right', 'slight_right']);
  if ([T.left, T.sharpLeft].includes(type as never)) return new Set(['left', 'sharp_left', 'slight_left']);
  if ([T.slightRight, T.rampRight, T.exitRight, T.stayRight, T.mergeRight].includes(type as never)) return new Set(['slight_right', 'right', 'merge_to_right']);
  if ([T.slightLeft, T.rampLeft, T.exitLeft, T.stayLeft, T.mergeLeft].includes(type as never)) return new Set(['slight_left', 'left', 'merge_to_left']);
  if ([T.uturnLeft, T.uturnRight].includes(type as never)) return new Set(['reverse', type === T.uturnLeft ? 'left' : 'right']);
  return new Set(['through', 'none', '']);
}

/** Lanes of a `turn:lanes` value (`left|through;right|right`), with the lanes valid for a maneuver of `type` marked. */
export function parseTurnLanes(tagged: string, type: number): LaneInfo['lanes'] {
  const wanted = indicationsFor(type);
  return tagged.split('|').map((lane) => {
    const indications = lane
      .split(';')
      .map((value) => value.trim())
      .filter((value) => value.length > 0);
    const list = indications.length ? indications : ['none'];
    return { indications: list, valid: list.some((value) => wanted.has(value)) };
  });
}

/** Lanes of the approach edge for a maneuver of `type`, or undefined when the road has no `turn:lanes`. */
export function laneInfo(pack: MapPack, approachEdge: number, type: number, roadName: string): LaneInfo | undefined {
  const s = pack.sections;
  const way = s['graph.edgeWay'][approachEdge]!;
  const backward = (s['graph.edgeFlags'][approachEdge]! & EdgeFlag.reversed) !== 0;
  const tagged = pack.strings.get((backward ? s['ways.turnLanesBackward'] : s['ways.turnLanesForward'])[way]!);
  if (!tagged) return undefined;
  const lanes = parseTurnLanes(tagged, type);
  return { roadName, laneCount: lanes.length, lanes };
}
