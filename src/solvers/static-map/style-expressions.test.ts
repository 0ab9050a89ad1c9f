/**
 * The renderer's expression closures against the style specification's own evaluator, over every
 * layer of every style the static maps draw: filters, paint and layout values for features of every
 * layer and class our tiles carry, at fractional and whole zooms.
 */
import { Color, createPropertyExpression, expression, featureFilter, Formatted, latest, type FilterSpecification, type StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { buildStyle } from '../../services/tiles/map-styles/style-document.js';
import { STYLE_NAMES } from '../../services/tiles/map-styles/style-catalogue.js';
import { compileStyle } from './compiled-style.js';

const context = { apiBase: 'http://x/api/v1', versions: { vectorTiles: 'v', glyphs: 'g', sprite: 's', raster: 'r' }, center: [31.34, 30.06] as const, bounds: undefined, imagery: undefined, elevation: undefined };
const ZOOMS = [3, 9.5, 12, 15.7, 16.2, 21];
const GEOMETRIES = [
  { type: 1 as const, name: 'Point' },
  { type: 2 as const, name: 'LineString' },
  { type: 3 as const, name: 'Polygon' },
];
const CLASSES = ['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'minor', 'service', 'path', 'rail', 'transit', 'ferry', 'grass', 'wood', 'residential', 'school', 'park', 'river', 'stream', 'lake', 'city', 'suburb', 'neighbourhood', 'runway', 'aerodrome', 'pier', 'country'];
const PROPERTY_SETS: Record<string, unknown>[] = [
  {},
  ...CLASSES.map((value) => ({ class: value })),
  { class: 'primary', brunnel: 'bridge', name: 'شارع عباس العقاد', 'name:en': 'Abbas El Akkad', ref: '12', ref_length: 2 },
  { class: 'minor', brunnel: 'tunnel', name: 'x', 'name:ar': 'س' },
  { class: 'river', intermittent: 1, name: 'وادي' },
  { class: 'lake', intermittent: 0 },
  { admin_level: 2, disputed: 1 },
  { admin_level: 2, maritime: 1 },
  { admin_level: 4 },
  { admin_level: 8 },
  { class: 'city', capital: 2, name: 'عمّان', rank: 1 },
  { housenumber: 14 },
  { render_height: 12, render_min_height: 3 },
  { height: 9, hide_3d: true },
];

function expected(value: unknown): unknown {
  if (value instanceof Color) return [value.r, value.g, value.b, value.a].map((channel) => Math.round(channel * 1000) / 1000);
  if (value instanceof Formatted) return value.toString();
  return value;
}

function ours(value: unknown, type: string | undefined): unknown {
  if (type === 'color' && typeof value === 'string') return expected(Color.parse(value));
  // the renderer reads a missing label as no label, as the specification's empty Formatted
  if (type === 'formatted' && value === null) return '';
  return value;
}

function same(mine: unknown, theirs: unknown): boolean {
  if (typeof theirs === 'number') return typeof mine === 'number' && Math.abs(mine - theirs) < 1e-6;
  return JSON.stringify(mine) === JSON.stringify(theirs);
}

describe('style expressions', () => {
  // the specification warns on console for a comparison with a missing field (it answers false, as we do)
  beforeAll(() => void vi.spyOn(console, 'warn').mockImplementation(() => {}));

  for (const style of STYLE_NAMES) {
    it(`evaluate every layer of ${style} as the style specification does`, () => {
      const document = buildStyle({ style, name: undefined, languages: ['ar', 'en'], authenticated: true, terrain: false }, context);
      const compiled = compileStyle(document.layers);
      expect(compiled.skipped.filter((skip) => !/raster layers are not drawn/.test(skip.reason))).toEqual([]);
      let compared = 0;
      const mismatches: string[] = [];
      for (const layer of compiled.layers) {
        const source = document.layers.find((entry) => entry.id === layer.id)!;
        const filter = source.filter === undefined ? undefined : featureFilter(source.filter as FilterSpecification, 'filter');
        const properties = (['paint', 'layout'] as const).flatMap((kind) =>
          Object.entries((source[kind] ?? {}) as Record<string, unknown>).map(([name, value]) => {
            const specification = (latest as unknown as Record<string, Record<string, StylePropertySpecification>>)[`${kind}_${source.type}`]![name]!;
            if (!expression.isExpression(value)) return { kind, name, specification, reference: () => expected(specification.type === 'color' ? Color.parse(value as string) : value) };
            const parsed = createPropertyExpression(value, kind, specification);
            if (parsed.result !== 'success') throw new Error(`${layer.id} ${name}: ${JSON.stringify(parsed.value)}`);
            const evaluator = parsed.value;
            return { kind, name, specification, reference: (zoom: number, feature: { type: 1 | 2 | 3; properties: Record<string, unknown>; geometry: [] }) => expected(evaluator.evaluate({ zoom }, feature)) };
          }),
        );
        for (const zoom of ZOOMS) {
          for (const geometry of GEOMETRIES) {
            for (const fields of PROPERTY_SETS) {
              const feature = { type: geometry.type, properties: fields, geometry: [] as [] };
              const evaluation = { zoom, properties: fields, geometryType: geometry.name };
              if (filter && (layer.filter!(evaluation) === true) !== filter.filter({ zoom }, feature)) mismatches.push(`${layer.id} filter ${JSON.stringify([zoom, geometry.name, fields])}`);
              for (const { kind, name, specification, reference } of properties) {
                const theirs = reference(zoom, feature);
                const mine = ours(layer[kind].get(name)!(evaluation), specification.type);
                if (!same(mine, theirs)) mismatches.push(`${layer.id} ${name} ${JSON.stringify([zoom, geometry.name, fields, mine, theirs])}`);
                compared++;
              }
            }
          }
        }
      }
      expect(mismatches.slice(0, 10)).toEqual([]);
      expect(compared).toBeGreaterThan(10_000);
    });
  }
});
