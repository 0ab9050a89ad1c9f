/**
 * A started server and a user with role admin on it. With the real services the role is granted beside the
 * running server; the embedded database is one process's, so there the server is started, the user registered,
 * the server stopped, the role granted with the CLI and the server started again on the same directory.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runAdminCli } from './admin-cli.js';
import { apiClient, registerUser, type ApiClient } from './api-client.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { sharedDeployment, usingRealServices } from './services.js';

export interface ServerWithAdmin {
  server: ServerProcess;
  api: ApiClient;
  admin: Awaited<ReturnType<typeof registerUser>>;
  /** Stops the server and removes the embedded data directory. */
  stop(): Promise<void>;
}

/** `env`: extra server settings (e.g. a webhook secret), given to every start (both starts on the embedded database). */
export async function startServerWithAdmin(label: string, env: Record<string, string> = {}): Promise<ServerWithAdmin> {
  let server: ServerProcess;
  let admin: ServerWithAdmin['admin'];
  let dataDir: string | undefined;
  if (usingRealServices) {
    const deployment = sharedDeployment(label);
    server = await startServerProcess({ ...deployment, ...env });
    admin = await registerUser(apiClient(server.baseUrl), `${label}-operator`);
    const granted = await runAdminCli(['grant-role', admin.email, 'admin'], { DATABASE_URL: deployment.DATABASE_URL!, DATABASE_SCHEMA: deployment.DATABASE_SCHEMA! });
    expect(granted.code, granted.stderr).toBe(0);
  } else {
    dataDir = mkdtempSync(join(tmpdir(), `${label}-`));
    const first = await startServerProcess({ DATA_DIR: dataDir, ...env });
    admin = await registerUser(apiClient(first.baseUrl), `${label}-operator`);
    await first.stop();
    const granted = await runAdminCli(['grant-role', admin.email, 'admin'], { DATA_DIR: dataDir });
    expect(granted.code, granted.stderr).toBe(0);
    server = await startServerProcess({ DATA_DIR: dataDir, ...env });
  }
  return {
    server,
    api: apiClient(server.baseUrl),
    admin,
    async stop() {
      await server.stop().catch(() => undefined);
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
