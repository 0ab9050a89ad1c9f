import type { ApiClient, ApiResponse } from './api-client.js';
import { PASSWORD } from './api-client.js';
import type { ServerProcess } from './server-process.js';

/** `/ready` of a server: its status and the dependencies it names as failed. */
export async function readiness(server: ServerProcess): Promise<{ status: number; failed: string[] }> {
  const response = await fetch(`${server.baseUrl}/ready`, { signal: AbortSignal.timeout(10_000) });
  const body = (await response.json()) as { details?: { failed?: string[] } };
  return { status: response.status, failed: body.details?.failed ?? [] };
}

/** Probes every 250 ms until `done` holds or `timeoutMs` passes; answers the last value. */
export async function until<T>(probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await probe();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    value = await probe();
  }
  return value;
}

/** Signs `email` in (the test password) as soon as the server can, within `timeoutMs`; answers the last try. */
export function signInWhenBack(api: ApiClient, email: string, timeoutMs = 30_000): Promise<ApiResponse> {
  return until(() => api.post('/auth/login', { email, password: PASSWORD }), (response) => response.status === 201, timeoutMs);
}
