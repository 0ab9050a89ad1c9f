/**
 * Category styles, the icon sprite, pin icons and weather icons, black-box (spec part 2 §2.4 icon
 * URLs, §2.11, §4.8; docs/map-data.md).
 */
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { readJson } from './support/services.js';
import { useServer } from './support/server-fixture.js';

/** Whether an SVG text renders (resvg parses it) at the size it declares. */
function renderedSize(svg: string): { width: number; height: number } {
  const image = new Resvg(svg).render();
  return { width: image.width, height: image.height };
}

describe('map category styles and icons', () => {
  const fixture = useServer();
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${fixture.server.baseUrl}${path}`, { headers });

  it('styles every place category, with icons the sprite holds and pins that are served', async () => {
    const styles = await readJson(await get('/api/v1/map/category-styles'));
    const categories = await readJson(await get('/api/v1/places/categories'));
    expect(styles.categories.map((category: { slug: string }) => category.slug)).toEqual(categories.categories.map((category: { slug: string }) => category.slug));
    const sprite = await (await get(new URL(styles.iconSpriteUrl).pathname + new URL(styles.iconSpriteUrl).search)).text();
    const manifest = await readJson(await get('/api/v1/map/icons/sprite.json'));
    const manifestNames = new Set(manifest.icons.map((icon: { name: string }) => icon.name));
    expect(manifest.count).toBe(manifestNames.size);
    for (const category of styles.categories) {
      expect(category.name.en.length).toBeGreaterThan(0);
      expect(category.name.ar).toMatch(/[\u0600-\u06ff]/);
      expect(category.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(['pin', 'dot']).toContain(category.pinStyle);
      expect(category.zoomRange.min).toBeLessThanOrEqual(category.zoomRange.max);
      expect(sprite).toContain(`<symbol id="svc-icon-${category.icon.name}"`);
      expect(manifestNames.has(category.icon.name)).toBe(true);
      expect(category.icon.href).toMatch(new RegExp(`/api/v1/map/icons/sprite\\.svg\\?v=${styles.version}#svc-icon-${category.icon.name}$`));
    }
    // every distinct pin once: served as SVG in the category's colour
    const pins = new Map<string, string>();
    for (const category of styles.categories) {
      pins.set(category.iconLightUrl, category.color);
      pins.set(category.iconDarkUrl, category.darkColor);
    }
    for (const [url, color] of pins) {
      const response = await get(new URL(url).pathname + new URL(url).search);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/svg+xml');
      const svg = await response.text();
      expect(svg).toContain(`fill="${color}"`);
      expect(renderedSize(svg)).toEqual({ width: 30, height: 40 });
    }
  });

  it('gives places the pin URLs of their canonical category', async () => {
    const styles = await readJson(await get('/api/v1/map/category-styles'));
    const bySlug = new Map(styles.categories.map((category: { slug: string }) => [category.slug, category]));
    const places = await readJson(await get('/api/v1/places?limit=50'));
    expect(places.items.length).toBeGreaterThan(10);
    // places join paths onto the site URL (SITE_URL, else localhost), the styles onto the request's origin
    const path = (url: string) => new URL(url).pathname + new URL(url).search;
    for (const place of places.items) {
      const category = bySlug.get(place.canonicalCategorySlug) as { iconLightUrl: string; iconDarkUrl: string };
      expect(path(place.iconLightUrl)).toBe(path(category.iconLightUrl));
      expect(path(place.iconDarkUrl)).toBe(path(category.iconDarkUrl));
    }
  });

  it('answers the sprite with a validator, immutable only at the current version', async () => {
    const { version } = await readJson(await get('/api/v1/map/icons/sprite.json'));
    const current = await get(`/api/v1/map/icons/sprite.svg?v=${version}`, { 'accept-encoding': 'br' });
    expect(current.headers.get('cache-control')).toContain('immutable');
    expect(current.headers.get('content-type')).toBe('image/svg+xml');
    const stale = await get('/api/v1/map/icons/sprite.svg?v=old');
    expect(stale.headers.get('cache-control')).not.toContain('immutable');
    const again = await get('/api/v1/map/icons/sprite.svg', { 'if-none-match': current.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('refuses pin names no category has, with the error body', async () => {
    for (const file of ['food-restaurant-sepia.svg', 'nothing-here-light.svg', '..%2Fetc-light.svg']) {
      const response = await get(`/api/v1/map/icons/pins/${file}`, { 'x-request-id': 'pin-test' });
      expect(response.status, file).toBe(404);
      expect(await readJson(response)).toMatchObject({ statusCode: 404, code: 'NOT_FOUND', requestId: 'pin-test' });
    }
  });

  it('serves 24×24 weather icons at the site root, unknown slugs drawn as cloud', async () => {
    const slugs = ['clear', 'clear-night', 'partly', 'cloud', 'rain', 'storm', 'snow', 'fog', 'heat', 'cold', 'wind'];
    const drawings = new Set<string>();
    for (const slug of slugs) {
      for (const theme of ['light', 'dark']) {
        const response = await get(`/uploads/weather-icons/${slug}-${theme}.svg`);
        expect(response.status, slug).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/svg+xml');
        const svg = await response.text();
        expect(renderedSize(svg)).toEqual({ width: 24, height: 24 });
        drawings.add(svg);
      }
    }
    // every slug and theme is a drawing of its own
    expect(drawings.size).toBe(slugs.length * 2);
    const cloud = await (await get('/uploads/weather-icons/cloud-dark.svg')).text();
    expect(await (await get('/uploads/weather-icons/volcanic-ash-dark.svg')).text()).toBe(cloud);
    expect((await get('/uploads/weather-icons/cloud.svg')).status).toBe(404);
    expect((await get('/uploads/weather-icons/cloud-sepia.svg')).status).toBe(404);
  });
});
