/** ISO-8601 text of a timestamp column (drivers return Date or string). */
export function isoOf(value: Date | string): string {
  return new Date(value).toISOString();
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : isoOf(value);
}
