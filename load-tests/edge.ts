/**
 * Load scenario for the edge: a mix of liveness, readiness, documentation and
 * unknown-route traffic at a steady connection count, checked against latency
 * targets. Bounded in time, loopback only.
 */
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { conditions, freePort, pinLoadGenerator, startProcess } from '../bench/support.js';

const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 50);
const DURATION_SECONDS = Number(process.env.LOAD_DURATION_SECONDS ?? 20);
/** Targets for this mix on the reference machine (2 cores, server on one). */
const TARGET_P99_MS = 25;
const TARGET_MIN_REQUESTS_PER_SECOND = 10_000;

export async function runEdgeLoad(): Promise<boolean> {
  const pinned = pinLoadGenerator();
  const port = await freePort();
  const server = await startProcess(fileURLToPath(new URL('../../dist/main.js', import.meta.url)), [], port, {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'info',
  });
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration: DURATION_SECONDS,
      requests: [
        { method: 'GET', path: '/health' },
        { method: 'GET', path: '/health', headers: { origin: 'https://app.example.ae' } },
        { method: 'GET', path: '/api/v1/openapi.json' },
        { method: 'GET', path: '/api/v1/no-such-route' },
        { method: 'POST', path: '/api/v1/no-such-route', headers: { 'content-type': 'application/json' }, body: '{"q":"مدينة نصر"}' },
      ],
    });
    console.log(
      conditions({
        scenario: 'edge mix: /health, /health with Origin, /api/v1/openapi.json, 404 GET, 404 POST with body',
        load: `autocannon, ${CONNECTIONS} connections, ${DURATION_SECONDS} s`,
        cpus: pinned,
      }),
    );
    console.log('metric,value,target,verdict');
    const p99Met = result.latency.p99 <= TARGET_P99_MS;
    const rateMet = result.requests.average >= TARGET_MIN_REQUESTS_PER_SECOND;
    console.log(`req_per_s,${Math.round(result.requests.average)},>= ${TARGET_MIN_REQUESTS_PER_SECOND},${rateMet ? 'met' : 'missed'}`);
    console.log(`p50_ms,${result.latency.p50},,`);
    console.log(`p99_ms,${result.latency.p99},<= ${TARGET_P99_MS},${p99Met ? 'met' : 'missed'}`);
    console.log(`errors,${result.errors},0,${result.errors === 0 ? 'met' : 'missed'}`);
    console.log(`timeouts,${result.timeouts},0,${result.timeouts === 0 ? 'met' : 'missed'}`);
    return p99Met && rateMet && result.errors === 0 && result.timeouts === 0;
  } finally {
    await server.stop();
  }
}
