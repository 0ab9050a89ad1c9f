import { describe, expect, it } from 'vitest';
import { DEBOUNCE_MS, MAX_WAIT_MS, planningTransition, type PlanningState } from './planning-machine.js';

describe('planningTransition', () => {
  it('re-plans once changes go quiet, at the latest MAX_WAIT_MS after the first', () => {
    let step = planningTransition({ kind: 'idle' }, { type: 'changed', nowMs: 0, immediate: false });
    expect(step.effects).toEqual([{ type: 'arm', atMs: DEBOUNCE_MS }]);
    for (let at = 400; at < MAX_WAIT_MS; at += 400) step = planningTransition(step.state, { type: 'changed', nowMs: at, immediate: false });
    expect(step.state).toMatchObject({ kind: 'waiting', dueAtMs: MAX_WAIT_MS });
    step = planningTransition(step.state, { type: 'due', nowMs: MAX_WAIT_MS });
    expect(step.effects).toEqual([{ type: 'optimize' }]);
  });

  it('a timer that fires early by the wall clock is armed again for the rest, not dropped', () => {
    const waiting: PlanningState = { kind: 'waiting', dueAtMs: 1_000, firstChangeAtMs: 500 };
    const early = planningTransition(waiting, { type: 'due', nowMs: 997 });
    expect(early).toEqual({ state: waiting, effects: [{ type: 'arm', atMs: 1_000 }] });
    expect(planningTransition(early.state, { type: 'due', nowMs: 1_001 }).effects).toEqual([{ type: 'optimize' }]);
  });

  it('changes during a search lead to one more search after it', () => {
    let step = planningTransition({ kind: 'idle' }, { type: 'changed', nowMs: 0, immediate: true });
    expect(step.effects).toContainEqual({ type: 'optimize' });
    step = planningTransition(step.state, { type: 'changed', nowMs: 10, immediate: false });
    expect(step.effects).toEqual([]);
    step = planningTransition(step.state, { type: 'solved', nowMs: 100 });
    expect(step.effects).toEqual([{ type: 'arm', atMs: 100 + DEBOUNCE_MS }]);
  });
});
