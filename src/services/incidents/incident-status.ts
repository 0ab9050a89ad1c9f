/** An incident's status at a moment: what the API shows, and what the live-only reads keep. */
import type { IncidentRecord } from '../../store/pg/incidents.js';

export type IncidentStatus = 'active' | 'cleared' | 'expired';

/** Cleared by its voices, past its expiry, or live (active) at `nowMs`. */
export function incidentStatusAt(record: Pick<IncidentRecord, 'clearedAt' | 'expiresAt'>, nowMs: number): IncidentStatus {
  if (record.clearedAt) return 'cleared';
  if (record.expiresAt && Date.parse(record.expiresAt) <= nowMs) return 'expired';
  return 'active';
}
