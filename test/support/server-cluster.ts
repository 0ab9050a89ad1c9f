import { afterAll } from 'vitest';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { sharedDeployment } from './services.js';

/**
 * Server processes of one deployment on the real services (Postgres, Redis,
 * NATS): one database schema, key prefix and bus namespace for all of them, so
 * they see each other's data and messages. Kill one with
 * `server.child.kill('SIGKILL')` (its `stop()` drops the shared schema).
 * Every server still running is stopped after the file's tests.
 */
export function useServerCluster(label: string, jwtSecret: string): { start(env?: Record<string, string>): Promise<ServerProcess>; live(): ServerProcess[] } {
  const shared = { ...sharedDeployment(label), JWT_SECRET: jwtSecret };
  const servers: ServerProcess[] = [];
  afterAll(async () => {
    // the last one to stop drops the shared schema
    for (const server of servers.reverse()) await server.stop('SIGKILL').catch(() => undefined);
  });
  return {
    /** `env` adds settings of this process (the deployment's own names always win). */
    async start(env: Record<string, string> = {}) {
      const server = await startServerProcess({ ...env, ...shared });
      servers.push(server);
      return server;
    },
    /** The cluster's servers still running (earlier tests' included). */
    live: () => servers.filter((server) => server.child.exitCode === null && server.child.signalCode === null),
  };
}
