/**
 * Legal speed limits along a leg (for `includeAttributes`' `routeSpeedLimits`
 * and `POST /routing/route-attributes`): consecutive edges with the same
 * tagged `maxspeed` merged into one stretch, over the leg's shape indexes.
 * A limit is only what the way is tagged with; class default speeds are not
 * limits, so untagged stretches say null.
 */
import type { MapPack } from '../../../datapack/map-pack.js';
import type { LegPath } from '../leg-path.js';
import { buildLegGeometry } from './leg-geometry.js';
import { wayName, type NarrativeLanguage } from './street-names.js';

export interface SpeedLimitStretch {
  beginShapeIndex: number;
  endShapeIndex: number;
  lengthMeters: number;
  /** km/h, null when the road carries no maxspeed tag. */
  speedLimitKph: number | null;
  /** The road's name at the stretch's start, in the language ('' when unnamed). */
  roadName: string;
}

export function legSpeedLimits(pack: MapPack, leg: LegPath, language: NarrativeLanguage = 'en'): SpeedLimitStretch[] {
  const s = pack.sections;
  const geometry = buildLegGeometry(pack, leg);
  const stretches: SpeedLimitStretch[] = [];
  leg.edges.forEach((edge, index) => {
    const way = s['graph.edgeWay'][edge]!;
    const limit = s['ways.maxspeed'][way]! || null;
    const last = stretches[stretches.length - 1];
    if (last && last.speedLimitKph === limit) {
      last.endShapeIndex = geometry.edgeEnd[index]!;
      last.lengthMeters += leg.edgeMeters[index]!;
      return;
    }
    stretches.push({
      beginShapeIndex: geometry.edgeBegin[index]!,
      endShapeIndex: geometry.edgeEnd[index]!,
      lengthMeters: leg.edgeMeters[index]!,
      speedLimitKph: limit,
      roadName: wayName(pack, way, language),
    });
  });
  for (const stretch of stretches) stretch.lengthMeters = Math.round(stretch.lengthMeters * 10) / 10;
  return stretches;
}
