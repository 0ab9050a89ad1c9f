/**
 * The trips' work queue (docs/traffic.md "Durability and processing"), black-box. Real services: two processes
 * of one deployment; trips are accepted by the first, which is killed (SIGKILL) while it processes them, before
 * its acknowledgements; the JetStream consumer delivers the unacknowledged trips to the second after the ack wait,
 * and every trip is filed exactly once (the observations in the profiles and the held-out set equal the timed
 * segments the trips reported, none doubled). Embedded: the same path on the in-process queue.
 */
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { cairoTime, recentWorkingDay, waitForIngestion } from './support/traffic-trips.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { realServices, sharedDeployment, usingRealServices } from './support/services.js';
import { defaultPattern, driveTrip } from '../src/cli/traffic-simulator.js';

const FROM = { lat: 30.0626, lon: 31.3219 };
const TO = { lat: 30.07, lon: 31.34 };
const TRIPS = 12;
/** The claim's lease and the queue's ack wait of these processes: a killed processor's trips move on after it. */
const LEASE_MS = 5_000;

const servers: ServerProcess[] = [];
afterAll(async () => {
  // the last one to stop drops the shared schema
  for (const server of servers.reverse()) await server.stop('SIGKILL').catch(() => undefined);
});

async function postTrips(server: ServerProcess, label: string): Promise<void> {
  const api = apiClient(server.baseUrl);
  const { token } = await registerUser(api, label);
  const routed = await api.post('/routing/route', { payload: { locations: [FROM, TO] }, includeLabels: false }, token);
  expect(routed.status).toBe(201);
  const day = await recentWorkingDay(api);
  await Promise.all(
    Array.from({ length: TRIPS }, async (_, index) => {
      const trip = driveTrip(routed.body.data.trip.legs[0].shape, { startMs: cairoTime(day, 8, index * 3), baseKph: 40, kind: 'typical', country: 'EG', pattern: defaultPattern(), noiseMeters: 3, seed: 700 + index });
      const response = await api.post('/telemetry/trips', { fixes: trip.fixes, simulated: true, deviceId: `queue-${index}` }, token);
      expect(response.status, JSON.stringify(response.body)).toBe(202);
    }),
  );
}

describe.skipIf(!usingRealServices)('trip queue on JetStream: a processor killed before its acknowledgements', () => {
  it('delivers its trips to another process, which files each exactly once', async () => {
    const deployment: Record<string, string> = { ...sharedDeployment('tq'), JWT_SECRET: 'traffic-queue-test-secret-0123456789abcdef', TRAFFIC_TRIP_LEASE_MS: String(LEASE_MS) };
    const first = await startServerProcess(deployment);
    servers.push(first);
    const sql = postgres(realServices.databaseUrl, { max: 1, connection: { search_path: deployment['DATABASE_SCHEMA']! } });
    let accepted = 0;
    try {
      // A trip is matched in a few milliseconds, so a status poll and a kill race it. The processor is frozen
      // (SIGSTOP) and its rows read directly: killed only while it holds a claimed trip, thawed and frozen again
      // otherwise; another batch is posted should it finish every trip before it was caught holding one.
      let caught = false;
      for (let batch = 0; batch < 3 && !caught; batch++) {
        await postTrips(first, `queue-first-${batch}`);
        accepted += TRIPS;
        const deadline = Date.now() + 120_000;
        while (!caught && Date.now() < deadline) {
          first.child.kill('SIGSTOP');
          const [rows] = await sql`select count(*) filter (where status = 'processing')::int as held, count(*) filter (where status in ('done', 'failed'))::int as finished from traffic_trips`;
          if (rows!.held > 0) caught = true;
          else if (rows!.finished === accepted) break;
          else {
            first.child.kill('SIGCONT');
            await new Promise((resolve) => setTimeout(resolve, 2));
          }
        }
        if (!caught) first.child.kill('SIGCONT');
      }
      expect(caught, 'the first processor was caught holding a claimed trip').toBe(true);
    } finally {
      await sql.end();
    }
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await startServerProcess(deployment);
    servers.push(second);
    const status = await waitForIngestion(apiClient(second.baseUrl), accepted);
    expect(status.trips.done).toBe(accepted);
    expect(status.trips.failed).toBe(0);
    const check = postgres(realServices.databaseUrl, { max: 1, connection: { search_path: deployment['DATABASE_SCHEMA']! } });
    try {
      const [trips] = await check`select count(*)::int as done, coalesce(sum((outcome->>'segments')::int), 0)::int as segments, max(attempts)::int as most_attempts from traffic_trips where status = 'done'`;
      const [profiles] = await check`select coalesce(sum(sample_count), 0)::int as samples from traffic_profiles`;
      const [holdout] = await check`select count(*)::int as traversals from traffic_holdout`;
      expect(trips!.done).toBe(accepted);
      expect(trips!.segments).toBeGreaterThan(accepted * 10);
      // every timed segment of every trip is one observation: none lost, none filed twice
      expect(profiles!.samples + holdout!.traversals).toBe(trips!.segments);
      // the killed process held at least one trip: it was claimed again after its lease
      expect(trips!.most_attempts).toBeGreaterThanOrEqual(2);
    } finally {
      await check.end();
    }
  }, 400_000);
});

describe.skipIf(usingRealServices)('trip queue in process (embedded)', () => {
  it('processes every accepted trip once', async () => {
    const server = await startServerProcess({});
    servers.push(server);
    await postTrips(server, 'queue-embedded');
    const status = await waitForIngestion(apiClient(server.baseUrl), TRIPS);
    expect(status.trips).toMatchObject({ done: TRIPS, failed: 0, queued: 0, processing: 0 });
    expect(status.profiles.samples).toBeGreaterThan(TRIPS * 10);
  }, 400_000);
});
