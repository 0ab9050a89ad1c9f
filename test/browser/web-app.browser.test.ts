/**
 * The web app (issue #32) in a real browser: Debian's Chromium opens `/` of the built server and a user
 * gets an API key on the developer page (register, create organization, project and key), searches in
 * Arabic and picks a suggestion with the keyboard, draws a route, replays 30 s of live navigation over the
 * WebSocket (events shown, including the off-route and the re-route of the simulated driver), switches to
 * Arabic (dir="rtl"), and watches the live fleet page redraw when a re-optimisation arrives. Each step
 * saves a screenshot under docs/screenshots/ (shown in the README and docs/web-app.md).
 *
 * Run with `npm run test:browser` (built server and web app; Chromium at /usr/bin/chromium or CHROMIUM_PATH).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, uniqueEmail } from '../support/api-client.js';
import { launchChromium } from '../support/chromium.js';
import { useServer } from '../support/server-fixture.js';

// page functions run in the browser; this project compiles without the DOM library
declare const document: any;
declare const window: any;
declare const localStorage: any;

const SCREENSHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');
const fixture = useServer();
let browser: Awaited<ReturnType<typeof launchChromium>>;
let page: Page;
const pageErrors: string[] = [];

const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `web-app-${name}.png`) });
/** Waits until the map has drawn everything it asked for (tiles, glyphs, overlays). */
const mapIdle = () => page.waitForFunction(() => window.appMap?.map.loaded() && window.appMap.map.areTilesLoaded(), undefined, { timeout: 60_000 });

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  browser = await launchChromium({ width: 1200, height: 760 });
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${fixture.server.baseUrl}/#/developer`);
  await page.waitForSelector('#dev-email');
}, 120_000);

afterAll(async () => {
  await browser?.close();
});

describe('web app', () => {
  it('gets an API key on the developer page', async () => {
    await page.fill('#dev-email', uniqueEmail('webapp'));
    await page.fill('#dev-password', PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.click('[data-action="create-key"]');
    const key = await page.locator('[data-testid="new-key"] code').textContent();
    expect(key).toMatch(/^svc_[0-9a-f]{48}$/);
    expect(await page.evaluate(() => localStorage.getItem('svc.apiKey'))).toBe(key);
    // the key table lists it with its usage
    await expect.poll(() => page.locator('table.keys tbody tr').count()).toBe(1);
    await shot('developer');
  });

  it('searches in Arabic and opens the picked place on the map', async () => {
    await page.click('a[data-page="search"]');
    const box = page.getByRole('combobox', { name: 'Search places and addresses' });
    await box.fill('مسجد');
    const options = page.locator('.search-box', { has: box }).locator('[role="option"].suggestion.place');
    await options.first().waitFor();
    const label = await options.first().locator('.label').textContent();
    // an Arabic query, answered in the interface's language (English here)
    expect(label).toMatch(/Mosque/);
    // keyboard: the first option is the category, the next a place
    await box.press('ArrowDown');
    await box.press('ArrowDown');
    await box.press('Enter');
    const card = page.locator('[data-testid="place-card"] h2');
    await expect.poll(() => card.textContent(), { timeout: 15_000 }).toBeTruthy();
    await expect.poll(() => page.evaluate(() => window.appMap.map.getSource('pins')?._data?.features?.length ?? window.appMap.map.querySourceFeatures('pins').length)).toBeGreaterThan(0);
    await mapIdle();
    // the style was asked for with the key: no "API key required" watermark
    expect(await page.evaluate(() => window.appMap.map.getStyle().layers.filter((layer: any) => /watermark/.test(layer.id)).length)).toBe(0);
    await shot('search');
  });

  it('draws a route with its maneuvers and alternatives', async () => {
    await page.click('a[data-page="directions"]');
    const from = page.getByRole('combobox', { name: 'From' });
    await from.fill('al-hamd mosque');
    await page.locator('.search-box', { has: from }).locator('[role="option"].suggestion').first().waitFor();
    await from.press('ArrowDown');
    await from.press('Enter');
    const to = page.getByRole('combobox', { name: 'To' });
    await to.fill('مسجد الرحمة');
    const toOption = page.locator('.search-box', { has: to }).locator('[role="option"].suggestion.place').first();
    await toOption.waitFor();
    await toOption.dispatchEvent('mousedown');
    await page.waitForSelector('[data-testid="route-summary"]', { timeout: 30_000 });
    expect(await page.locator('[data-testid="route-summary"]').textContent()).toMatch(/\d.* km · \d+ min/);
    expect(await page.locator('[data-testid="maneuvers"] li').count()).toBeGreaterThan(2);
    await mapIdle();
    await shot('directions');
  });

  it('replays 30 s of live navigation and shows the events, the off-route and the re-route', async () => {
    await page.click('a[data-page="navigation"]');
    await page.getByRole('button', { name: 'Start replay' }).click();
    await page.waitForSelector('[data-testid="stream-state"]:has-text("open")', { timeout: 20_000 });
    await page.waitForTimeout(30_000);
    const events = await page.locator('[data-testid="events"] li').evaluateAll((items: any[]) => items.map((item) => item.dataset.event));
    expect(events).toContain('maneuver_completed');
    expect(events).toContain('off_route');
    expect(events).toContain('rerouted');
    expect(Number(await page.locator('[data-testid="progress"]').getAttribute('value'))).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="next-maneuver"]').textContent()).toBeTruthy();
    await shot('navigation');
    await page.getByRole('button', { name: 'Stop' }).click();
  }, 90_000);

  it('switches to Arabic: right to left, Arabic interface and map labels', async () => {
    await page.click('a[data-page="search"]');
    await page.click('#language-toggle');
    expect(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang])).toEqual(['rtl', 'ar']);
    expect(await page.locator('a[data-page="search"]').textContent()).toBe('بحث');
    // the style is asked for again with Arabic labels first
    await expect.poll(() => page.evaluate(() => window.appMap.map.getStyle()?.metadata?.svcLanguages?.[0]), { timeout: 30_000 }).toBe('ar');
    await mapIdle();
    // the RTL text plugin, from our server, shaped the Arabic labels
    await expect.poll(() => page.evaluate(() => window.appMap.rtlPluginStatus), { timeout: 30_000 }).toBe('loaded');
    await shot('arabic');
  });

  it('shows the live fleet and redraws when a re-optimisation arrives', async () => {
    await page.click('a[data-page="fleet"]');
    await page.click('[data-action="start-fleet"]');
    const version = page.locator('[data-testid="plan-version"]');
    await page.waitForSelector('[data-testid="fleet-state"]:has-text("open")', { timeout: 20_000 });
    // the first plan (version 1) came with the fleet or arrives on the stream
    await expect.poll(async () => Number(await version.textContent()), { timeout: 30_000 }).toBeGreaterThanOrEqual(1);
    const before = Number(await version.textContent());
    await page.click('[data-action="add-stop"]');
    // the plan frame for the new stop arrives on the stream and is drawn, with the stop among those added
    const next = page.locator(`[data-testid="plan-log"] li[data-plan-version="${before + 1}"]`);
    await next.waitFor({ timeout: 30_000 });
    expect(await next.textContent()).toMatch(/\+1 /);
    expect(Number(await version.textContent())).toBe(before + 1);
    await page.click('[data-action="move"]');
    await page.waitForSelector(`[data-testid="plan-log"] li[data-plan-version="${before + 2}"]`, { timeout: 30_000 });
    await mapIdle();
    await shot('fleet');
  }, 90_000);

  it('fits a phone-sized viewport', async () => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.click('a[data-page="directions"]');
    await page.waitForTimeout(500);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await mapIdle();
    await shot('phone');
    expect(pageErrors).toEqual([]);
  });
});
