/**
 * Durable optimization jobs on the real services (Postgres, Redis, NATS): a
 * job accepted by a process that is killed -9 while solving is finished by a
 * process started afterwards, and readable there; a process stopped
 * gracefully hands its job to the other.
 */
import { describe, expect, it } from 'vitest';
import { apiClient, registerUser } from './support/api-client.js';
import { LONG_SEARCH_STOPS, waitForJob } from './support/optimization.js';
import { useServerCluster } from './support/server-cluster.js';
import type { ServerProcess } from './support/server-process.js';

const { start, live } = useServerCluster('jobs', 'optimization-jobs-restart-test-secret-0123456789');

async function waitForLine(server: ServerProcess, predicate: (line: string) => boolean, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = server.output.find(predicate);
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no such line; last output:\n${server.output.slice(-20).join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('optimization jobs across a crash', () => {
  it('a job running on A when A is killed -9 completes on B, started afterwards, and B answers for it', { timeout: 120_000 }, async () => {
    const a = await start();
    const apiA = apiClient(a.baseUrl);
    const { token } = await registerUser(apiA, 'jobs-restart');
    // a balanced search runs about 6 s: A is killed well before it ends
    const accepted = await apiA.post('/optimize/jobs', { stops: LONG_SEARCH_STOPS, numVehicles: 2, tier: 'balanced' }, token);
    expect(accepted.status).toBe(201);
    const { jobId } = accepted.body;
    await waitForLine(a, (line) => line.includes('optimization job started') && line.includes(jobId), 10_000);
    expect((await apiA.get(`/optimize/jobs/${jobId}`, token)).body).toMatchObject({ id: jobId, status: 'running', finishedAt: null });
    // kill -9, leaving the shared schema in place (stop() would drop it)
    const exited = new Promise((resolve) => a.child.once('exit', resolve));
    a.child.kill('SIGKILL');
    await exited;

    const b = await start();
    const apiB = apiClient(b.baseUrl);
    // A's lease (30 s) is still running: B learns A is gone because nobody answers at the job's subject
    const job = await waitForJob(apiB, jobId, token, 60_000);
    expect(job.body, JSON.stringify(job.body).slice(0, 300)).toMatchObject({ id: jobId, kind: 'routes', status: 'completed' });
    expect(job.body.result).toMatchObject({ provider: 'svc-optimize', feasible: true, dropped: [] });
    const visited = job.body.result.routes.flatMap((route: { order: number[] }) => route.order.filter((stop) => stop !== 0));
    expect([...visited].sort((x: number, y: number) => x - y)).toEqual(Array.from({ length: LONG_SEARCH_STOPS.length - 1 }, (_, index) => index + 1));
    expect(b.output.some((line) => line.includes('optimization job taken over') && line.includes(jobId))).toBe(true);
    // finished well before A's lease would have run out
    expect(Date.parse(job.body.finishedAt) - Date.parse(job.body.startedAt)).toBeLessThan(30_000);
  });

  it('a process stopped gracefully (SIGTERM) hands its running job back and another process finishes it', { timeout: 120_000 }, async () => {
    // two servers at least (the survivor of the test before may still run)
    while (live().length < 2) await start();
    const servers = live();
    const { token } = await registerUser(apiClient(servers[0]!.baseUrl), 'jobs-release');
    const accepted = await apiClient(servers[0]!.baseUrl).post('/optimize/jobs', { stops: LONG_SEARCH_STOPS, tier: 'balanced' }, token);
    const { jobId } = accepted.body;
    const startedOn = (server: ServerProcess) => server.output.some((line) => line.includes('optimization job started') && line.includes(jobId));
    // either process may win the claim
    const deadline = Date.now() + 10_000;
    while (!servers.some(startedOn) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const owner = servers.find(startedOn)!;
    expect(owner).toBeDefined();
    const others = servers.filter((server) => server !== owner);
    const apiOther = apiClient(others[0]!.baseUrl);
    // the other reads it while the owner runs it: the owner answers at the job's subject, so it is left alone
    expect((await apiOther.get(`/optimize/jobs/${jobId}`, token)).body).toMatchObject({ id: jobId, status: 'running' });
    // a plain SIGTERM (stop() would also drop the shared schema)
    const exited = new Promise((resolve) => owner.child.once('exit', resolve));
    owner.child.kill('SIGTERM');
    await exited;
    expect(owner.output.some((line) => line.includes('optimization job not released'))).toBe(false);
    const job = await waitForJob(apiOther, jobId, token, 60_000);
    expect(job.body).toMatchObject({ id: jobId, status: 'completed', result: { feasible: true } });
    expect(others.some(startedOn)).toBe(true);
    // handed back, not taken over from a silent owner
    expect(others.some((server) => server.output.some((line) => line.includes('taken over') && line.includes(jobId)))).toBe(false);
  });
});
