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

/** Polls a job until it is no longer `running`; answers the last response. */
export async function waitForJob(api: ApiClient, jobId: string, token: string, timeoutMs = 60_000): Promise<ApiResponse> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await api.get(`/optimize/jobs/${jobId}`, token);
    if (response.body?.status !== 'running' || Date.now() > deadline) return response;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
