/**
 * Several callers' counter hits as one script call: hits on the same counter are summed and sent once, and
 * each caller is answered the value its own hit would have produced had the callers run one after the other,
 * in arrival order — the counter after the batch, less what the hits after it added. Nothing changes for the
 * limits (each request or stream message still sees the count including itself and everything before it,
 * exactly); only fewer keys travel to Redis and fewer `INCRBY`s run there when many callers share a counter
 * (an API key's minute and day quota under every one of its clients' messages).
 */
import type { WindowHit } from './counter-store.js';

export interface CoalescedHits {
  /** One hit per distinct counter, `by` the sum of the batch's hits on it, in order of first appearance. */
  hits: WindowHit[];
  /** Answers each call's values from the values `hits` got, in the calls' own order. */
  answer(counts: readonly number[]): number[][];
}

export function coalesceHits(calls: readonly (readonly WindowHit[])[]): CoalescedHits {
  const slotOfKey = new Map<string, number>();
  const hits: WindowHit[] = [];
  const totals: number[] = [];
  // per hit of every call, flattened: its counter's slot and the batch's total on that counter up to and including it
  const slots: number[] = [];
  const runningTotals: number[] = [];
  for (const call of calls) {
    for (const hit of call) {
      const by = hit.by ?? 1;
      let slot = slotOfKey.get(hit.key);
      if (slot === undefined) {
        slot = hits.length;
        slotOfKey.set(hit.key, slot);
        // the first hit creates a new counter, so its window end is the one the counter gets (as before)
        hits.push({ key: hit.key, windowEndsAtMs: hit.windowEndsAtMs, by: 0 });
        totals.push(0);
      }
      totals[slot] = totals[slot]! + by;
      slots.push(slot);
      runningTotals.push(totals[slot]!);
    }
  }
  for (let slot = 0; slot < hits.length; slot++) hits[slot]!.by = totals[slot]!;
  return {
    hits,
    answer(counts) {
      let flat = 0;
      return calls.map((call) => {
        const values = new Array<number>(call.length);
        for (let index = 0; index < call.length; index++, flat++) {
          const slot = slots[flat]!;
          values[index] = counts[slot]! - totals[slot]! + runningTotals[flat]!;
        }
        return values;
      });
    },
  };
}
