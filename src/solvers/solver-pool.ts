import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { abortReason, FifoSlots } from './fifo-slots.js';
import type { SharedDataSet } from './shared-data.js';
import type * as workerTasks from './worker.js';

/** The task names the worker exports, with their input and output types. */
export type SolverTasks = typeof workerTasks;
export type SolverTaskName = keyof SolverTasks;
type TaskInput<N extends SolverTaskName> = Parameters<SolverTasks[N]>[0];
/** What a task answers: its value, or one of the failures it names (a TaskResult; an async task's, once settled). */
export type TaskAnswer<N extends SolverTaskName> = Awaited<ReturnType<SolverTasks[N]>>;
/** What a task answers when it succeeds. */
export type TaskOutput<N extends SolverTaskName> = Extract<TaskAnswer<N>, { ok: true }>['value'];

export interface SolverPoolOptions {
  /** Worker threads; 0 = one per core. */
  threads: number;
  /** Threads started before the first task (default 1); 0 starts them on demand. */
  minThreads?: number;
  shared?: SharedDataSet;
  /**
   * Most tasks that may wait for a worker at once (default: no bound); one more is refused at once with
   * SlotQueueFullError, which the services answer as 503 SERVER_BUSY with Retry-After.
   */
  maxQueued?: number;
  /**
   * What a caller's abort does to its task once a worker runs it: `terminate` (the default, piscina's way) ends
   * the worker thread and starts a new one; `finish` lets the task run to its end, rejects the caller at once and
   * throws the result away. Restarting a worker costs about a second (the module, the map pack's views, the
   * hierarchies sent again) during which every task queued for it waits: for millisecond tasks such as routes,
   * whose clients often leave (a phone that moved on), finishing is far cheaper. `stop` always terminates.
   */
  runningTaskOnAbort?: 'terminate' | 'finish';
  /** Overrides the worker script (tests). */
  workerFile?: string;
}

/**
 * The compiled worker script. When this module runs from TypeScript sources
 * (vitest), workers still need JavaScript, so they load the build in dist/.
 */
function defaultWorkerFile(): string {
  const here = fileURLToPath(import.meta.url);
  const sibling = here.replace(/solver-pool\.(ts|js)$/, 'worker.js');
  if (existsSync(sibling)) return sibling;
  return fileURLToPath(new URL('../../dist/solvers/worker.js', import.meta.url));
}

/** Named solver tasks on piscina worker threads, sharing read-only data by reference. */
export class SolverPool {
  private readonly piscina: Piscina;
  /** One slot per worker: tasks wait here, first come first served, not in piscina's queue (see FifoSlots). */
  private readonly slots: FifoSlots;
  private readonly finishOnAbort: boolean;
  private inFlight = 0;
  /** When a task last started or finished (ms since epoch): the pool's sign of progress. */
  private lastActivityAt = 0;

  constructor(options: SolverPoolOptions) {
    const threads = options.threads > 0 ? options.threads : availableParallelism();
    this.slots = new FifoSlots(threads, options.maxQueued);
    this.finishOnAbort = options.runningTaskOnAbort === 'finish';
    this.piscina = new Piscina({
      filename: options.workerFile ?? defaultWorkerFile(),
      minThreads: Math.min(options.minThreads ?? 1, threads),
      maxThreads: threads,
      idleTimeout: 60_000,
      workerData: { shared: options.shared ?? {} },
    });
  }

  get threads(): number {
    return this.piscina.threads.length;
  }

  /** The worker threads' ids: a thread that was ended and replaced shows as a new id. */
  get threadIds(): number[] {
    return this.piscina.threads.map((thread) => thread.threadId);
  }

  /**
   * Runs one task. `signal` is the caller's: aborted while the task waits for a worker, the task never runs;
   * aborted while it runs, see `runningTaskOnAbort`. `stop` (say, a time budget) ends a running task's worker
   * whatever that option says: only a new thread stops a runaway computation. `unbounded` lets a task the server
   * itself needs (a hierarchy build, a health probe) wait even when the line is full. `onSettled` is called once
   * the pool is done with the task: it ended in its worker, or it never reached one. A task whose caller left is
   * still running until then, so a budget timer must live until `onSettled`, not until the caller's answer.
   */
  async run<N extends SolverTaskName>(
    name: N,
    input: TaskInput<N>,
    signal?: AbortSignal,
    { unbounded = false, stop, onSettled }: { unbounded?: boolean; stop?: AbortSignal; onSettled?: () => void } = {},
  ): Promise<TaskAnswer<N>> {
    this.inFlight++;
    this.lastActivityAt = Date.now();
    const settled = () => {
      this.inFlight--;
      this.lastActivityAt = Date.now();
      onSettled?.();
    };
    let running: Promise<TaskAnswer<N>>;
    try {
      await this.slots.acquire(signal, !unbounded);
      try {
        // the caller may have left between its turn coming and now: run nothing for nobody
        if (signal?.aborted) throw abortReason(signal);
        // the signal piscina gets ends the worker of a running task
        const terminateOn = this.finishOnAbort ? stop : stop && signal ? AbortSignal.any([stop, signal]) : (stop ?? signal);
        running = this.piscina.run(input, { name, ...(terminateOn ? { signal: terminateOn } : {}) }) as Promise<TaskAnswer<N>>;
      } catch (error) {
        this.slots.release();
        throw error;
      }
    } catch (error) {
      settled();
      throw error;
    }
    // the slot is the worker's until the task ends, even when its caller has stopped waiting for it
    const ended = () => {
      this.slots.release();
      settled();
    };
    running.then(ended, ended);
    return await (this.finishOnAbort && signal ? abandonOnAbort(running, signal) : running);
  }

  /**
   * Whether the workers are alive: a trivial task answers, or, while they are busy (a hierarchy
   * being built, an optimization search), they have shown progress within `progressWindowMs`.
   * A probe queued behind long tasks says nothing about their health, so busy-and-progressing
   * counts as alive.
   */
  async probe(progressWindowMs: number): Promise<void> {
    if (this.inFlight > 0 && Date.now() - this.lastActivityAt < progressWindowMs) return;
    // never refused: a full line is a busy pool, not a dead one
    const result = await this.run('describeSharedData', undefined, undefined, { unbounded: true });
    if (!result.ok) throw new Error(`worker probe failed: ${result.code}`);
  }

  async close(): Promise<void> {
    await this.piscina.close();
  }
}

/**
 * The task's outcome, or a rejection with the signal's reason as soon as it aborts (the task itself goes on, e.g.
 * for other callers sharing it).
 */
export function abandonOnAbort<T>(task: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    task.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
