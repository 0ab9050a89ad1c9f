import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLock } from './data-dir-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'data-dir-lock-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockFile = () => join(dir, 'server.lock');

/** A process that is alive for the test's duration; resolves with its pid and a way to end it. */
async function otherProcess(): Promise<{ pid: number; end(): Promise<void> }> {
  const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('spawn', resolve));
  return {
    pid: child.pid!,
    end: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

describe('DataDirLock', () => {
  it('writes the owner pid and removes the file on release', () => {
    const lock = DataDirLock.acquire(dir);
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
    expect(existsSync(lockFile())).toBe(false);
  });

  it('refuses a directory another live process holds, naming that process', async () => {
    const holder = await otherProcess();
    try {
      writeFileSync(lockFile(), `${holder.pid}\n`);
      expect(() => DataDirLock.acquire(dir)).toThrow(new RegExp(`in use by process ${holder.pid}`));
      expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(holder.pid));
    } finally {
      await holder.end();
    }
  });

  it('takes over the lock of a process that is gone (crash, kill -9), and of an unreadable lock file', async () => {
    const gone = await otherProcess();
    await gone.end();
    writeFileSync(lockFile(), `${gone.pid}\n`);
    DataDirLock.acquire(dir).release();
    writeFileSync(lockFile(), 'not a pid');
    const lock = DataDirLock.acquire(dir);
    expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(process.pid));
    lock.release();
  });

  it('release leaves a lock that another process has taken since', async () => {
    const lock = DataDirLock.acquire(dir);
    const other = await otherProcess();
    try {
      writeFileSync(lockFile(), `${other.pid}\n`);
      lock.release();
      expect(readFileSync(lockFile(), 'utf8').trim()).toBe(String(other.pid));
    } finally {
      await other.end();
    }
  });
});
