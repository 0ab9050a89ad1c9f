import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, DataDirLock } from './data-dir-lock.js';

// other processes take the lock through the built module (npm test builds first)
const BUILT = fileURLToPath(new URL('../../../dist/store/sql/data-dir-lock.js', import.meta.url));

let dir: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** A process that tries to take the lock of `dir`, says "held" or "refused <message>", and stays alive holding it. */
function contender(): { child: ChildProcess; outcome: Promise<string> } {
  const script = `import(${JSON.stringify(BUILT)}).then((m) => m.DataDirLock.acquire(${JSON.stringify(dir)})).then(
    () => { console.log('held'); setInterval(() => {}, 1000); },
    (error) => { console.log('refused ' + error.message); process.exit(0); })`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const outcome = new Promise<string>((resolve) => {
    let text = '';
    child.stdout!.on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(text.trim());
    });
  });
  return { child, outcome };
}

const exited = (child: ChildProcess) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)));

describe('DataDirLock', () => {
  it('is held once: a second acquire, even in the same process, is refused until it is released', async () => {
    const lock = await DataDirLock.acquire(dir);
    const refused = await DataDirLock.acquire(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(DataDirInUseError);
    expect((refused as DataDirInUseError).holderPid).toBe(process.pid);
    await lock.release();
    await (await DataDirLock.acquire(dir)).release();
  });

  it('refuses a directory another process holds, naming it, and is free the moment that process dies (kill -9)', async () => {
    const holder = contender();
    expect(await holder.outcome).toBe('held');
    const refused = await DataDirLock.acquire(dir).catch((error: unknown) => error);
    expect((refused as Error).message).toContain(`in use by process ${holder.child.pid}`);
    holder.child.kill('SIGKILL');
    await exited(holder.child);
    await (await DataDirLock.acquire(dir)).release();
  });

  it('lets exactly one of several processes starting at once take it', async () => {
    const contenders = Array.from({ length: 4 }, contender);
    const outcomes = await Promise.all(contenders.map((one) => one.outcome));
    expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.startsWith('refused') && outcome.includes('in use by process'))).toHaveLength(3);
  });

  it('leaves nothing in the data directory', async () => {
    const lock = await DataDirLock.acquire(dir);
    expect(readdirSync(dir)).toEqual(process.platform === 'linux' ? [] : ['.server.lock']);
    await lock.release();
  });
});
