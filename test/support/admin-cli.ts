import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built CLI of dist/cli (`admin`, `ingest`) with the given environment over the test's. */
function runBuiltCli(name: 'admin' | 'ingest', args: string[], env: Record<string, string>): Promise<CliRun> {
  const cli = fileURLToPath(new URL(`../../dist/cli/${name}.js`, import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cli, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs `npm run admin -- ...args` (the built CLI) with the given environment. */
export function runAdminCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return runBuiltCli('admin', args, env);
}

/** Runs `npm run ingest -- ...args` (the built CLI) with the given environment. */
export function runIngestCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return runBuiltCli('ingest', args, env);
}
