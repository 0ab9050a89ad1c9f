import { Registry, collectDefaultMetrics, type Metric } from 'prom-client';

/** Latency buckets in seconds, dense below 10 ms where the edge's own work lives. */
const LATENCY_BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

const REQUESTS_NAME = 'http_requests_total';
const REQUESTS_HELP = 'HTTP requests answered, by route pattern and status';
const LATENCY_NAME = 'http_request_duration_seconds';
const LATENCY_HELP = 'Time from request to the last byte handed to the socket';

type SeriesLabels = {
  method: string;
  route: string;
  status: string;
};

/**
 * One (method, route, status) series: its request count and latency histogram, counted in plain fields.
 * prom-client's `observe` and `inc` convert, validate and hash the labels on every call, even through a
 * label-bound child (~9 % of a `/health` request's CPU); here a request adds to numbers and the registry reads
 * them at scrape time.
 */
export class RouteSeries {
  count = 0;
  sumSeconds = 0;
  /** Requests per bucket (not cumulative): index i counts values ≤ bound i and above bound i − 1. */
  readonly bucketCounts = new Float64Array(LATENCY_BUCKETS_SECONDS.length);

  constructor(
    readonly labels: SeriesLabels,
    /** `labels.status` as a number, for callers that keep a series per status. */
    readonly statusCode: number,
  ) {}

  observe(seconds: number): void {
    this.count++;
    this.sumSeconds += seconds;
    // prom-client's findBound: the first bound the value does not exceed (above the last one only `+Inf` counts it)
    for (let at = 0; at < LATENCY_BUCKETS_SECONDS.length; at++) {
      if (seconds <= LATENCY_BUCKETS_SECONDS[at]!) {
        this.bucketCounts[at]!++;
        return;
      }
    }
  }
}

/** A value of a metric as prom-client's registry formats it (`sharedLabels` come after `labels`). */
interface ExportedValue {
  value: number;
  labels: Record<string, string | number>;
  sharedLabels?: SeriesLabels;
  metricName?: string;
  /** prom-client's buckets carry one (null without exemplars); the JSON form shows it. */
  exemplar?: null;
}

interface ExportedMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  values: ExportedValue[];
  aggregator: 'sum';
}

/**
 * A metric family read from the series at scrape time, in the shape prom-client's registry formats (what its own
 * Counter and Histogram hand it), so the exposition text is theirs byte for byte (metrics.test.ts compares them).
 */
class SeriesFamily {
  readonly aggregator = 'sum' as const;

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    private readonly series: () => Iterable<RouteSeries>,
  ) {}

  /** What the text exposition reads: histogram buckets keep the series' labels apart, as prom-client's do. */
  getForPromString(): ExportedMetric {
    const values: ExportedValue[] = [];
    for (const one of this.series()) {
      if (this.type === 'counter') {
        values.push({ value: one.count, labels: one.labels });
        continue;
      }
      const bucketName = `${this.name}_bucket`;
      let cumulative = 0;
      for (let at = 0; at < LATENCY_BUCKETS_SECONDS.length; at++) {
        cumulative += one.bucketCounts[at]!;
        values.push({ value: cumulative, labels: { le: LATENCY_BUCKETS_SECONDS[at]! }, sharedLabels: one.labels, metricName: bucketName, exemplar: null });
      }
      values.push(
        { value: one.count, labels: { le: '+Inf' }, sharedLabels: one.labels, metricName: bucketName, exemplar: null },
        { value: one.sumSeconds, labels: {}, sharedLabels: one.labels, metricName: `${this.name}_sum` },
        { value: one.count, labels: {}, sharedLabels: one.labels, metricName: `${this.name}_count` },
      );
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** The JSON form (`getMetricsAsJSON`): every value's labels in one object, as prom-client's `get()` gives them. */
  get(): ExportedMetric {
    const exported = this.getForPromString();
    exported.values = exported.values.map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } }));
    return exported;
  }

  reset(): void {}
}

/** Prometheus metrics of one process, on its own registry (no global state). */
export class HttpMetrics {
  readonly registry = new Registry();
  /** Every series by `method status route`, in the order first seen (the exposition's order). */
  private readonly series = new Map<string, RouteSeries>();

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    const all = () => this.series.values();
    // the registry reads any object of this shape; its typings name prom-client's own classes
    this.registry.registerMetric(new SeriesFamily(REQUESTS_NAME, REQUESTS_HELP, 'counter', all) as unknown as Metric);
    this.registry.registerMetric(new SeriesFamily(LATENCY_NAME, LATENCY_HELP, 'histogram', all) as unknown as Metric);
  }

  /** The series of one method, route pattern (bounded cardinality, never the raw URL) and status, made on first use. */
  seriesOf(method: string, route: string, status: number): RouteSeries {
    const key = `${method} ${status} ${route}`;
    let found = this.series.get(key);
    if (!found) {
      found = new RouteSeries({ method, route, status: String(status) }, status);
      this.series.set(key, found);
    }
    return found;
  }

  /** `route` is the route pattern (bounded cardinality), never the raw URL. */
  observe(method: string, route: string, status: number, seconds: number): void {
    this.seriesOf(method, route, status).observe(seconds);
  }

  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
