import type { ApiClient, ApiResponse } from './api-client.js';

/** Real points in Nasr City (the embedded data): a depot and deliveries on named streets. */
export const NASR_CITY_STOPS = [
  { lat: 30.0626, lng: 31.3219 },
  { lat: 30.07, lng: 31.34 },
  { lat: 30.055, lng: 31.33 },
  { lat: 30.0655, lng: 31.3105 },
  { lat: 30.0585, lng: 31.3365 },
  { lat: 30.0675, lng: 31.3285 },
  { lat: 30.0605, lng: 31.3155 },
];

/**
 * A plan whose search runs for its tier's whole budget: 40 stops (the seven above and a grid of 33 more over the
 * district). A search ends early once its best stops improving (src/solvers/vrp/solve.ts stagnationLimitFor:
 * ~30 000 iterations, tens of milliseconds, for the seven stops; 810 000 for these forty), so tests that need a job
 * still running (a kill, a queue, a cap) use this one.
 */
export const LONG_SEARCH_STOPS = [
  ...NASR_CITY_STOPS,
  ...Array.from({ length: 33 }, (_, index) => ({ lat: Number((30.052 + (index % 11) * 0.002).toFixed(4)), lng: Number((31.312 + Math.floor(index / 11) * 0.01 + (index % 2) * 0.003).toFixed(4)) })),
];

/** Polls a job until it is no longer `running`; answers the last response. */
export async function waitForJob(api: ApiClient, jobId: string, token: string, timeoutMs = 60_000): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.get(`/optimize/jobs/${jobId}`, token);
    if (response.body?.status !== 'running' || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
