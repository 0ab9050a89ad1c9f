#!/usr/bin/env node
/**
 * Regenerates src/schema.ts from the OpenAPI document the built server serves (`npm run client:generate`):
 * starts dist/main.js on a free loopback port with the embedded defaults, reads /api/v1/openapi.json, runs
 * openapi-typescript over it and stops the server. test/typescript-client.int.test.ts fails when the
 * committed file no longer matches what the server serves.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderSchema } from './render-schema.mjs';

const main = fileURLToPath(new URL('../../../dist/main.js', import.meta.url));
const target = fileURLToPath(new URL('../src/schema.ts', import.meta.url));

const child = spawn(process.execPath, [main], {
  env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: 'memory://', WORKER_THREADS: '1', DATABASE_URL: '', REDIS_URL: '', NATS_URL: '', LOG_LEVEL: 'info' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const port = await new Promise((resolve, reject) => {
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      pending += chunk;
      for (const line of pending.split('\n')) if (line.includes('"msg":"listening"')) resolve(JSON.parse(line).port);
      pending = pending.slice(pending.lastIndexOf('\n') + 1);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const document = await (await fetch(`http://127.0.0.1:${port}/api/v1/openapi.json`)).json();
  writeFileSync(target, await renderSchema(document));
  console.log(`wrote ${target}`);
} finally {
  child.kill('SIGTERM');
}
