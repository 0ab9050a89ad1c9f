/** A pack's inventory: counts per section and layer, bbox, source and quality figures. */
import { SECTION_CONSTRUCTORS, type PackHeader } from './pack-layout.js';

export interface PackDescription {
  path: string;
  version: number;
  createdAt: string;
  source: PackHeader['source'];
  adminSources: PackHeader['adminSources'];
  attribution: string;
  bbox: [number, number, number, number] | null;
  counts: Record<string, number>;
  layers: Record<string, number>;
  stats: Record<string, number>;
  sections: { name: string; elements: number; bytes: number }[];
  text: string;
}

/** Describes a pack from its header alone (the sections' sizes are in its directory). */
export function describePack(header: PackHeader, path: string): PackDescription {
  const sections = header.sections.map((entry) => ({
    name: entry.name,
    elements: entry.length,
    bytes: entry.length * SECTION_CONSTRUCTORS[entry.type].BYTES_PER_ELEMENT,
  }));
  const layers = Object.fromEntries(Object.entries(header.layers).map(([layer, [, count]]) => [layer, count]));
  const lines = [
    `pack      ${path}`,
    `format    svc-map-pack v${header.version}, built ${header.createdAt}`,
    `source    ${header.source.name} (${header.source.format}, ${header.source.bytes} bytes, sha256 ${header.source.sha256.slice(0, 12)}…)`,
    ...header.adminSources.map((source) => `admin     ${source.name}`),
    `bbox      ${header.bbox ? header.bbox.map((value) => value.toFixed(5)).join(', ') : '(empty)'}`,
    `data      ${header.attribution}`,
    '',
    'graph',
    `  nodes ${header.counts.nodes}, edges ${header.counts.edges}, ways ${header.counts.ways}, shape points ${header.counts.shapePoints}, turn restrictions ${header.counts.restrictions}`,
    `  largest component ${(100 * (header.stats.largestComponentShare ?? 0)).toFixed(1)}% of nodes (car: ${(100 * (header.stats.carLargestComponentShare ?? 0)).toFixed(1)}%), truck-tagged ways ${header.stats.truckTaggedWays}`,
    'features',
    ...Object.entries(layers).map(([layer, count]) => `  ${layer.padEnd(15)} ${count}`),
    'sections',
    ...sections.map((section) => `  ${section.name.padEnd(28)} ${String(section.elements).padStart(9)} × ${String(section.bytes).padStart(10)} bytes`),
  ];
  return {
    path,
    version: header.version,
    createdAt: header.createdAt,
    source: header.source,
    adminSources: header.adminSources,
    attribution: header.attribution,
    bbox: header.bbox,
    counts: header.counts,
    layers,
    stats: header.stats,
    sections,
    text: lines.join('\n'),
  };
}
