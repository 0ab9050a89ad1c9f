/**
 * The map self-audit behind GET /map/readiness: boolean checks over the loaded
 * pack plus a summary of its counts. Later capabilities (tiles, geocoding
 * index, transit) add their own checks here.
 */
import type { MapPack } from '../../datapack/map-pack.js';

export interface MapReadiness {
  ready: boolean;
  checks: Record<string, boolean>;
  summary: {
    dataset: { source: string; format: string; builtAt: string; packVersion: number; bbox: [number, number, number, number] | null };
    graph: { nodes: number; edges: number; ways: number; turnRestrictions: number; largestComponentShare: number };
    layers: Record<string, number>;
  };
  attribution: string;
}

/** Share of road ways carrying an Arabic name (name:ar, or an Arabic-script name). */
function arabicNamedShare(pack: MapPack): number {
  const names = pack.sections['ways.name'];
  const arabic = pack.sections['ways.nameAr'];
  let named = 0;
  let withArabic = 0;
  for (let way = 0; way < names.length; way++) {
    if (!names[way] && !arabic[way]) continue;
    named++;
    if (arabic[way] || /[\u0600-\u06FF]/.test(pack.strings.get(names[way]!))) withArabic++;
  }
  return named ? withArabic / named : 0;
}

export function mapReadiness(pack: MapPack): MapReadiness {
  const { header } = pack;
  const layers = Object.fromEntries(Object.entries(header.layers).map(([layer, [, count]]) => [layer, count]));
  const largestComponentShare = Number((header.stats.largestComponentShare ?? 0).toFixed(4));
  const checks = {
    roadGraphLoaded: pack.edgeCount > 0,
    roadGraphConnected: largestComponentShare >= 0.9,
    roadNamesPresent: pack.sections['ways.name'].some((id) => id !== 0),
    arabicRoadNames: arabicNamedShare(pack) >= 0.5,
    geocodingSources: (layers.place ?? 0) + (layers.address ?? 0) + (layers.admin_area ?? 0) > 0,
    placeCatalogueSeeds: (layers.poi ?? 0) > 0,
    tileLayers: (layers.building ?? 0) + (layers.landuse ?? 0) + (layers.water ?? 0) + (layers.park ?? 0) > 0,
    attributionPresent: header.attribution.includes('OpenStreetMap'),
  };
  return {
    ready: checks.roadGraphLoaded && checks.roadGraphConnected && checks.attributionPresent,
    checks,
    summary: {
      dataset: { source: header.source.name, format: header.source.format, builtAt: header.createdAt, packVersion: header.version, bbox: header.bbox },
      graph: { nodes: pack.nodeCount, edges: pack.edgeCount, ways: header.counts.ways ?? 0, turnRestrictions: header.counts.restrictions ?? 0, largestComponentShare },
      layers,
    },
    attribution: header.attribution,
  };
}
