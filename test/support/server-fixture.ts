import { afterAll, beforeAll } from 'vitest';
import { apiClient, type ApiClient } from './api-client.js';
import { startServerProcess, type ServerProcess } from './server-process.js';

/**
 * Starts one server process for the test file (before all, stopped after all).
 * `api` can be taken at module level: it forwards to the client of the started server.
 */
export function useServer(env: Record<string, string | undefined> = {}): { readonly server: ServerProcess; readonly api: ApiClient } {
  let server: ServerProcess | undefined;
  let client: ApiClient | undefined;
  beforeAll(async () => {
    server = await startServerProcess(env);
    client = apiClient(server.baseUrl);
  });
  afterAll(async () => {
    await server?.stop();
  });
  const current = (): ApiClient => {
    if (!client) throw new Error('server not started yet');
    return client;
  };
  const api: ApiClient = {
    get: (...args) => current().get(...args),
    post: (...args) => current().post(...args),
    patch: (...args) => current().patch(...args),
    delete: (...args) => current().delete(...args),
  };
  return {
    get server() {
      if (!server) throw new Error('server not started yet');
      return server;
    },
    api,
  };
}
