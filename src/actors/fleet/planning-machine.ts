/**
 * When a fleet re-plans: the pure state machine behind the debounce. Changes
 * arm a timer that each further change pushes back (up to a longest wait, so a
 * steady trickle of changes still gets plans); at most one search runs at a
 * time, and changes during it lead to one more search after it. Times come in;
 * the actor runs the effects (timers, the search).
 */

/** Quiet time after the last change before re-planning (ms). */
export const DEBOUNCE_MS = 500;
/** Longest a change waits for its plan while changes keep coming (ms). */
export const MAX_WAIT_MS = 3_000;
/** After a failed search (no matrix, workers busy), the next try (ms). */
export const RETRY_MS = 5_000;

export type PlanningState =
  | { kind: 'idle' }
  | { kind: 'waiting'; dueAtMs: number; firstChangeAtMs: number }
  | { kind: 'optimizing'; changedSince: boolean; immediateAfter: boolean };

export type PlanningInput =
  | { type: 'changed'; nowMs: number; immediate: boolean }
  | { type: 'due'; nowMs: number }
  | { type: 'solved'; nowMs: number }
  /** `permanent`: the problem itself is refused (a costing the map cannot route): no retry until the next change. */
  | { type: 'failed'; nowMs: number; permanent: boolean };

export type PlanningEffect = { type: 'arm'; atMs: number } | { type: 'disarm' } | { type: 'optimize' };

export interface PlanningStep {
  state: PlanningState;
  effects: PlanningEffect[];
}

const wait = (dueAtMs: number, firstChangeAtMs: number): PlanningStep => ({
  state: { kind: 'waiting', dueAtMs, firstChangeAtMs },
  effects: [{ type: 'arm', atMs: dueAtMs }],
});

export function planningTransition(state: PlanningState, input: PlanningInput): PlanningStep {
  switch (input.type) {
    case 'changed': {
      if (state.kind === 'optimizing') return { state: { kind: 'optimizing', changedSince: true, immediateAfter: state.immediateAfter || input.immediate }, effects: [] };
      if (input.immediate) return { state: { kind: 'optimizing', changedSince: false, immediateAfter: false }, effects: [{ type: 'disarm' }, { type: 'optimize' }] };
      const first = state.kind === 'waiting' ? state.firstChangeAtMs : input.nowMs;
      return wait(Math.min(input.nowMs + DEBOUNCE_MS, first + MAX_WAIT_MS), first);
    }
    case 'due':
      if (state.kind !== 'waiting') return { state, effects: [] };
      // a timer may fire a few ms early by the wall clock (Node times it from the event loop's clock, read at the
      // start of a busy turn): wait out the rest rather than drop it, or the fleet would wait for ever
      if (input.nowMs < state.dueAtMs) return { state, effects: [{ type: 'arm', atMs: state.dueAtMs }] };
      return { state: { kind: 'optimizing', changedSince: false, immediateAfter: false }, effects: [{ type: 'optimize' }] };
    case 'solved':
      if (state.kind !== 'optimizing') return { state, effects: [] };
      if (!state.changedSince) return { state: { kind: 'idle' }, effects: [] };
      if (state.immediateAfter) return { state: { kind: 'optimizing', changedSince: false, immediateAfter: false }, effects: [{ type: 'optimize' }] };
      return wait(input.nowMs + DEBOUNCE_MS, input.nowMs);
    case 'failed':
      if (state.kind !== 'optimizing') return { state, effects: [] };
      if (input.permanent) return { state: { kind: 'idle' }, effects: [] };
      return wait(input.nowMs + RETRY_MS, input.nowMs);
  }
}
