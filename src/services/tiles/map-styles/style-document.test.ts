import { validateStyleMin, type StyleSpecification } from '@maplibre/maplibre-gl-style-spec';
import { describe, expect, it } from 'vitest';
import { STYLE_NAMES, type StyleName } from './style-catalogue.js';
import { buildStyle, type StyleContext, type StyleRequest } from './style-document.js';

const context: StyleContext = {
  apiBase: 'http://localhost:8080/api/v1',
  versions: { vectorTiles: 'vt1', glyphs: 'g1', sprite: 's1', raster: 'r1' },
  center: [31.34, 30.06],
  bounds: [31.28, 30.02, 31.4, 30.1],
  imagery: undefined,
  elevation: undefined,
};
const request = (style: StyleName, extra: Partial<StyleRequest> = {}): StyleRequest => ({ style, name: undefined, languages: ['ar', 'en'], authenticated: true, terrain: false, ...extra });

const vectorLayers = (style: ReturnType<typeof buildStyle>) => style.layers.filter((layer) => layer.source === 'svc');

describe('style documents (part 2 §4.7)', () => {
  it.each(STYLE_NAMES.flatMap((name) => [[name, true], [name, false]] as const))('%s (authenticated %s) validates against the style specification', (name, authenticated) => {
    const style = buildStyle(request(name, { authenticated, terrain: true }), { ...context, elevation: { tileUrl: 'https://dem.example/{z}/{x}/{y}.png', encoding: 'terrarium', attribution: 'DEM', maxZoom: 12 } });
    const errors = validateStyleMin(style as unknown as StyleSpecification);
    expect(errors.map((error) => error.message)).toEqual([]);
    const ids = style.layers.map((layer) => layer.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('puts the vector source svc with the inline, versioned template and the metadata keys in every style', () => {
    for (const name of STYLE_NAMES) {
      const style = buildStyle(request(name), context);
      expect(style.version).toBe(8);
      expect(style.sources.svc).toMatchObject({
        type: 'vector',
        tiles: ['http://localhost:8080/api/v1/tiles/vector/svc/planet/{z}/{x}/{y}.pbf?v=vt1'],
        minzoom: 0,
        maxzoom: 14,
        attribution: expect.stringContaining('© svc'),
      });
      expect(style.metadata).toMatchObject({ svcStyle: name, svcAttribution: expect.stringContaining('OpenStreetMap') });
      expect(style.glyphs).toBe('http://localhost:8080/api/v1/tiles/glyphs/svc/{fontstack}/{range}.pbf?v=g1');
      expect(style.sprite).toBe('http://localhost:8080/api/v1/tiles/sprites/svc/sprite?v=s1');
      // rule 5: no poi layer is ever drawn
      expect(style.layers.some((layer) => layer['source-layer'] === 'poi')).toBe(false);
    }
  });

  it('keeps standard, positron, dark and 3d pure vector', () => {
    for (const name of ['standard', 'positron', 'dark', '3d'] as const) {
      const style = buildStyle(request(name), context);
      expect(Object.keys(style.sources)).toEqual(['svc']);
      expect(style.layers.filter((layer) => layer.type === 'raster')).toEqual([]);
    }
  });

  it('satellite: 2 sources and 75 layers (1 background, 1 raster, 73 vector); 3 and 76 without a key', () => {
    const style = buildStyle(request('satellite'), context);
    expect(Object.keys(style.sources).sort()).toEqual(['satellite', 'svc']);
    expect(style.layers).toHaveLength(75);
    expect(style.layers.filter((layer) => layer.type === 'background')).toHaveLength(1);
    expect(style.layers.filter((layer) => layer.type === 'raster').map((layer) => layer.source)).toEqual(['satellite']);
    expect(vectorLayers(style)).toHaveLength(73);
    // the raster lies under the vector layers
    expect(style.layers.findIndex((layer) => layer.source === 'satellite')).toBeLessThan(style.layers.findIndex((layer) => layer.source === 'svc'));
    const anonymous = buildStyle(request('satellite', { authenticated: false }), context);
    expect(Object.keys(anonymous.sources)).toHaveLength(3);
    expect(anonymous.layers).toHaveLength(76);
    expect(anonymous.layers.at(-1)).toMatchObject({ id: 'svc-watermark', source: 'svc-watermark', type: 'raster' });
  });

  it('terrain: 2 sources and 110 layers with ne2_shaded (maxzoom 6) under the vector layers; 3 and 111 without a key; no elevation', () => {
    const style = buildStyle(request('terrain', { terrain: true }), { ...context, elevation: { tileUrl: 'https://dem.example/{z}/{x}/{y}.png', encoding: 'terrarium', attribution: 'DEM', maxZoom: 12 } });
    expect(Object.keys(style.sources).sort()).toEqual(['ne2_shaded', 'svc']);
    expect(style.sources.ne2_shaded).toMatchObject({ type: 'raster', maxzoom: 6, attribution: expect.stringContaining('Natural Earth') });
    expect(style.layers).toHaveLength(110);
    expect(vectorLayers(style)).toHaveLength(108);
    expect(style.terrain).toBeUndefined();
    const anonymous = buildStyle(request('terrain', { authenticated: false }), context);
    expect(Object.keys(anonymous.sources)).toHaveLength(3);
    expect(anonymous.layers).toHaveLength(111);
  });

  it('draws flat footprints from zoom 15.5 in non-3d styles and svc-3d-buildings with a pitched camera in 3d', () => {
    for (const name of ['standard', 'positron', 'dark', 'terrain'] as const) {
      const style = buildStyle(request(name), context);
      const building = style.layers.find((layer) => layer['source-layer'] === 'building');
      expect(building).toMatchObject({ type: 'fill', minzoom: 15.5 });
      expect(style.layers.some((layer) => layer.type === 'fill-extrusion')).toBe(false);
      expect(style.pitch).toBe(0);
    }
    const threeD = buildStyle(request('3d'), context);
    const extrusion = threeD.layers.find((layer) => layer.id === 'svc-3d-buildings');
    expect(extrusion).toMatchObject({ type: 'fill-extrusion', 'source-layer': 'building' });
    expect((extrusion!.paint as Record<string, unknown>)['fill-extrusion-height']).toEqual(['coalesce', ['get', 'render_height'], ['get', 'height'], 6]);
    expect((extrusion!.paint as Record<string, unknown>)['fill-extrusion-base']).toEqual(['coalesce', ['get', 'render_min_height'], ['get', 'min_height'], 0]);
    expect(threeD.layers.some((layer) => layer.type === 'fill' && layer['source-layer'] === 'building')).toBe(false);
    expect(threeD.pitch).toBeGreaterThan(0);
  });

  it('adds an elevation source to 3d only with terrain=1 and a configured model', () => {
    const elevation = { tileUrl: 'https://dem.example/{z}/{x}/{y}.png', encoding: 'terrarium' as const, attribution: 'DEM', maxZoom: 12 };
    expect(buildStyle(request('3d', { terrain: true }), context).terrain).toBeUndefined();
    expect(buildStyle(request('3d', { terrain: false }), { ...context, elevation }).terrain).toBeUndefined();
    const withTerrain = buildStyle(request('3d', { terrain: true }), { ...context, elevation });
    expect(withTerrain.terrain).toEqual({ source: 'svc-dem', exaggeration: 1 });
    expect(withTerrain.sources['svc-dem']).toMatchObject({ type: 'raster-dem', encoding: 'terrarium' });
  });

  it('names the style after `version` and credits the imagery in the satellite source itself', () => {
    expect(buildStyle(request('dark', { name: 'my-map-2' }), context).name).toBe('my-map-2');
    const imagery = { tileUrl: 'https://imagery.example/{z}/{y}/{x}.jpg', attribution: '© Example Imagery', maxZoom: 18 };
    const style = buildStyle(request('satellite'), { ...context, imagery });
    expect(style.sources.satellite).toMatchObject({ tiles: [imagery.tileUrl], attribution: '© Example Imagery', maxzoom: 18 });
    expect(style.sources.svc!.attribution).toContain('© svc');
  });

  it('labels in the requested language first, then name, name:en, name:ar', () => {
    const arabic = buildStyle(request('standard', { languages: ['ar'] }), context);
    const english = buildStyle(request('standard', { languages: ['en', 'ar'] }), context);
    const label = (style: ReturnType<typeof buildStyle>) => (style.layers.find((layer) => layer.id === 'place-suburb')!.layout as Record<string, unknown>)['text-field'];
    expect(label(arabic)).toEqual(['coalesce', ['get', 'name:ar'], ['get', 'name'], ['get', 'name:en']]);
    expect(label(english)).toEqual(['coalesce', ['get', 'name:en'], ['get', 'name:ar'], ['get', 'name']]);
  });
});
