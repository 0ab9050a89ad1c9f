import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Latency buckets in seconds, dense below 10 ms where the edge's own work lives. */
const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** Prometheus metrics of one process, on its own registry (no global state). */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route' | 'status'>;
  /** Label-bound children per (method, route, status): hashing labels on every request is measurable. */
  private readonly children = new Map<string, { count: { inc(): void }; time: { observe(value: number): void } }>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.latency = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to the last byte handed to the socket',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS_SECONDS,
      registers: [this.registry],
    });
  }

  /** `route` is the route pattern (bounded cardinality), never the raw URL. */
  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.children.get(key);
    if (!child) {
      const labels = { method, route, status: String(status) };
      child = { count: this.requests.labels(labels), time: this.latency.labels(labels) };
      this.children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  }

  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
