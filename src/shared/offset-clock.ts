import { readFileSync } from 'node:fs';

/** Epoch milliseconds now. */
export type Clock = () => number;

/**
 * The wall clock, or (tests, `CLOCK_OFFSET_FILE`) the wall clock plus the milliseconds the file holds,
 * read at every call so a test moves time by writing the file. A missing or unreadable file is no offset.
 */
export function offsetClock(offsetFile: string | undefined): Clock {
  if (!offsetFile) return Date.now;
  return () => {
    let offset = 0;
    try {
      const parsed = Number(readFileSync(offsetFile, 'utf8').trim());
      if (Number.isFinite(parsed)) offset = parsed;
    } catch {
      // no file yet: no offset
    }
    return Date.now() + offset;
  };
}
