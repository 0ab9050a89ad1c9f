import { describe, expect, it } from 'vitest';
import { InvalidJobTransitionError, publicStatus, transition } from './job-machine.js';
import { MAX_JOB_ATTEMPTS } from './job-model.js';
import type { JobState } from '../../domain/optimization-job.js';

const AT = '2026-11-23T04:00:00.000Z';
const queued: JobState = { status: 'queued', attempts: 0 };
const running = (attempts = 1, owner = 'p1'): JobState => ({ status: 'running', attempts, owner });
const effectTypes = (effects: { type: string }[]) => effects.map((effect) => effect.type);

describe('optimization job state machine', () => {
  it('a claim of a queued job makes it running under the claimer, writes, then starts the solver', () => {
    const { state, effects } = transition(queued, { type: 'claim', owner: 'p1', at: AT });
    expect(state).toEqual({ status: 'running', attempts: 1, owner: 'p1' });
    expect(effectTypes(effects)).toEqual(['persist', 'start-solver']);
  });

  it('an orphaned running job is claimed by another process as a new attempt', () => {
    const { state } = transition(running(1, 'dead'), { type: 'claim', owner: 'p2', at: AT });
    expect(state).toEqual({ status: 'running', attempts: 2, owner: 'p2' });
  });

  it('a job whose runs keep ending with their process fails instead of running again', () => {
    const { state, effects } = transition(running(MAX_JOB_ATTEMPTS, 'dead'), { type: 'claim', owner: 'p2', at: AT });
    expect(state).toMatchObject({ status: 'failed', attempts: MAX_JOB_ATTEMPTS, finishedAt: AT, error: { code: 'INTERNAL_ERROR', details: { reason: 'abandoned' } } });
    expect(effectTypes(effects)).toEqual(['persist', 'finished']);
  });

  it('the solver answer completes the job with its result; a solver error fails it with that error', () => {
    const completed = transition(running(), { type: 'solved', result: { feasible: true }, at: AT });
    expect(completed.state).toEqual({ status: 'completed', attempts: 1, result: { feasible: true }, finishedAt: AT });
    expect(effectTypes(completed.effects)).toEqual(['persist', 'finished']);
    const error = { code: 'COSTING_UNAVAILABLE', message: 'no truck data' };
    const failed = transition(running(), { type: 'solve-failed', error, at: AT });
    expect(failed.state).toEqual({ status: 'failed', attempts: 1, error, finishedAt: AT });
  });

  it('a release on a graceful stop queues the job again without counting the interrupted attempt', () => {
    const { state, effects } = transition(running(2), { type: 'release' });
    expect(state).toEqual({ status: 'queued', attempts: 1 });
    expect(effectTypes(effects)).toEqual(['stop-solver', 'persist', 'finished']);
  });

  it('finished jobs are final: no claim, answer or release moves them', () => {
    const ends: JobState[] = [
      { status: 'completed', attempts: 1, result: 1, finishedAt: AT },
      { status: 'failed', attempts: 1, error: { code: 'INTERNAL_ERROR', message: 'x' }, finishedAt: AT },
    ];
    for (const end of ends) {
      expect(() => transition(end, { type: 'claim', owner: 'p', at: AT })).toThrow(InvalidJobTransitionError);
      expect(() => transition(end, { type: 'solved', result: 2, at: AT })).toThrow(InvalidJobTransitionError);
      expect(() => transition(end, { type: 'release' })).toThrow(InvalidJobTransitionError);
    }
    expect(() => transition(queued, { type: 'solved', result: 2, at: AT })).toThrow(InvalidJobTransitionError);
  });

  it('shows a job waiting for a worker as running, as the spec knows only running, completed and failed', () => {
    expect(publicStatus(queued)).toBe('running');
    expect(publicStatus(running())).toBe('running');
    expect(publicStatus({ status: 'completed', attempts: 1, result: 1, finishedAt: AT })).toBe('completed');
  });
});
