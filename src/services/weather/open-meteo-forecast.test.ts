import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenMeteoForecast } from './open-meteo-forecast.js';

let server: Server;
let port: number;
let requests = 0;
let lastUrl: URL | undefined;
let answer: (response: import('node:http').ServerResponse, url: URL) => void = (response) => {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ hourly: { time: [1_800_000_000], precipitation: [5] } }));
};

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++;
    lastUrl = new URL(request.url ?? '/', 'http://fake');
    answer(response, lastUrl);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => server.close());

describe('OpenMeteoForecast', () => {
  it('unconfigured: no forecast, no request', async () => {
    const source = new OpenMeteoForecast({});
    expect(source.configured).toBe(false);
    expect(await source.forecast(30, 31)).toBeUndefined();
  });

  it('refuses a private or plain-http provider unless allowed (SSRF), without connecting', async () => {
    const before = requests;
    const source = new OpenMeteoForecast({ url: `http://127.0.0.1:${port}/v1/forecast` });
    expect(await source.forecast(30, 31)).toBeUndefined();
    const metadata = new OpenMeteoForecast({ url: 'https://169.254.169.254/v1/forecast' });
    expect(await metadata.forecast(30, 31)).toBeUndefined();
    expect(requests).toBe(before);
  });

  it('reads an allowed provider once per cell and cache period', async () => {
    let now = 1_800_000_000_000;
    const source = new OpenMeteoForecast({ url: `http://127.0.0.1:${port}/v1/forecast`, allowedHosts: [`127.0.0.1:${port}`], now: () => now });
    const before = requests;
    const first = await source.forecast(30.04, 31.26);
    expect(first?.hours).toEqual([{ atMs: 1_800_000_000_000, precipitationMm: 5 }]);
    await source.forecast(30.01, 31.31); // same 0.1° cell
    expect(requests).toBe(before + 1);
    now += 31 * 60_000;
    await source.forecast(30.04, 31.26);
    expect(requests).toBe(before + 2);
  });

  it('reads many cells in multi-location calls of at most 50, and reports the provider health', async () => {
    const now = 1_800_000_000_000;
    answer = (response, url) => {
      const lats = url.searchParams.get('latitude')!.split(',').map(Number);
      const body = lats.map((lat) => ({ hourly: { time: [now / 1000], temperature_2m: [lat], is_day: [0] } }));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body.length === 1 ? body[0] : body));
    };
    const source = new OpenMeteoForecast({ url: `http://127.0.0.1:${port}/v1/forecast`, allowedHosts: [`127.0.0.1:${port}`], now: () => now });
    expect(source.status()).toMatchObject({ configured: true, provider: `127.0.0.1:${port}`, lastSuccessAt: null });
    const points = Array.from({ length: 60 }, (_, index) => ({ lat: 20 + index / 10, lng: 40 }));
    const before = requests;
    const batch = await source.forecastMany([...points, points[0]!]);
    expect(requests - before).toBe(2); // 50 + 10 distinct cells
    expect(batch.error).toBeUndefined();
    expect(batch.forecasts.map((forecast) => forecast?.hours[0]?.temperatureC)).toEqual([...points.map((point) => point.lat), 20]);
    expect(batch.forecasts[0]?.hours[0]?.isDay).toBe(false);
    expect(lastUrl?.searchParams.get('hourly')).toContain('temperature_2m');
    expect(source.healthy).toBe(true);
    // all cached now
    await source.forecastMany(points);
    expect(requests - before).toBe(2);
  });

  it('a provider that fails or stalls answers undefined within the time budget', async () => {
    answer = () => undefined; // never answers
    const source = new OpenMeteoForecast({ url: `http://127.0.0.1:${port}/v1/forecast`, allowedHosts: [`127.0.0.1:${port}`], timeoutMs: 200 });
    const started = Date.now();
    expect(await source.forecast(10, 10)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2_000);
    answer = (response) => {
      response.writeHead(500);
      response.end();
    };
    expect(await source.forecast(11, 11)).toBeUndefined();
    const batch = await source.forecastMany([{ lat: 12, lng: 12 }]);
    expect(batch.error).toContain('HTTP 500');
    expect(source.healthy).toBe(false);
    expect(source.status().lastError).toContain('HTTP 500');
  });

  it('readiness follows the last outcome: a failing provider is no data with the reason, and data again once it recovers', async () => {
    let now = 1_800_000_000_000;
    const failing = (response: import('node:http').ServerResponse) => {
      response.writeHead(503);
      response.end();
    };
    const healthy = (response: import('node:http').ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ hourly: { time: [now / 1000], precipitation: [0] } }));
    };
    const source = new OpenMeteoForecast({ url: `http://127.0.0.1:${port}/v1/forecast`, allowedHosts: [`127.0.0.1:${port}`], now: () => now });
    const centre = { lat: 30.06, lng: 31.33 };
    expect(await new OpenMeteoForecast({}).readiness(centre)).toEqual({ data: false, reason: expect.stringContaining('WEATHER_URL') });

    // never asked: readiness asks the provider once, for the centre's cell, and reports its failure
    answer = failing;
    let before = requests;
    const failed = await source.readiness(centre);
    expect(failed).toEqual({ data: false, reason: expect.stringContaining('HTTP 503') });
    expect(requests - before).toBe(1);
    expect(lastUrl?.searchParams.get('latitude')).toBe('30.1');
    // within the failure back-off the outcome stands: no call, even once the provider is back
    answer = healthy;
    now += 30_000;
    before = requests;
    expect(await source.readiness(centre)).toEqual(failed);
    expect(requests).toBe(before);

    // past the back-off it is asked again: recovered
    now += 31_000;
    expect(await source.readiness(centre)).toEqual({ data: true });
    expect(requests - before).toBe(1);
    // a success within the cache lifetime answers without a call
    now += 20 * 60_000;
    expect(await source.readiness(centre)).toEqual({ data: true });
    expect(requests - before).toBe(1);

    // a weather request that fails makes readiness say so at once, without a call of its own
    answer = failing;
    await source.forecastMany([{ lat: 24.7, lng: 46.7 }]);
    before = requests;
    expect(await source.readiness(centre)).toEqual({ data: false, reason: expect.stringContaining('HTTP 503') });
    expect(requests).toBe(before);
    // and one that succeeds after it clears it
    answer = healthy;
    now += 1_000;
    await source.forecastMany([{ lat: 21.5, lng: 39.2 }]);
    expect(await source.readiness(centre)).toEqual({ data: true });
    expect(requests - before).toBe(1);

    // a success older than the cache lifetime is not taken for now: the provider is asked again
    now += 31 * 60_000;
    answer = failing;
    expect(await source.readiness(centre)).toEqual({ data: false, reason: expect.stringContaining('HTTP 503') });
    expect(requests - before).toBe(2);
  });
});
