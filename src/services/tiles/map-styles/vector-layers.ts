/**
 * The vector layers of every style, written for the OpenMapTiles schema the `svc` source serves
 * (layers water, waterway, landcover, landuse, park, boundary, aeroway, transportation,
 * transportation_name, building, water_name, place, housenumber; OpenMapTiles class values).
 *
 * One list, 108 layers, bottom to top. Each entry says whether the hybrid styles keep it: the
 * satellite style draws the 73 hybrid layers (roads, boundaries, labels) over imagery, the terrain
 * style all 108 over shaded relief (part 2 §4.7 rule 2 fixes both counts; style-document.test.ts
 * holds them). The 3d style swaps the flat building fill for the `svc-3d-buildings` extrusion.
 */
import { ROAD_GROUPS, type Palette, type RoadGroup } from './palettes.js';

/** A style-spec layer, loosely typed: the style-spec validator checks the documents in tests. */
export type StyleLayer = { id: string; type: string } & Record<string, unknown>;
type Expression = readonly unknown[];

interface TaggedLayer {
  layer: StyleLayer;
  /** Kept by the satellite hybrid. */
  hybrid: boolean;
}

export interface LabelOptions {
  /** Fonts of regular labels (first font that has a glyph wins). */
  regularFont: readonly string[];
  boldFont: readonly string[];
  /** The label text: names in the caller's language first, then the fallbacks. */
  name: Expression;
}

export const SOURCE_ID = 'svc';
/** Zoom from which flat building footprints show (part 2 §4.7 rule 4: about 15.5). */
export const BUILDING_MIN_ZOOM = 15.5;
export const BUILDING_LAYER_ID = 'building';

/** `["coalesce", name:<l1>, name:<l2>, …, name, name:en, name:ar]`: the label text for a language preference. */
export function nameExpression(languages: readonly string[]): Expression {
  const keys: string[] = [];
  for (const language of languages) keys.push(`name:${language}`);
  keys.push('name', 'name:en', 'name:ar');
  const unique = [...new Set(keys)];
  return ['coalesce', ...unique.map((key) => ['get', key])];
}

const classIn = (...classes: string[]): Expression => ['match', ['get', 'class'], classes, true, false];
const isLine: Expression = ['match', ['geometry-type'], ['LineString', 'MultiLineString'], true, false];
const isPolygon: Expression = ['match', ['geometry-type'], ['Polygon', 'MultiPolygon'], true, false];
const isPoint: Expression = ['match', ['geometry-type'], ['Point', 'MultiPoint'], true, false];
const brunnelIs = (value: 'tunnel' | 'bridge'): Expression => ['==', ['coalesce', ['get', 'brunnel'], ''], value];
const onGround: Expression = ['match', ['coalesce', ['get', 'brunnel'], ''], ['tunnel', 'bridge'], false, true];

/** Line width by zoom, exponential base 1.4. */
const widthByZoom = (stops: readonly (readonly [number, number])[]): Expression => ['interpolate', ['exponential', 1.4], ['zoom'], ...stops.flat()];

/** The OpenMapTiles transportation classes drawn in each road group. */
const ROAD_CLASSES: Record<RoadGroup, string[]> = {
  motorway: ['motorway'],
  trunk: ['trunk'],
  primary: ['primary'],
  secondary: ['secondary'],
  tertiary: ['tertiary'],
  minor: ['minor', 'busway', 'bus_guideway'],
  service: ['service', 'track', 'raceway'],
};

/** Fill widths in pixels by zoom; casings are wider by the same profile. */
const ROAD_WIDTH: Record<RoadGroup, (readonly [number, number])[]> = {
  motorway: [[5, 0.6], [10, 2], [14, 6], [18, 24], [20, 48]],
  trunk: [[6, 0.5], [10, 1.6], [14, 5], [18, 22], [20, 44]],
  primary: [[8, 0.5], [10, 1.2], [14, 4.2], [18, 20], [20, 40]],
  secondary: [[9, 0.5], [11, 1], [14, 3.6], [18, 17], [20, 34]],
  tertiary: [[10, 0.4], [12, 0.9], [14, 3], [18, 15], [20, 30]],
  minor: [[12, 0.4], [14, 1.8], [18, 11], [20, 22]],
  service: [[13, 0.3], [15, 1], [18, 6], [20, 12]],
};
const ROAD_MIN_ZOOM: Record<RoadGroup, number> = { motorway: 4, trunk: 5, primary: 7, secondary: 9, tertiary: 10, minor: 12, service: 13 };

function casingWidth(stops: (readonly [number, number])[]): (readonly [number, number])[] {
  return stops.map(([zoom, width]) => [zoom, width * 1.35 + (zoom >= 12 ? 1.5 : 0.5)] as const);
}

function fillLayer(id: string, sourceLayer: string, filter: Expression, color: string, opacity: number, extra: Record<string, unknown> = {}): StyleLayer {
  return { id, type: 'fill', source: SOURCE_ID, 'source-layer': sourceLayer, filter, paint: { 'fill-color': color, 'fill-opacity': opacity, ...extra } };
}

function roadLayers(palette: Palette, brunnel: 'tunnel' | 'ground' | 'bridge'): TaggedLayer[] {
  const where = brunnel === 'ground' ? onGround : brunnelIs(brunnel);
  const prefix = brunnel === 'ground' ? 'road' : brunnel;
  const opacity = brunnel === 'tunnel' ? palette.tunnelOpacity : 1;
  const casings: TaggedLayer[] = [];
  const fills: TaggedLayer[] = [];
  // casings under all fills, smallest roads first, so a junction shows the larger road on top
  for (const group of [...ROAD_GROUPS].reverse()) {
    const filter = ['all', isLine, where, classIn(...ROAD_CLASSES[group])];
    const base = { type: 'line', source: SOURCE_ID, 'source-layer': 'transportation', minzoom: ROAD_MIN_ZOOM[group], filter };
    casings.push({
      hybrid: true,
      layer: {
        id: `${prefix}-${group}-casing`,
        ...base,
        layout: { 'line-cap': brunnel === 'ground' ? 'round' : 'butt', 'line-join': 'round' },
        paint: {
          'line-color': palette.roads[group].casing,
          'line-width': widthByZoom(casingWidth(ROAD_WIDTH[group])),
          'line-opacity': opacity,
          ...(brunnel === 'tunnel' ? { 'line-dasharray': [0.5, 0.25] } : {}),
        },
      },
    });
    fills.push({
      hybrid: true,
      layer: {
        id: `${prefix}-${group}`,
        ...base,
        layout: { 'line-cap': 'round', 'line-join': 'round' },
        paint: { 'line-color': palette.roads[group].fill, 'line-width': widthByZoom(ROAD_WIDTH[group]), 'line-opacity': opacity },
      },
    });
  }
  const path: TaggedLayer = {
    hybrid: true,
    layer: {
      id: `${prefix}-path`,
      type: 'line',
      source: SOURCE_ID,
      'source-layer': 'transportation',
      minzoom: 14,
      filter: ['all', isLine, where, classIn('path')],
      paint: { 'line-color': palette.path, 'line-width': widthByZoom([[14, 0.8], [18, 2.5], [20, 4]]), 'line-dasharray': [2, 1], 'line-opacity': opacity },
    },
  };
  return [...casings, ...fills, path];
}

function labelLayer(id: string, sourceLayer: string, filter: Expression, options: LabelOptions, palette: Palette, settings: { minzoom?: number; maxzoom?: number; size: Expression | number; color: string; bold?: boolean; line?: boolean; text?: Expression; extraLayout?: Record<string, unknown> }): StyleLayer {
  return {
    id,
    type: 'symbol',
    source: SOURCE_ID,
    'source-layer': sourceLayer,
    ...(settings.minzoom === undefined ? {} : { minzoom: settings.minzoom }),
    ...(settings.maxzoom === undefined ? {} : { maxzoom: settings.maxzoom }),
    filter,
    layout: {
      'text-field': settings.text ?? options.name,
      'text-font': settings.bold ? options.boldFont : options.regularFont,
      'text-size': settings.size,
      'text-max-width': 8,
      ...(settings.line ? { 'symbol-placement': 'line', 'text-rotation-alignment': 'map', 'symbol-spacing': 350 } : {}),
      ...settings.extraLayout,
    },
    paint: { 'text-color': settings.color, 'text-halo-color': palette.textHalo, 'text-halo-width': 1.4, 'text-halo-blur': 0.5 },
  };
}

const sizeByZoom = (stops: (readonly [number, number])[]): Expression => ['interpolate', ['linear'], ['zoom'], ...stops.flat()];

/** The 108 vector layers, bottom to top, each tagged with whether the satellite hybrid keeps it. */
export function vectorLayers(palette: Palette, labels: LabelOptions): TaggedLayer[] {
  const base = (layer: StyleLayer): TaggedLayer => ({ layer, hybrid: false });
  const hybrid = (layer: StyleLayer): TaggedLayer => ({ layer, hybrid: true });
  const o = palette.fillOpacity;
  const cover = palette.landcover;
  const use = palette.landuse;
  const layers: TaggedLayer[] = [
    // land cover (7)
    base(fillLayer('landcover-wood', 'landcover', classIn('wood'), cover.wood, o)),
    base(fillLayer('landcover-grass', 'landcover', classIn('grass'), cover.grass, o)),
    base(fillLayer('landcover-farmland', 'landcover', classIn('farmland'), cover.farmland, o)),
    base(fillLayer('landcover-sand', 'landcover', classIn('sand'), cover.sand, o)),
    base(fillLayer('landcover-wetland', 'landcover', classIn('wetland'), cover.wetland, o)),
    base(fillLayer('landcover-ice', 'landcover', classIn('ice'), cover.ice, o)),
    base(fillLayer('landcover-rock', 'landcover', classIn('rock'), cover.rock, o)),
    // land use (14)
    base(fillLayer('landuse-residential', 'landuse', classIn('residential', 'suburb', 'quarter', 'neighbourhood'), use.residential, o * 0.8)),
    base(fillLayer('landuse-commercial', 'landuse', classIn('commercial'), use.commercial, o)),
    base(fillLayer('landuse-retail', 'landuse', classIn('retail'), use.retail, o)),
    base(fillLayer('landuse-industrial', 'landuse', classIn('industrial', 'garages', 'dam'), use.industrial, o)),
    base(fillLayer('landuse-railway', 'landuse', classIn('railway', 'bus_station'), use.railway, o)),
    base(fillLayer('landuse-cemetery', 'landuse', classIn('cemetery'), use.cemetery, o)),
    base(fillLayer('landuse-hospital', 'landuse', classIn('hospital'), use.hospital, o)),
    base(fillLayer('landuse-school', 'landuse', classIn('school', 'kindergarten', 'library'), use.school, o)),
    base(fillLayer('landuse-university', 'landuse', classIn('university', 'college'), use.university, o)),
    base(fillLayer('landuse-stadium', 'landuse', classIn('stadium', 'track'), use.stadium, o)),
    base(fillLayer('landuse-pitch', 'landuse', classIn('pitch', 'playground'), use.pitch, o)),
    base(fillLayer('landuse-quarry', 'landuse', classIn('quarry'), use.quarry, o)),
    base(fillLayer('landuse-leisure', 'landuse', classIn('theme_park', 'zoo'), use.leisure, o)),
    base(fillLayer('landuse-military', 'landuse', classIn('military'), use.military, o)),
    // parks (2)
    base(fillLayer('park', 'park', isPolygon, palette.park, o)),
    base({ id: 'park-outline', type: 'line', source: SOURCE_ID, 'source-layer': 'park', minzoom: 11, filter: isPolygon, paint: { 'line-color': palette.parkOutline, 'line-width': 1, 'line-dasharray': [3, 2] } }),
    // water (7; wadis are intermittent waterways, common here)
    base(fillLayer('water', 'water', ['!=', ['get', 'intermittent'], 1], palette.water, 1, { 'fill-outline-color': palette.waterOutline })),
    base(fillLayer('water-intermittent', 'water', ['==', ['get', 'intermittent'], 1], palette.water, 0.6)),
    base(waterwayLayer('waterway-river', classIn('river'), palette, [[8, 0.8], [14, 3], [18, 12]], false)),
    base(waterwayLayer('waterway-canal', classIn('canal'), palette, [[10, 0.6], [14, 2.4], [18, 10]], false)),
    base(waterwayLayer('waterway-stream', classIn('stream', 'drain', 'ditch'), palette, [[12, 0.4], [14, 1], [18, 4]], false)),
    base(waterwayLayer('waterway-intermittent', ['==', ['get', 'intermittent'], 1], palette, [[10, 0.5], [14, 1.5], [18, 5]], false, true)),
    base(waterwayLayer('waterway-tunnel', ['==', ['get', 'brunnel'], 'tunnel'], palette, [[12, 0.4], [14, 1.5], [18, 6]], true)),
    // aeroways (4: area, apron base; runway, taxiway hybrid)
    base(fillLayer('aeroway-area', 'aeroway', ['all', isPolygon, classIn('aerodrome', 'heliport')], palette.aerodrome, o)),
    base(fillLayer('aeroway-apron', 'aeroway', ['all', isPolygon, classIn('apron', 'helipad')], palette.apron, o)),
    hybrid({ id: 'aeroway-runway', type: 'line', source: SOURCE_ID, 'source-layer': 'aeroway', minzoom: 10, filter: ['all', isLine, classIn('runway')], paint: { 'line-color': palette.runway, 'line-width': widthByZoom([[10, 1], [14, 8], [18, 60]]) } }),
    hybrid({ id: 'aeroway-taxiway', type: 'line', source: SOURCE_ID, 'source-layer': 'aeroway', minzoom: 12, filter: ['all', isLine, classIn('taxiway')], paint: { 'line-color': palette.taxiway, 'line-width': widthByZoom([[12, 0.5], [14, 2], [18, 20]]) } }),
    // pedestrian areas and piers from transportation polygons (2)
    base(fillLayer('road-area-pedestrian', 'transportation', ['all', isPolygon, classIn('path', 'minor', 'service')], palette.pedestrianArea, 1)),
    base(fillLayer('road-pier', 'transportation', ['all', isPolygon, classIn('pier')], palette.pier, 1)),
    // flat building footprints (1); the 3d style replaces it with svc-3d-buildings
    base({
      id: BUILDING_LAYER_ID,
      type: 'fill',
      source: SOURCE_ID,
      'source-layer': 'building',
      minzoom: BUILDING_MIN_ZOOM,
      paint: { 'fill-color': palette.building, 'fill-outline-color': palette.buildingOutline, 'fill-opacity': ['interpolate', ['linear'], ['zoom'], BUILDING_MIN_ZOOM, 0, 16.5, 1] },
    }),
    // roads: tunnels, ground, bridges (3 × 15)
    ...roadLayers(palette, 'tunnel'),
    ...roadLayers(palette, 'ground'),
    hybrid({ id: 'rail', type: 'line', source: SOURCE_ID, 'source-layer': 'transportation', minzoom: 11, filter: ['all', isLine, classIn('rail')], paint: { 'line-color': palette.rail, 'line-width': widthByZoom([[11, 0.6], [16, 2], [20, 3]]) } }),
    hybrid({ id: 'rail-hatch', type: 'line', source: SOURCE_ID, 'source-layer': 'transportation', minzoom: 14, filter: ['all', isLine, classIn('rail')], paint: { 'line-color': palette.railHatch, 'line-width': widthByZoom([[14, 4], [20, 10]]), 'line-dasharray': [0.2, 6] } }),
    hybrid({ id: 'transit', type: 'line', source: SOURCE_ID, 'source-layer': 'transportation', minzoom: 12, filter: ['all', isLine, classIn('transit')], paint: { 'line-color': palette.transit, 'line-width': widthByZoom([[12, 0.8], [16, 2], [20, 3]]), 'line-dasharray': [3, 1.5] } }),
    hybrid({ id: 'ferry', type: 'line', source: SOURCE_ID, 'source-layer': 'transportation', minzoom: 10, filter: ['all', isLine, classIn('ferry')], paint: { 'line-color': palette.ferry, 'line-width': 1.1, 'line-dasharray': [2, 2] } }),
    ...roadLayers(palette, 'bridge'),
    // boundaries (4)
    hybrid(boundaryLayer('boundary-other', ['all', ['>=', ['get', 'admin_level'], 5], ['!=', ['get', 'maritime'], 1]], palette.boundaryOther, [[8, 0.4], [14, 1]], [2, 2], 8)),
    hybrid(boundaryLayer('boundary-state', ['all', ['match', ['get', 'admin_level'], [3, 4], true, false], ['!=', ['get', 'maritime'], 1]], palette.boundaryState, [[3, 0.6], [10, 1.4], [14, 2]], [3, 2], 3)),
    hybrid(boundaryLayer('boundary-disputed', ['all', ['==', ['get', 'disputed'], 1], ['==', ['get', 'admin_level'], 2]], palette.boundaryCountry, [[2, 0.6], [10, 2]], [1, 2], 0)),
    hybrid(boundaryLayer('boundary-country', ['all', ['==', ['get', 'admin_level'], 2], ['!=', ['get', 'disputed'], 1], ['!=', ['get', 'maritime'], 1]], palette.boundaryCountry, [[2, 0.8], [10, 2.4], [14, 3]], undefined, 0)),
    // labels (water 3, roads 4, park 1, house numbers 1, places 9)
    hybrid(labelLayer('waterway-name', 'waterway', ['has', 'name'], labels, palette, { minzoom: 13, size: 12, color: palette.waterText, line: true })),
    hybrid(labelLayer('water-name-line', 'water_name', isLine, labels, palette, { size: 13, color: palette.waterText, line: true })),
    hybrid(labelLayer('water-name-point', 'water_name', isPoint, labels, palette, { size: sizeByZoom([[6, 11], [14, 15]]), color: palette.waterText, extraLayout: { 'text-letter-spacing': 0.1 } })),
    hybrid(labelLayer('road-name-path', 'transportation_name', classIn('path'), labels, palette, { minzoom: 16, size: 11, color: palette.roadText, line: true })),
    hybrid(labelLayer('road-name-minor', 'transportation_name', classIn('minor', 'service', 'track'), labels, palette, { minzoom: 15, size: sizeByZoom([[15, 10], [18, 13]]), color: palette.roadText, line: true })),
    hybrid(labelLayer('road-name-major', 'transportation_name', classIn('motorway', 'trunk', 'primary', 'secondary', 'tertiary'), labels, palette, { minzoom: 12, size: sizeByZoom([[12, 10], [16, 13], [18, 15]]), color: palette.roadText, line: true })),
    hybrid(labelLayer('road-shield', 'transportation_name', ['all', ['has', 'ref'], ['<=', ['coalesce', ['get', 'ref_length'], 0], 6]], labels, palette, { minzoom: 8, size: 10, color: palette.roadText, bold: true, text: ['get', 'ref'], extraLayout: { 'symbol-placement': 'line', 'symbol-spacing': 500, 'text-rotation-alignment': 'viewport' } })),
    hybrid(labelLayer('park-label', 'park', ['has', 'name'], labels, palette, { minzoom: 13, size: 11, color: palette.parkText })),
    hybrid(labelLayer('housenumber', 'housenumber', ['has', 'housenumber'], labels, palette, { minzoom: 17, size: 10, color: palette.roadText, text: ['to-string', ['get', 'housenumber']] })),
    hybrid(labelLayer('place-neighbourhood', 'place', classIn('neighbourhood', 'quarter'), labels, palette, { minzoom: 13, size: sizeByZoom([[13, 10], [16, 13]]), color: palette.text, extraLayout: { 'text-transform': 'none' } })),
    hybrid(labelLayer('place-suburb', 'place', classIn('suburb'), labels, palette, { minzoom: 11, size: sizeByZoom([[11, 11], [15, 15]]), color: palette.placeText })),
    hybrid(labelLayer('place-village', 'place', classIn('village', 'hamlet', 'isolated_dwelling'), labels, palette, { minzoom: 10, size: sizeByZoom([[10, 10], [15, 14]]), color: palette.placeText })),
    hybrid(labelLayer('place-island', 'place', classIn('island'), labels, palette, { minzoom: 9, size: 12, color: palette.placeText })),
    hybrid(labelLayer('place-town', 'place', classIn('town'), labels, palette, { minzoom: 7, size: sizeByZoom([[7, 11], [14, 17]]), color: palette.placeText })),
    hybrid(labelLayer('place-city', 'place', ['all', classIn('city'), ['!=', ['coalesce', ['get', 'capital'], 0], 2]], labels, palette, { minzoom: 4, size: sizeByZoom([[4, 12], [14, 22]]), color: palette.placeText, bold: true })),
    hybrid(labelLayer('place-capital', 'place', ['all', classIn('city'), ['==', ['get', 'capital'], 2]], labels, palette, { minzoom: 3, size: sizeByZoom([[3, 13], [14, 24]]), color: palette.placeText, bold: true, extraLayout: { 'icon-image': 'star', 'icon-size': 0.8, 'text-anchor': 'top', 'text-offset': [0, 0.6], 'icon-optional': true } })),
    hybrid(labelLayer('place-state', 'place', classIn('state', 'province'), labels, palette, { minzoom: 4, maxzoom: 10, size: sizeByZoom([[4, 10], [8, 14]]), color: palette.text, extraLayout: { 'text-letter-spacing': 0.08 } })),
    hybrid(labelLayer('place-country', 'place', classIn('country'), labels, palette, { maxzoom: 9, size: sizeByZoom([[1, 10], [6, 16]]), color: palette.placeText, bold: true })),
  ];
  return layers;
}

function waterwayLayer(id: string, filter: Expression, palette: Palette, widths: (readonly [number, number])[], tunnel: boolean, intermittent = false): StyleLayer {
  const notTunnel: Expression = ['!=', ['coalesce', ['get', 'brunnel'], ''], 'tunnel'];
  const intermittentIs: Expression = intermittent ? ['==', ['get', 'intermittent'], 1] : ['!=', ['get', 'intermittent'], 1];
  return {
    id,
    type: 'line',
    source: SOURCE_ID,
    'source-layer': 'waterway',
    filter: tunnel ? filter : ['all', filter, notTunnel, intermittentIs],
    layout: { 'line-cap': 'round', 'line-join': 'round' },
    paint: {
      'line-color': palette.waterway,
      'line-width': widthByZoom(widths),
      ...(tunnel || intermittent ? { 'line-dasharray': intermittent ? [4, 2] : [3, 3], 'line-opacity': 0.6 } : {}),
    },
  };
}

function boundaryLayer(id: string, filter: Expression, color: string, widths: (readonly [number, number])[], dash: number[] | undefined, minzoom: number): StyleLayer {
  return {
    id,
    type: 'line',
    source: SOURCE_ID,
    'source-layer': 'boundary',
    minzoom,
    filter,
    layout: { 'line-join': 'round' },
    paint: { 'line-color': color, 'line-width': widthByZoom(widths), ...(dash ? { 'line-dasharray': dash } : {}) },
  };
}

/** The 3d style's extrusion (part 2 §4.7 rule 4): heights from render_height then height (6), bases from render_min_height then min_height (0). */
export function buildingExtrusionLayer(palette: Palette): StyleLayer {
  return {
    id: 'svc-3d-buildings',
    type: 'fill-extrusion',
    source: SOURCE_ID,
    'source-layer': 'building',
    minzoom: 14,
    filter: ['!=', ['coalesce', ['get', 'hide_3d'], false], true],
    paint: {
      'fill-extrusion-color': palette.building,
      'fill-extrusion-height': ['coalesce', ['get', 'render_height'], ['get', 'height'], 6],
      'fill-extrusion-base': ['coalesce', ['get', 'render_min_height'], ['get', 'min_height'], 0],
      'fill-extrusion-opacity': 0.85,
    },
  };
}
