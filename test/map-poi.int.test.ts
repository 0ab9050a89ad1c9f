/**
 * GET /map/poi black-box (spec part 2 §4.8; docs/map-data.md): a label-budgeted viewport of the
 * default catalogue (the Nasr City places seeded from the pack).
 */
import { describe, expect, it } from 'vitest';
import { readJson } from './support/services.js';
import { useServer } from './support/server-fixture.js';

type Box = [number, number, number, number];

/** The bbox a MapLibre map of `vw` × `vh` CSS pixels shows around a centre at a zoom (512-pixel world). */
function viewportBbox(center: { lng: number; lat: number }, zoom: number, vw: number, vh: number): number[] {
  const world = 512 * 2 ** zoom;
  const x = ((center.lng + 180) / 360) * world;
  const sin = Math.sin((center.lat * Math.PI) / 180);
  const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world;
  const lngOf = (px: number) => (px / world) * 360 - 180;
  const latOf = (py: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * py) / world))) * 180) / Math.PI;
  return [lngOf(x - vw / 2), latOf(y + vh / 2), lngOf(x + vw / 2), latOf(y - vh / 2)];
}

const NASR_CITY = { lng: 31.335, lat: 30.06 };
const overlap = (a: Box, b: Box) => a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];

describe('GET /api/v1/map/poi', () => {
  const fixture = useServer();
  const poi = async (params: Record<string, string | number>) => {
    const query = new URLSearchParams(Object.entries(params).map(([key, value]): [string, string] => [key, String(value)]));
    const response = await fetch(`${fixture.server.baseUrl}/api/v1/map/poi?${query}`);
    expect(response.status).toBe(200);
    return { body: await readJson(response), headers: response.headers };
  };

  it('answers a missing or malformed bbox with 200, an error and empty lists', async () => {
    for (const bbox of [undefined, '31,30,31', '31.4,30,31.3,30.1', 'a,b,c,d']) {
      const { body } = await poi(bbox === undefined ? {} : { bbox });
      expect(body).toMatchObject({ items: [], clusters: [], truncated: false });
      expect(body.error).toMatch(/bbox/);
    }
  });

  it('draws no two labels or icons over each other at the stated viewport, in priority order within the budget', async () => {
    for (const [zoom, locale] of [
      [14, 'en'],
      [15, 'ar'],
      [17, 'en'],
    ] as const) {
      const vw = 1024;
      const vh = 768;
      const bbox = viewportBbox(NASR_CITY, zoom, vw, vh);
      const { body, headers } = await poi({ bbox: bbox.join(','), zoom, vw, vh, locale });
      expect(headers.get('cache-control')).toBe('public, max-age=20, stale-while-revalidate=120');
      expect(body.items.length).toBeGreaterThan(0);
      expect(body.items.length).toBeLessThanOrEqual(body.budget);
      expect(body.truncated).toBe(body.qualified > body.items.length);
      const priorities = body.items.map((item: { priority: number }) => item.priority);
      expect(priorities).toEqual([...priorities].sort((a, b) => b - a));
      expect(Math.min(...priorities)).toBeGreaterThanOrEqual(body.minPriority);
      const boxes: { owner: string; box: Box }[] = [];
      const world = 512 * 2 ** zoom;
      for (const item of body.items) {
        // the screen position is the item's own point, projected as the map projects it
        const x = ((item.lng - bbox[0]!) / 360) * world;
        expect(Math.abs(item.screen.x - x)).toBeLessThan(1);
        expect(item.screen.y).toBeGreaterThanOrEqual(-1);
        expect(item.screen.y).toBeLessThanOrEqual(vh + 1);
        expect(item.name).toBe(locale === 'ar' ? (item.nameAr ?? item.nameEn) : (item.nameEn ?? item.nameAr));
        expect(item.labelHidden).toBe(item.screen.labelBox === null);
        if (!item.labelHidden) {
          // a label is at least as wide as a narrow glyph per character of its first line
          expect(item.screen.labelBox[2] - item.screen.labelBox[0]).toBeGreaterThanOrEqual(Math.min(item.name.length, 15) * 4);
          expect(item.priority).toBeGreaterThanOrEqual(body.profile.iconOnlyBelow);
          boxes.push({ owner: item.id, box: item.screen.labelBox });
        }
        boxes.push({ owner: item.id, box: item.screen.iconBox });
        expect(item.iconLightUrl).toMatch(/\/api\/v1\/map\/icons\/pins\/.+-light\.svg/);
      }
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          if (boxes[i]!.owner !== boxes[j]!.owner) expect(overlap(boxes[i]!.box, boxes[j]!.box), `${zoom} ${locale}`).toBe(false);
        }
      }
      const clustered = body.clusters.reduce((sum: number, cluster: { count: number }) => sum + cluster.count, 0);
      expect(clustered).toBe(body.qualified - body.items.length);
    }
  });

  it('shrinks the budget with perf and grows it with the viewport; clamps values out of range', async () => {
    const bbox = viewportBbox(NASR_CITY, 15, 1440, 900).join(',');
    const full = (await poi({ bbox, zoom: 15 })).body;
    const light = (await poi({ bbox, zoom: 15, perf: 0.3 })).body;
    expect(light.budget).toBeLessThan(full.budget);
    expect(light.items.length).toBeLessThanOrEqual(light.budget);
    const large = (await poi({ bbox, zoom: 15, vw: 3000, vh: 2000 })).body;
    expect(large.budget).toBeGreaterThan(full.budget);
    const clamped = (await poi({ bbox, zoom: 15, vw: 99999, vh: 99999, perf: 0.01, dpr: 9 })).body;
    const limits = (await poi({ bbox, zoom: 15, vw: 8000, vh: 8000, perf: 0.3, dpr: 4 })).body;
    expect(clamped.budget).toBe(limits.budget);
    expect((await poi({ bbox, zoom: 'x' })).body.zoom).toBe(14);
  });

  it('keeps to the categories asked for', async () => {
    const bbox = viewportBbox(NASR_CITY, 16, 1440, 900).join(',');
    const { body } = await poi({ bbox, zoom: 16, categories: 'school,hospital' });
    expect(body.items.length).toBeGreaterThan(0);
    for (const item of body.items) expect(item.categories.some((slug: string) => slug === 'school' || slug === 'hospital')).toBe(true);
  });
});
