/**
 * Edge overhead: (a) raw uWS hello-world, (b) the product's edge on a JSON
 * route through the full chain (router, request id, validation, CORS, metrics,
 * per-request pino log line, error mapper), (c) the same handler on node:http.
 * Target: (b) ≥ 2 × (c) and (b) ≥ 50 % of (a).
 */
import { fileURLToPath } from 'node:url';
import { conditions, freePort, measure, pinLoadGenerator, round, startProcess, type LoadResult } from './support.js';

const CONNECTIONS = 100;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
const productMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export async function runEdgeBenchmark(): Promise<void> {
  const pinned = pinLoadGenerator();
  const candidates: Array<{ name: string; script: string; args: (port: number) => string[]; env?: (port: number) => Record<string, string>; path: string }> = [
    { name: 'a_raw_uws', script: here('./servers/raw-uws.js'), args: (port) => [String(port)], path: '/health' },
    {
      name: 'b_edge_full_chain',
      script: productMain,
      args: () => [],
      env: (port) => ({ PORT: String(port), HOST: '127.0.0.1', DATA_DIR: 'memory://', LOG_LEVEL: 'info', DATABASE_URL: '', REDIS_URL: '', NATS_URL: '' }),
      path: '/health',
    },
    { name: 'c_node_http', script: here('./servers/node-http.js'), args: (port) => [String(port)], path: '/health' },
  ];
  const results: LoadResult[] = [];
  for (const candidate of candidates) {
    const port = await freePort();
    const server = await startProcess(candidate.script, candidate.args(port), port, candidate.env?.(port));
    try {
      results.push(
        await measure(candidate.name, {
          url: `http://127.0.0.1:${server.port}${candidate.path}`,
          connections: CONNECTIONS,
          durationSeconds: DURATION_SECONDS,

        }),
      );
    } finally {
      await server.stop();
    }
  }
  console.log(
    conditions({
      benchmark: 'edge',
      load: `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s after 2 s warm-up, same machine as the server`,
      route: 'GET /health (JSON)',
      cpus: pinned,
    }),
  );
  console.log('name,req_per_s,p50_ms,p99_ms,non_2xx,errors');
  for (const result of results) {
    console.log([result.name, round(result.requestsPerSecond, 0), result.p50Ms, result.p99Ms, result.non2xx, result.errors].join(','));
  }
  const [raw, edge, nodeHttp] = results as [LoadResult, LoadResult, LoadResult];
  const vsNode = edge.requestsPerSecond / nodeHttp.requestsPerSecond;
  const vsRaw = edge.requestsPerSecond / raw.requestsPerSecond;
  console.log(`ratio,b_over_c,${round(vsNode)},target >= 2,${vsNode >= 2 ? 'met' : 'missed'}`);
  console.log(`ratio,b_over_a,${round(vsRaw)},target >= 0.5,${vsRaw >= 0.5 ? 'met' : 'missed'}`);
}
