/**
 * Administrative areas from GeoJSON files (`--admin FILE.geojson[@LEVEL]`),
 * such as Jordan's governorates, districts and sub-districts. Names come from
 * the common property spellings (name, name_ar, name_en, …). The admin level
 * comes from `@LEVEL`, an `admin_level` property, or else from the file's rank
 * by size: of the files without a level, the one with the largest median area is
 * level 4, the next 5, and so on (governorates, districts, sub-districts).
 * Nesting tests cannot tell these apart: a district with one sub-district has
 * the very same polygon.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { Feature, MultiPolygon, Polygon } from 'geojson';
import type { PackSourceInfo } from '../datapack/pack-layout.js';
import { IngestError } from './ingest-error.js';

export interface AdminArea {
  /** Outer and inner rings as [lon, lat]; `inner[i]` says whether ring i is a hole. */
  rings: [number, number][][];
  inner: boolean[];
  tags: Record<string, string>;
  point: [number, number];
  level: number | undefined;
  feature: Feature<Polygon | MultiPolygon>;
}

const NAME_PROPERTIES: [string, string[]][] = [
  ['name', ['name', 'NAME']],
  ['name:ar', ['name:ar', 'name_ar', 'NAME_AR']],
  ['name:en', ['name:en', 'name_en', 'NAME_EN']],
  ['alt_name', ['alt_name', 'alt_name_e']],
  ['official_name', ['official_name', 'official_n']],
  ['wikidata', ['wikidata']],
];

export function parseAdminArgument(argument: string): { path: string; level: number | undefined } {
  const match = /^(.*)@(\d{1,2})$/.exec(argument);
  if (!match) return { path: argument, level: undefined };
  return { path: match[1]!, level: Number(match[2]) };
}

export async function loadAdminAreas(inputs: { path: string; level: number | undefined }[]): Promise<{ areas: AdminArea[]; sources: PackSourceInfo[] }> {
  if (!inputs.length) return { areas: [], sources: [] };
  // turf is large; load it only when admin files are given
  const { area: areaOf, pointOnFeature } = await import('@turf/turf');
  const areas: AdminArea[] = [];
  const sources: PackSourceInfo[] = [];
  const unlevelled: { areas: AdminArea[]; medianArea: number }[] = [];
  for (const input of inputs) {
    const fileAreas: AdminArea[] = [];
    let text: Buffer;
    try {
      text = readFileSync(input.path);
    } catch {
      throw new IngestError('file_not_found', `${input.path}: no such admin areas file`);
    }
    let document: { type?: string; features?: Feature[] };
    try {
      document = JSON.parse(text.toString('utf8'));
    } catch {
      throw new IngestError('invalid_argument', `${input.path}: not a GeoJSON file (it does not parse as JSON)`);
    }
    if (document.type !== 'FeatureCollection' || !Array.isArray(document.features)) {
      throw new IngestError('invalid_argument', `${input.path}: expected a GeoJSON FeatureCollection of (Multi)Polygons`);
    }
    sources.push({ name: basename(input.path), format: 'geojson', bytes: text.length, sha256: createHash('sha256').update(text).digest('hex') });
    for (const feature of document.features) {
      const geometry = feature.geometry;
      if (!geometry || (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon')) continue;
      const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
      const rings: [number, number][][] = [];
      const inner: boolean[] = [];
      for (const polygon of polygons) {
        polygon.forEach((ring, position) => {
          rings.push(ring.map((coordinate) => [coordinate[0]!, coordinate[1]!] as [number, number]));
          inner.push(position > 0);
        });
      }
      const properties = (feature.properties ?? {}) as Record<string, unknown>;
      const tags = adminTags(properties);
      if (!tags.name && !tags['name:en']) continue;
      const typed = feature as Feature<Polygon | MultiPolygon>;
      const point = pointOnFeature(typed).geometry.coordinates as [number, number];
      const propertyLevel = Number(properties.admin_level);
      fileAreas.push({ rings, inner, tags, point, level: input.level ?? (Number.isInteger(propertyLevel) ? propertyLevel : undefined), feature: typed });
    }
    areas.push(...fileAreas);
    const withoutLevel = fileAreas.filter((area) => area.level === undefined);
    if (withoutLevel.length) {
      const sizes = withoutLevel.map((area) => areaOf(area.feature)).sort((a, b) => a - b);
      unlevelled.push({ areas: withoutLevel, medianArea: sizes[sizes.length >> 1]! });
    }
  }
  unlevelled.sort((a, b) => b.medianArea - a.medianArea);
  unlevelled.forEach((file, rank) => file.areas.forEach((area) => (area.level = 4 + rank)));
  for (const area of areas) {
    area.tags.boundary = 'administrative';
    area.tags.admin_level = String(area.level);
  }
  return { areas, sources };
}

function adminTags(properties: Record<string, unknown>): Record<string, string> {
  const tags: Record<string, string> = {};
  for (const [tag, candidates] of NAME_PROPERTIES) {
    for (const key of candidates) {
      const value = properties[key];
      if (typeof value === 'string' && value.trim()) {
        tags[tag] = value.trim();
        break;
      }
    }
  }
  if (!tags.name && tags['name:ar']) tags.name = tags['name:ar'];
  if (!tags['name:ar'] && tags.name && /[\u0600-\u06FF]/.test(tags.name)) tags['name:ar'] = tags.name;
  for (const [key, value] of Object.entries(properties)) {
    if (/population/i.test(key) && typeof value === 'number' && Number.isFinite(value)) tags.population = String(value);
  }
  return tags;
}
