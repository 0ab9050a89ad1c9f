import { describe, expect, it } from 'vitest';
import { boundsOf, fitBounds, pixelOf, positionOf, viewAt, viewBounds, WORLD_TILE_PX } from './map-view.js';

describe('static map view', () => {
  it('puts the centre in the middle of the image and maps pixels back to positions', () => {
    const view = viewAt({ lon: 31.335, lat: 30.062 }, 15.3, 600, 400);
    expect(pixelOf(view, 31.335, 30.062)).toEqual([300, 200]);
    for (const [x, y] of [[0, 0], [600, 400], [123.5, 321.25]] as const) {
      const [lon, lat] = positionOf(view, x, y);
      const [backX, backY] = pixelOf(view, lon, lat);
      expect(backX).toBeCloseTo(x, 6);
      expect(backY).toBeCloseTo(y, 6);
    }
  });

  it('uses MapLibre zoom: the world is 512 · 2^zoom pixels wide, so one degree of longitude is 512·2^z/360 pixels', () => {
    for (const zoom of [0, 3, 14.5]) {
      const view = viewAt({ lon: 0, lat: 0 }, zoom, 512, 512);
      const [x] = pixelOf(view, 1, 0);
      expect(x - 256).toBeCloseTo((WORLD_TILE_PX * 2 ** zoom) / 360, 6);
    }
    // zoom 0 shows the whole Mercator world in 512 × 512
    const world = viewAt({ lon: 0, lat: 0 }, 0, 512, 512);
    const [west, south, east, north] = viewBounds(world);
    expect([west, east]).toEqual([-180, 180]);
    expect(north).toBeCloseTo(85.0511, 3);
    expect(south).toBeCloseTo(-85.0511, 3);
  });

  it('fits a box: every corner inside the padded image, one axis tight', () => {
    const bbox: [number, number, number, number] = [31.30, 30.04, 31.38, 30.09];
    for (const [width, height, padding] of [[600, 400, 24], [300, 800, 0], [1280, 200, 50]] as const) {
      const fitted = fitBounds(bbox, { width, height, paddingPx: padding, maxZoom: 20, minZoom: 0 });
      const view = viewAt(fitted.center, fitted.zoom, width, height);
      const [left, bottom] = pixelOf(view, bbox[0], bbox[1]);
      const [right, top] = pixelOf(view, bbox[2], bbox[3]);
      for (const x of [left, right]) expect(x).toBeGreaterThanOrEqual(padding - 1e-6), expect(x).toBeLessThanOrEqual(width - padding + 1e-6);
      for (const y of [top, bottom]) expect(y).toBeGreaterThanOrEqual(padding - 1e-6), expect(y).toBeLessThanOrEqual(height - padding + 1e-6);
      // tight: the box fills the inner width or the inner height
      const fillsWidth = Math.abs(right - left - (width - 2 * padding)) < 1e-6;
      const fillsHeight = Math.abs(bottom - top - (height - 2 * padding)) < 1e-6;
      expect(fillsWidth || fillsHeight).toBe(true);
      // and centred
      expect((left + right) / 2).toBeCloseTo(width / 2, 6);
      expect((top + bottom) / 2).toBeCloseTo(height / 2, 6);
    }
  });

  it('fits a single point at the maximum zoom and caps a tiny box there too', () => {
    expect(fitBounds([31.33, 30.06, 31.33, 30.06], { width: 600, height: 400, paddingPx: 24, maxZoom: 16, minZoom: 0 })).toEqual({ center: { lon: expect.closeTo(31.33, 9), lat: expect.closeTo(30.06, 9) }, zoom: 16 });
    expect(fitBounds([31.33, 30.06, 31.330001, 30.060001], { width: 600, height: 400, paddingPx: 24, maxZoom: 16, minZoom: 0 }).zoom).toBe(16);
    expect(fitBounds([-179, -80, 179, 80], { width: 100, height: 100, paddingPx: 0, maxZoom: 16, minZoom: 0 }).zoom).toBe(0);
  });

  it('bounds a list of positions', () => {
    expect(boundsOf([[1, 2], [-3, 5], [0, -1]])).toEqual([-3, -1, 1, 5]);
    expect(boundsOf([])).toBeUndefined();
  });
});
