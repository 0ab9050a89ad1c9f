/**
 * Memory of server processes over a long run: resident set (from /proc) and V8 heap in use (from each process's
 * Prometheus metrics port), sampled on a fixed period, with the least-squares slope that says whether it grows.
 */
import { readFileSync } from 'node:fs';

export interface SampledProcess {
  pid: number;
  /** The process's METRICS_PORT (its `/metrics` gives `nodejs_heap_size_used_bytes`). */
  metricsPort?: number;
}

export interface MemorySample {
  /** seconds since sampling started */
  atSeconds: number;
  pid: number;
  rssMb: number;
  heapUsedMb: number;
}

const MB = 1024 * 1024;

export function rssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? (Number(match[1]) * 1024) / MB : NaN;
  } catch {
    return NaN;
  }
}

export async function heapUsedMb(metricsPort: number | undefined): Promise<number> {
  if (metricsPort === undefined) return NaN;
  try {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { signal: AbortSignal.timeout(5_000) })).text();
    const match = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? ([0-9.e+]+)$/m.exec(text);
    return match ? Number(match[1]) / MB : NaN;
  } catch {
    return NaN;
  }
}

/** Least-squares slope of `value` over `atSeconds`, in units per minute (NaN with fewer than 2 points). */
export function slopePerMinute(points: readonly { atSeconds: number; value: number }[]): number {
  const usable = points.filter((point) => Number.isFinite(point.value));
  if (usable.length < 2) return NaN;
  const meanT = usable.reduce((sum, point) => sum + point.atSeconds, 0) / usable.length;
  const meanV = usable.reduce((sum, point) => sum + point.value, 0) / usable.length;
  let covariance = 0;
  let variance = 0;
  for (const point of usable) {
    covariance += (point.atSeconds - meanT) * (point.value - meanV);
    variance += (point.atSeconds - meanT) ** 2;
  }
  return variance === 0 ? NaN : (covariance / variance) * 60;
}

/**
 * Theil–Sen slope: the median of the slopes between every pair of points, in units per minute (NaN with fewer than 2
 * points). A process's RSS drops once when the allocator hands memory back and then refills to where it was; least
 * squares reads such a dip early in the window as growth (the quiet soak of 2026-11-28: 3.2 MB/min least squares for
 * an RSS that stayed within 388–396 MB for its last 25 samples), while the median of pairwise slopes follows the trend
 * most of the samples share (0.63 MB/min there), as a real leak's would.
 */
export function medianSlopePerMinute(points: readonly { atSeconds: number; value: number }[]): number {
  const usable = points.filter((point) => Number.isFinite(point.value));
  const slopes: number[] = [];
  for (let i = 0; i < usable.length; i++) {
    for (let j = i + 1; j < usable.length; j++) {
      const dt = usable[j]!.atSeconds - usable[i]!.atSeconds;
      if (dt !== 0) slopes.push(((usable[j]!.value - usable[i]!.value) / dt) * 60);
    }
  }
  if (slopes.length === 0) return NaN;
  slopes.sort((a, b) => a - b);
  const middle = slopes.length >> 1;
  return slopes.length % 2 ? slopes[middle]! : (slopes[middle - 1]! + slopes[middle]!) / 2;
}

export class MemorySampler {
  readonly samples: MemorySample[] = [];
  private timer: NodeJS.Timeout | undefined;
  private startedAt = 0;

  constructor(
    private readonly processes: readonly SampledProcess[],
    private readonly everyMs: number,
    private readonly onSample?: (samples: MemorySample[]) => void,
  ) {}

  start(): void {
    this.startedAt = performance.now();
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.everyMs);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async sample(): Promise<void> {
    const atSeconds = (performance.now() - this.startedAt) / 1000;
    const taken = await Promise.all(this.processes.map(async ({ pid, metricsPort }) => ({ atSeconds, pid, rssMb: rssMb(pid), heapUsedMb: await heapUsedMb(metricsPort) })));
    this.samples.push(...taken);
    this.onSample?.(taken);
  }

  /** Per process: first and last readings and the slopes (MB per minute) over the later half of the run. */
  growth(): ProcessGrowth[] {
    return this.processes.map(({ pid }) => {
      const mine = this.samples.filter((sample) => sample.pid === pid);
      const laterHalf = mine.slice(Math.floor(mine.length / 2));
      return {
        pid,
        samples: mine.length,
        rssFirstMb: mine[0]?.rssMb ?? NaN,
        rssLastMb: mine[mine.length - 1]?.rssMb ?? NaN,
        rssMaxMb: Math.max(...mine.map((sample) => sample.rssMb)),
        heapFirstMb: mine[0]?.heapUsedMb ?? NaN,
        heapLastMb: mine[mine.length - 1]?.heapUsedMb ?? NaN,
        rssSlopeMbPerMinute: slopePerMinute(laterHalf.map((sample) => ({ atSeconds: sample.atSeconds, value: sample.rssMb }))),
        rssMedianSlopeMbPerMinute: medianSlopePerMinute(laterHalf.map((sample) => ({ atSeconds: sample.atSeconds, value: sample.rssMb }))),
        heapSlopeMbPerMinute: slopePerMinute(laterHalf.map((sample) => ({ atSeconds: sample.atSeconds, value: sample.heapUsedMb }))),
      };
    });
  }
}

export interface ProcessGrowth {
  pid: number;
  samples: number;
  rssFirstMb: number;
  rssLastMb: number;
  rssMaxMb: number;
  heapFirstMb: number;
  heapLastMb: number;
  /** least-squares slope over the later half of the samples (after caches and pools have filled) */
  rssSlopeMbPerMinute: number;
  /** Theil–Sen slope of the RSS over the later half: what the soak's bound is judged by (see medianSlopePerMinute) */
  rssMedianSlopeMbPerMinute: number;
  heapSlopeMbPerMinute: number;
}
