/** Feedback report states (spec part 3 §3): open → ack → fixed | unactionable; open may also be closed directly. */
export const FEEDBACK_STATUSES = ['open', 'ack', 'fixed', 'unactionable'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

/** Implicit signals a navigating client sends (spec part 3 §4.8), in the spec's order. */
export const IMPLICIT_SIGNALS = ['reroute', 'u_turn', 'dead_end', 'hard_brake', 'long_stop', 'gps_lost', 'failed_arrival'] as const;
export type ImplicitSignal = (typeof IMPLICIT_SIGNALS)[number];

/** Road edit kinds an operator enters (docs/incidents-feedback.md). */
export const ROAD_EDIT_KINDS = ['closure', 'access_restriction'] as const;
export type RoadEditKind = (typeof ROAD_EDIT_KINDS)[number];
