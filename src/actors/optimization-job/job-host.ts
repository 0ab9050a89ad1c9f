/**
 * Where optimization jobs run: this process's job actors, their bus
 * addresses, and the dispatcher that claims work. A process claims a job when
 * it has a free slot and the job is queued, or its owner is gone — the lease
 * ran out, or nobody answers at the job's subject (NO_RESPONDERS: the owner
 * died before its lease did). Claims are fenced writes, so two processes
 * reaching for one job settle it in the store: one runs it, the other moves on.
 * At start a process claims what was accepted but not finished before a crash.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { BusError, decodeJson, encodeJson, type Bus, type BusSubscription } from '../runtime/bus/bus.js';
import type { Subjects } from '../runtime/subjects.js';
import type { Logger } from '../../shared/logger.js';
import type { InsertOutcome, OpenJobLimits, OptimizationJobRepository } from '../../store/pg/optimization-jobs.js';
import { transition } from './job-machine.js';
import type { JobError, JobRecord } from '../../domain/optimization-job.js';
import type { JobExchange, JobReply, JobsQueued, JobStatusRequest } from './job-protocol.js';
import { requestReply } from '../runtime/actor-protocol.js';
import { OptimizationJobActor, type JobSolver } from './optimization-job-actor.js';

export interface JobHostOptions {
  bus: Bus;
  subjects: Subjects;
  repository: OptimizationJobRepository;
  solve: JobSolver;
  describeError(error: unknown, id: string): JobError;
  logger: Logger;
  /** Jobs this process runs at once. */
  concurrency: number;
  /** Lease length the repository writes (ms); renewed every third of it. */
  leaseMs: number;
  /** Longest one run of a job may take (ms). */
  runTimeoutMs: number;
  /** How often the queue and the owners of running jobs are checked (ms). */
  pollIntervalMs?: number;
  /** A job claimed less than this long ago is not probed: its owner may still be subscribing (ms). */
  probeGraceMs?: number;
  now?: () => number;
}

interface Hosted {
  actor: OptimizationJobActor;
  subscription: BusSubscription;
}

/** Timings of the dispatcher (ms) and how many owners one poll asks about. */
const DISPATCH = Object.freeze({
  defaultPollIntervalMs: 2_000,
  defaultProbeGraceMs: 3_000,
  sweepIntervalMs: 60_000,
  /** More running jobs are reached on the next polls. */
  probesPerPoll: 20,
  probeTimeoutMs: 1_000,
  /** Clients poll jobs: their reads start a probe at most this often per process. */
  readProbeIntervalMs: 1_000,
});

export class OptimizationJobHost {
  /** Identifies this process as a job's owner in the store. */
  readonly processId = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly hosted = new Map<string, Hosted>();
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly now: () => number;
  private queuedSubscription: BusSubscription | undefined;
  private pumping: Promise<void> | undefined;
  private pumpAgain = false;
  /** Claims being written: their slots are taken already. */
  private claiming = 0;
  private probing: Promise<void> | undefined;
  private lastProbeMs = 0;
  private closed = false;

  constructor(private readonly options: JobHostOptions) {
    this.now = options.now ?? Date.now;
  }

  get runningCount(): number {
    return this.hosted.size;
  }

  /** Listens for new jobs, starts the timers, and claims jobs left unfinished by processes that died. */
  start(): void {
    const { bus, subjects, leaseMs } = this.options;
    this.queuedSubscription = bus.subscribe(subjects.optimizationJobsQueued(), (message) => {
      if (decodeJson<JobsQueued>(message.data).origin !== this.processId) this.pump();
    });
    const every = (intervalMs: number, work: () => Promise<unknown>) => {
      const timer = setInterval(() => void work().catch((error: unknown) => this.options.logger.warn({ err: error }, 'optimization job upkeep failed')), intervalMs);
      timer.unref();
      this.timers.push(timer);
    };
    const pollIntervalMs = this.options.pollIntervalMs ?? DISPATCH.defaultPollIntervalMs;
    every(pollIntervalMs, async () => {
      this.pump();
      await this.probeOwners();
    });
    every(Math.max(100, Math.floor(leaseMs / 3)), () => this.renewLeases());
    every(DISPATCH.sweepIntervalMs, async () => {
      const deleted = await this.options.repository.deleteExpired();
      if (deleted > 0) this.options.logger.info({ deleted }, 'expired optimization jobs deleted');
    });
    this.pump();
    void this.probeOwners();
  }

  /** Stores a queued job (within the limits) and gets it claimed: here when a slot is free, else by any process. */
  async submit(record: JobRecord, limits: OpenJobLimits): Promise<InsertOutcome> {
    const outcome = await this.options.repository.insertWithinLimits(record, limits);
    if (!outcome.inserted) return outcome;
    this.pump();
    try {
      this.options.bus.publish(this.options.subjects.optimizationJobsQueued(), encodeJson({ origin: this.processId } satisfies JobsQueued));
    } catch (error) {
      // the job is stored; other processes find it at their next poll
      this.options.logger.warn({ err: error }, 'optimization job wake-up not published');
    }
    return outcome;
  }

  /** The job as stored, wherever it runs. Reading a job running elsewhere checks that its owner is alive. */
  async read(id: string): Promise<JobRecord | undefined> {
    const record = await this.options.repository.load(id);
    if (record?.state.status === 'running' && record.state.owner !== this.processId && this.now() - this.lastProbeMs >= DISPATCH.readProbeIntervalMs) void this.probeOwners();
    return record;
  }

  /** Stops claiming and hands this process's running jobs back to the queue for the others. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.queuedSubscription?.unsubscribe();
    await Promise.all([this.pumping, this.probing].map((pass) => pass?.catch(() => undefined)));
    await Promise.all(
      [...this.hosted.values()].map(({ actor }) =>
        actor.release().catch((error: unknown) => this.options.logger.warn({ err: error, jobId: actor.id }, 'optimization job not released')),
      ),
    );
    for (const id of [...this.hosted.keys()]) this.forget(id);
  }

  /** Claims jobs while slots are free; one pass at a time, re-run when asked during a pass. */
  private pump(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    this.pumping = (async () => {
      do {
        this.pumpAgain = false;
        await this.claimFromQueue();
      } while (this.pumpAgain && !this.closed);
    })()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'optimization job claim failed'))
      .finally(() => (this.pumping = undefined));
  }

  private async claimFromQueue(): Promise<void> {
    while (!this.closed && this.freeSlots() > 0) {
      // a few extra candidates: other processes may win some of them
      const candidates = (await this.options.repository.claimable(this.freeSlots() + 4)).filter((record) => !this.hosted.has(record.id));
      if (candidates.length === 0) return;
      let claimedAny = false;
      for (const record of candidates) {
        if (this.closed || this.freeSlots() === 0) return;
        if (await this.claim(record)) claimedAny = true;
      }
      // every candidate went to other processes: what remains waits for the next signal
      if (!claimedAny) return;
    }
  }

  /** Asks the owners of jobs running elsewhere whether they are alive; claims the jobs of those that are not. */
  private probeOwners(): Promise<void> {
    this.probing ??= (async () => {
      this.lastProbeMs = this.now();
      if (this.closed || this.freeSlots() === 0) return;
      const grace = this.options.probeGraceMs ?? DISPATCH.defaultProbeGraceMs;
      const running = await this.options.repository.runningElsewhere(this.processId, grace, DISPATCH.probesPerPoll);
      for (const record of running) {
        if (this.closed || this.freeSlots() === 0) return;
        if (await this.ownerAnswers(record.id)) continue;
        // the record read before the probe fences the claim: a job finished or claimed meanwhile is left alone
        if (await this.claim(record)) this.options.logger.info({ jobId: record.id, processId: this.processId }, 'optimization job taken over from a process that stopped answering');
      }
    })()
      .catch((error: unknown) => this.options.logger.warn({ err: error }, 'optimization job probe failed'))
      .finally(() => (this.probing = undefined));
    return this.probing;
  }

  private async ownerAnswers(id: string): Promise<boolean> {
    try {
      const reply = await requestReply<JobExchange, JobStatusRequest>(this.options.bus, this.options.subjects.optimizationJob(id), { op: 'status' }, { timeoutMs: DISPATCH.probeTimeoutMs });
      return reply.status === 'running';
    } catch (error) {
      // only a definite "nobody is subscribed" proves the owner gone; a slow owner keeps its lease
      return !(error instanceof BusError && error.code === 'NO_RESPONDERS');
    }
  }

  /** One fenced claim; true when this process now runs the job. */
  private async claim(record: JobRecord): Promise<boolean> {
    const { state } = transition(record.state, { type: 'claim', owner: this.processId, at: new Date(this.now()).toISOString() });
    if (state.status !== 'running') {
      // attempts used up: the claim fails the job instead of running it again
      if ((await this.options.repository.write(record.id, record.revision, state)) !== undefined) {
        this.options.logger.warn({ jobId: record.id, attempts: state.attempts }, 'optimization job abandoned after repeated interruptions');
      }
      return false;
    }
    this.claiming++;
    let actor: OptimizationJobActor | undefined;
    // subscribed before the claim is written, so the job is never ours while nobody answers for it
    const subscription = this.options.bus.subscribe(this.options.subjects.optimizationJob(record.id), (message) =>
      message.respond(encodeJson((actor?.snapshot() ?? { id: record.id, status: 'running', attempts: state.attempts, owner: this.processId }) satisfies JobReply<JobStatusRequest>)),
    );
    try {
      const revision = await this.options.repository.write(record.id, record.revision, state);
      if (revision === undefined || this.closed) {
        subscription.unsubscribe();
        // claimed during close: hand it straight back
        if (revision !== undefined) await this.options.repository.write(record.id, revision, transition(state, { type: 'release' }).state);
        return false;
      }
      actor = new OptimizationJobActor(
        { ...record, state, revision },
        {
          solve: this.options.solve,
          persist: (id, expectedRevision, next) => this.options.repository.write(id, expectedRevision, next),
          describeError: this.options.describeError,
          onRetired: (id) => this.forget(id),
          onWriteFailed: (id, error) => this.options.logger.error({ err: error, jobId: id }, 'optimization job state not written; left to its lease'),
          runTimeoutMs: this.options.runTimeoutMs,
          now: this.now,
        },
      );
      this.hosted.set(record.id, { actor, subscription });
    } catch (error) {
      subscription.unsubscribe();
      throw error;
    } finally {
      this.claiming--;
    }
    this.options.logger.info({ jobId: record.id, kind: record.kind, attempt: state.attempts }, 'optimization job started');
    actor.start();
    return true;
  }

  /** Extends the leases of the jobs running here; a job claimed elsewhere meanwhile is dropped here. */
  private async renewLeases(): Promise<void> {
    const ids = [...this.hosted.keys()];
    if (ids.length === 0) return;
    const owned = await this.options.repository.renew(this.processId, ids);
    for (const id of ids) {
      if (owned.has(id)) continue;
      const hosted = this.hosted.get(id);
      // a job that just finished is no longer `running`; only a live actor lost it
      if (hosted?.actor.isLive) {
        this.options.logger.warn({ jobId: id }, 'optimization job lease lost to another process');
        hosted.actor.lose();
      }
    }
  }

  private forget(id: string): void {
    const hosted = this.hosted.get(id);
    if (!hosted) return;
    hosted.subscription.unsubscribe();
    this.hosted.delete(id);
    if (!this.closed) this.pump();
  }

  private freeSlots(): number {
    return this.options.concurrency - this.hosted.size - this.claiming;
  }
}
