import { createHash } from 'node:crypto';
import { realpathSync, rmSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';

/** The directory belongs to another live process (its pid when it said so). */
export class DataDirInUseError extends Error {
  constructor(
    readonly dir: string,
    readonly holderPid: number | undefined,
  ) {
    super(
      `the embedded database in ${dir} is in use by ${holderPid === undefined ? 'another process' : `process ${holderPid}`}; stop that process first or use another DATA_DIR (processes share state only through DATABASE_URL, REDIS_URL and NATS_URL)`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** How long a refused newcomer waits for the holder to say its pid (the holder's loop may be busy). */
const HOLDER_REPLY_MS = 1_000;

/**
 * One process per embedded database directory. PGlite is Postgres inside one process, without a postmaster
 * lock of its own, so two servers started on the same DATA_DIR (a second `npm start`, the operator CLI beside a
 * running server) would both write the same data files and corrupt them.
 *
 * The lock is a listening Unix socket named after the directory's real path, in Linux's abstract namespace:
 * binding it is atomic (of any number of processes starting at once exactly one wins), the kernel releases it
 * when its process dies however it dies (no stale lock, no pid that a container reuses), and it leaves no file
 * in the data directory. A refused process connects to it and the holder answers with its pid for the message.
 * Elsewhere (macOS) it is a socket file in the directory, and a file nobody answers on is a crash's leftover,
 * removed once. Limit: one host and one network namespace; replicas sharing a volume need DATABASE_URL.
 * (A pid file would be neither atomic on takeover nor safe against pid reuse; `proper-lockfile` keeps a lock
 * by touching it on a timer and throws when the event loop stalls past its staleness bound.)
 */
export class DataDirLock {
  private constructor(private readonly server: Server) {}

  /** Takes the lock of `dir` (which must exist) or throws DataDirInUseError. */
  static async acquire(dir: string): Promise<DataDirLock> {
    const address = lockAddress(dir);
    for (let attempt = 0; ; attempt++) {
      const server = createServer((socket) => socket.end(`${process.pid}\n`));
      try {
        await listen(server, address);
        // the lock must not keep a process alive that has nothing else to do
        server.unref();
        return new DataDirLock(server);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
        const holder = await holderOf(address);
        if (holder === 'nobody' && !address.startsWith('\0') && attempt === 0) {
          rmSync(address, { force: true });
          continue;
        }
        throw new DataDirInUseError(dir, typeof holder === 'number' ? holder : undefined);
      }
    }
  }

  release(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

function lockAddress(dir: string): string {
  const real = realpathSync(dir);
  if (process.platform === 'linux') return `\0svc-data-dir-${createHash('sha256').update(real).digest('hex').slice(0, 40)}`;
  return join(real, '.server.lock');
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ path: address, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** The holder's pid, 'unknown' when it does not answer in time, 'nobody' when nothing listens (a stale socket file). */
function holderOf(address: string): Promise<number | 'unknown' | 'nobody'> {
  return new Promise((resolve) => {
    let reply = '';
    const socket = connect({ path: address });
    const done = (outcome: number | 'unknown' | 'nobody') => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(HOLDER_REPLY_MS, () => done('unknown'));
    socket.on('data', (chunk) => (reply += chunk.toString()));
    socket.once('end', () => {
      const pid = Number.parseInt(reply, 10);
      done(Number.isInteger(pid) && pid > 0 ? pid : 'unknown');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? 'nobody' : 'unknown'));
  });
}
