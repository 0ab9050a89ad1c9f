/**
 * Fixed quota windows (spec part 1 §8): a minute window restarts at second :00,
 * a day window at 00:00 UTC. Counter keys embed the window number, so a new
 * window is a new counter and no reset job is needed.
 */
export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

export interface QuotaWindow {
  kind: 'minute' | 'day';
  /** Window number since the epoch. */
  id: number;
  endsAtMs: number;
}

/** The fixed window of `lengthMs` that contains `nowMs`: its number since the epoch and its end. */
export function fixedWindow(nowMs: number, lengthMs: number): { id: number; endsAtMs: number } {
  const id = Math.floor(nowMs / lengthMs);
  return { id, endsAtMs: (id + 1) * lengthMs };
}

export function minuteWindow(nowMs: number): QuotaWindow {
  return kindWindow('minute', nowMs, MINUTE_MS);
}

export function dayWindow(nowMs: number): QuotaWindow {
  return kindWindow('day', nowMs, DAY_MS);
}

// built in one literal rather than spread from fixedWindow's: every request makes one (no temporary object)
function kindWindow(kind: QuotaWindow['kind'], nowMs: number, lengthMs: number): QuotaWindow {
  const id = Math.floor(nowMs / lengthMs);
  return { kind, id, endsAtMs: (id + 1) * lengthMs };
}

/** Counter key of an API key's quota in a window. */
export function keyQuotaCounter(keyId: string, window: QuotaWindow): string {
  return `quota:key:${keyId}:${window.kind === 'minute' ? 'm' : 'd'}:${window.id}`;
}

/** Seconds until the window restarts (at least 1). */
export function secondsUntilReset(window: Pick<QuotaWindow, 'endsAtMs'>, nowMs: number): number {
  return Math.max(1, Math.ceil((window.endsAtMs - nowMs) / 1000));
}

/** First day (UTC, YYYY-MM-DD) of the month containing `nowMs`: the billing period. */
export function monthPeriodStart(nowMs: number): string {
  const date = new Date(nowMs);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)).toISOString().slice(0, 10);
}
