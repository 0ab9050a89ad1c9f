import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HttpMetrics } from './metrics.js';

/** The metrics as they were built before (prom-client's own Counter and Histogram with label-bound children). */
function promClientReference() {
  const registry = new Registry();
  const requests = new Counter({ name: 'http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to the last byte handed to the socket',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const children = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();
  const observe = (method: string, route: string, status: number, seconds: number) => {
    const key = `${method} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { count: requests.labels(labels), time: latency.labels(labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  };
  return { registry, observe };
}

/** The HTTP families of the text exposition (the process's default metrics differ between any two reads). */
function httpFamilies(text: string): string {
  return text
    .split('\n\n')
    .filter((family) => family.includes('# TYPE http_'))
    .join('\n\n');
}

describe('HttpMetrics', () => {
  it('exposes the same text and JSON as prom-client counting every request itself', async () => {
    const metrics = new HttpMetrics();
    const reference = promClientReference();
    const routes = ['/health', '/api/v1/things/{thingId}/parts/{partId}', 'unmatched', 'a "quoted\\" \n route'];
    // every bound exactly, just above it, far above the last, zero, and a spread of ordinary values
    const bounds = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
    const values = [0, 1e-7, ...bounds, ...bounds.map((bound) => bound * 1.000001), 11, 1234.5];
    let seed = 7;
    for (let at = 0; at < 3_000; at++) {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      const route = routes[seed % routes.length]!;
      const status = [200, 201, 404, 429, 500][seed % 5]!;
      const method = at % 7 === 0 ? 'POST' : 'GET';
      const seconds = at < values.length ? values[at]! : (seed % 100_000) / 1e6;
      metrics.observe(method, route, status, seconds);
      reference.observe(method, route, status, seconds);
    }
    const mine = httpFamilies((await metrics.render()).text);
    expect(mine).toContain('http_request_duration_seconds_bucket{le="0.005",method="GET",route="/health",status="200"}');
    expect(mine).toBe(httpFamilies(await reference.registry.metrics()));
    const json = (await metrics.registry.getMetricsAsJSON()).filter((metric) => metric.name.startsWith('http_'));
    expect(json).toEqual(await reference.registry.getMetricsAsJSON());
  });

  it('counts a series through its handle as through observe', async () => {
    const metrics = new HttpMetrics();
    const series = metrics.seriesOf('GET', '/health', 200);
    series.observe(0.0001);
    metrics.observe('GET', '/health', 200, 0.02);
    expect(metrics.seriesOf('GET', '/health', 200)).toBe(series);
    const { text } = await metrics.render();
    expect(text).toContain('http_requests_total{method="GET",route="/health",status="200"} 2');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.0005",method="GET",route="/health",status="200"} 1');
    expect(text).toContain('http_request_duration_seconds_bucket{le="0.025",method="GET",route="/health",status="200"} 2');
  });
});
