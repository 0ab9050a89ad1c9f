/**
 * A timestamp as Postgres writes it in JSON in a UTC session (`2026-11-29T19:43:46.957191+00:00`): its ISO-8601
 * text is a slice of it. A page read as one json_agg text (the place lists) carries two such stamps a row, and
 * parsing each into a Date to print it again was ~3 % of a 50-place page's CPU.
 */
const UTC_TIMESTAMP_TEXT = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(?:\+00:00|Z)$/;

/** ISO-8601 text of a timestamp column (drivers return Date or string). */
export function isoOf(value: Date | string): string {
  if (typeof value === 'string') {
    const utc = UTC_TIMESTAMP_TEXT.exec(value);
    // milliseconds, truncated as Date's parser truncates the digits beyond them
    if (utc) return `${utc[1]}T${utc[2]}.${`${utc[3] ?? ''}000`.slice(0, 3)}Z`;
  }
  return new Date(value).toISOString();
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoOf(value);
}
