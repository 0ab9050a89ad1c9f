let lastMs = Number.NaN;
let lastText = '';

/**
 * `new Date(ms).toISOString()`, made once per millisecond. Fixes answered together (the sessions whose quota
 * counts came back in one round trip) mostly fall in the same millisecond: they share one text instead of each
 * formatting its own and keeping it (as the fix's `receivedAt`) until the session's next fix.
 */
export function isoTimeAt(ms: number): string {
  if (ms !== lastMs) {
    lastText = new Date(ms).toISOString();
    lastMs = ms;
  }
  return lastText;
}
