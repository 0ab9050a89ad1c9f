/** One dependency the process needs to serve traffic. */
export interface DependencyProbe {
  name: string;
  /** Resolves when the dependency answers; rejects (or times out) otherwise. */
  check(): Promise<unknown>;
}

export interface DependencyStatus {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, DependencyStatus>;
  failed: string[];
}

/** Probes every dependency in parallel, each bounded by `timeoutMs`. */
export async function checkReadiness(probes: readonly DependencyProbe[], timeoutMs: number): Promise<ReadinessReport> {
  const results = await Promise.all(probes.map((probe) => runProbe(probe, timeoutMs)));
  const checks: Record<string, DependencyStatus> = {};
  const failed: string[] = [];
  probes.forEach((probe, index) => {
    const status = results[index]!;
    checks[probe.name] = status;
    if (!status.ok) failed.push(probe.name);
  });
  return { ready: failed.length === 0, checks, failed };
}

async function runProbe(probe: DependencyProbe, timeoutMs: number): Promise<DependencyStatus> {
  const startedAt = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe.check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
    return { ok: true, latencyMs: elapsed(startedAt) };
  } catch (error) {
    return { ok: false, latencyMs: elapsed(startedAt), error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

function elapsed(startedAt: number): number {
  return Math.round((performance.now() - startedAt) * 100) / 100;
}
