import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One process per embedded database directory. PGlite is Postgres in a single process with no postmaster lock of
 * its own, so two servers started on the same DATA_DIR (a second `npm start` in another terminal) would both write
 * the same data files and corrupt them. The lock is a file holding the owner's pid, created exclusively; a lock
 * whose process is gone (a crash, kill -9) is taken over at once, so a restart never waits. Hand-written rather
 * than `proper-lockfile`: that one keeps a lock alive by touching it on a timer and declares it compromised (and
 * throws) when the event loop stalls past its staleness bound; a pid check needs neither.
 */
/** The directory belongs to another live process. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holderPid: number,
  ) {
    super(
      `the embedded database in ${dir} is in use by process ${holderPid}; stop that process first or use another DATA_DIR (processes share state only through DATABASE_URL, REDIS_URL and NATS_URL)`,
    );
    this.name = 'DataDirInUseError';
  }
}

export class DataDirLock {
  private constructor(private readonly path: string) {}

  /** Takes the lock of `dir` (which must exist) or throws naming the process that holds it. */
  static acquire(dir: string): DataDirLock {
    const path = join(dir, 'server.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(path, 'wx', 0o600);
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return new DataDirLock(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const holder = lockHolder(path);
        if (holder !== undefined && holder !== process.pid && isRunning(holder)) {
          throw new DataDirInUseError(dir, holder);
        }
        // the holder is gone (or the file is unreadable half-written junk): the lock is stale
        rmSync(path, { force: true });
      }
    }
    throw new Error(`could not lock ${dir}: another process keeps taking ${path}`);
  }

  release(): void {
    if (lockHolder(this.path) === process.pid) rmSync(this.path, { force: true });
  }
}

function lockHolder(path: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
