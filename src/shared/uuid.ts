const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether `value` is a UUID in the canonical 8-4-4-4-12 hex form. Ids of sessions, jobs and fleets
 * are checked with it before they reach a query or a bus subject: anything else names nothing.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
