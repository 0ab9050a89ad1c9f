/** Community incident kinds (spec part 3 §4.7, the assistant's `report_incident`). */
export const INCIDENT_TYPES = ['accident', 'hazard', 'police', 'camera', 'closure', 'jam'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

export const INCIDENT_VOTES = ['confirm', 'clear'] as const;
export type IncidentVote = (typeof INCIDENT_VOTES)[number];
