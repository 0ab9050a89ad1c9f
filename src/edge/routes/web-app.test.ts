import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebAppAssets, webAppRoutes } from './web-app.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-webapp-'));
writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
writeFileSync(join(dir, 'app.js'), 'console.log("app");'.repeat(50));
writeFileSync(join(dir, 'notes.md'), 'not served: no content type of ours');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const [page, asset] = webAppRoutes(new WebAppAssets(dir));
const call = (route: typeof page, params: Record<string, string>, headers: Record<string, string> = {}) =>
  (route!.handler as (context: unknown) => { status: number; headers: Record<string, string>; body?: unknown })({ params, headers });

describe('web app assets', () => {
  it('serves the page and the built files by name, compressed as the client accepts, with a validator', () => {
    const first = call(page, {}, { 'accept-encoding': 'gzip, br' });
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBe('br');
    const again = call(page, {}, { 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(call(asset, { asset: 'app.js' }).status).toBe(200);
  });

  it('answers 404 for any other name: traversal, unknown types, the page under /app', () => {
    for (const name of ['../package.json', 'notes.md', 'missing.js', 'index.html', 'constructor', '__proto__']) {
      expect(() => call(asset, { asset: name }), name).toThrow(/Cannot GET/);
    }
  });

  it('says how to build it when the build folder is missing', () => {
    const [unbuilt] = webAppRoutes(new WebAppAssets(join(dir, 'nope')));
    expect(() => call(unbuilt, {})).toThrow(/npm run build/);
  });
});
