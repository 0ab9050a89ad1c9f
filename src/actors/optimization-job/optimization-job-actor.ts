/**
 * One claimed optimization job as an actor: a serial mailbox in front of the
 * job's state machine. The solver runs outside the mailbox (it takes seconds);
 * its answer comes back as a message. Every transition is written (fenced)
 * before it counts: a write refused because another process claimed the job
 * retires the actor and drops the solver's answer, so each job's outcome is
 * recorded once even when two processes both ran it.
 */
import { Mailbox } from '../../shared/mailbox.js';
import { transition, type JobMessage } from './job-machine.js';
import type { JobError, JobKind, JobRecord, JobState } from '../../domain/optimization-job.js';
import type { JobStatusReply } from './job-protocol.js';

/** Solves a job's problem; throws ApiError for an answer the caller should see as the job's error. */
export type JobSolver = (kind: JobKind, input: unknown, signal: AbortSignal) => Promise<unknown>;

export interface JobActorDeps {
  solve: JobSolver;
  /** Fenced write: the new revision, or undefined when another process claimed the job. */
  persist(id: string, expectedRevision: number, state: JobState): Promise<number | undefined>;
  /** Turns a solver failure into the job's error. */
  describeError(error: unknown, id: string): JobError;
  /** The actor is done (finished, released or fenced off): the host forgets it. */
  onRetired(id: string): void;
  /** Longest a run may take before the job fails with COMPUTATION_TIMEOUT (ms). */
  runTimeoutMs: number;
  /** A write kept failing (the store is away): the job is left to its lease, so another claim runs it again. */
  onWriteFailed(id: string, error: unknown): void;
  /** Pause between attempts of a failed write (ms); default 1 s. */
  writeRetryDelayMs?: number;
  now(): number;
}

/** A solver answer, a lease loss and a release at most; a few spare places. */
const MAILBOX_CAPACITY = 8;
/** Tries of one write before the actor gives the job up to its lease. */
const WRITE_ATTEMPTS = 3;

export class OptimizationJobActor {
  private lifecycle: 'live' | 'retired' = 'live';
  private readonly mailbox = new Mailbox(MAILBOX_CAPACITY);
  private readonly solver = new AbortController();
  private state: JobState;
  private revision: number;

  constructor(
    private readonly record: JobRecord,
    private readonly deps: JobActorDeps,
  ) {
    this.state = record.state;
    this.revision = record.revision;
  }

  get id(): string {
    return this.record.id;
  }

  get isLive(): boolean {
    return this.lifecycle === 'live';
  }

  /** What the job's status request is answered with. */
  snapshot(): JobStatusReply {
    return { id: this.record.id, status: this.state.status, attempts: this.state.attempts, owner: this.state.status === 'running' ? this.state.owner : '' };
  }

  /** Starts solving (the host has claimed the job: the state is `running`). */
  start(): void {
    if (this.state.status !== 'running') throw new Error(`job ${this.record.id} started while ${this.state.status}`);
    const timeout = AbortSignal.timeout(this.deps.runTimeoutMs);
    const signal = AbortSignal.any([this.solver.signal, timeout]);
    void this.deps.solve(this.record.kind, this.record.input, signal).then(
      (result) => this.post({ type: 'solved', result, at: this.at() }),
      (error: unknown) => {
        // a solver stopped because the job left this process has nothing to report
        if (this.solver.signal.aborted) return;
        const described: JobError = timeout.aborted
          ? { code: 'COMPUTATION_TIMEOUT', message: `The job exceeded its time budget of ${Math.round(this.deps.runTimeoutMs / 1000)} s` }
          : this.deps.describeError(error, this.record.id);
        return this.post({ type: 'solve-failed', error: described, at: this.at() });
      },
    )
      // a full mailbox cannot happen with one solver answer per actor; never leave a rejection unhandled
      .catch((error: unknown) => this.giveUp(error));
  }

  /** Hands the job back to the queue (graceful stop); another process finishes it. */
  release(): Promise<void> {
    return this.post({ type: 'release' });
  }

  /** Another process claimed the job (this process's lease ran out): stop without writing. */
  lose(): void {
    void this.mailbox.post(() => this.retire()).catch(() => this.retire());
  }

  private post(message: JobMessage): Promise<void> {
    return this.mailbox.post(() => this.apply(message));
  }

  private async apply(message: JobMessage): Promise<void> {
    if (this.lifecycle === 'retired') return;
    const { state, effects } = transition(this.state, message);
    for (const effect of effects) {
      switch (effect.type) {
        case 'persist': {
          const revision = await this.write(state);
          if (revision === 'unwritten') return;
          if (revision === undefined) {
            this.retire();
            return;
          }
          this.revision = revision;
          this.state = state;
          break;
        }
        case 'stop-solver':
          this.solver.abort();
          break;
        case 'start-solver':
          // the host claims and starts; a claim never reaches a live actor
          throw new Error('optimization job actor received a claim');
        case 'finished':
          this.retire();
          break;
      }
    }
  }

  /** The fenced write, tried a few times while the store fails; 'unwritten' when it never went through. */
  private async write(state: JobState): Promise<number | undefined | 'unwritten'> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.persist(this.record.id, this.revision, state);
      } catch (error) {
        if (attempt >= WRITE_ATTEMPTS) {
          this.giveUp(error);
          return 'unwritten';
        }
        await new Promise((resolve) => setTimeout(resolve, this.deps.writeRetryDelayMs ?? 1_000));
      }
    }
  }

  private giveUp(error: unknown): void {
    this.deps.onWriteFailed(this.record.id, error);
    this.retire();
  }

  private retire(): void {
    if (this.lifecycle === 'retired') return;
    this.lifecycle = 'retired';
    this.solver.abort();
    this.deps.onRetired(this.record.id);
  }

  private at(): string {
    return new Date(this.deps.now()).toISOString();
  }
}
