/**
 * What a report can say (spec part 3 §4.8; the list is designed, docs/incidents-feedback.md). Blocking
 * categories become routing avoidances once an editor acknowledges them (spec part 3 §3).
 */
import { IMPLICIT_SIGNALS, type ImplicitSignal } from '../../domain/feedback.js';

export interface FeedbackCategory {
  id: string;
  label: string;
  blocking: boolean;
  description: string;
}

export const FEEDBACK_CATEGORIES: readonly FeedbackCategory[] = [
  { id: 'road_closed', label: 'Road closed', blocking: true, description: 'The road cannot be driven (works, barrier, flooding)' },
  { id: 'missing_road', label: 'Road missing or not passable', blocking: true, description: 'The map shows a road that does not exist or cannot be used' },
  { id: 'illegal_maneuver', label: 'Illegal maneuver', blocking: true, description: 'The route asked for a turn or entry that is not allowed' },
  { id: 'hazard', label: 'Hazard', blocking: true, description: 'A lasting danger on the road (collapsed surface, open trench)' },
  { id: 'wrong_turn_instruction', label: 'Wrong instruction', blocking: false, description: 'The spoken or shown instruction did not match the road' },
  { id: 'wrong_speed_limit', label: 'Wrong speed limit', blocking: false, description: 'The shown speed limit is not the posted one' },
  { id: 'wrong_road_name', label: 'Wrong road name', blocking: false, description: 'A road is named wrongly' },
  { id: 'wrong_eta', label: 'Wrong arrival time', blocking: false, description: 'The arrival time was far off' },
  { id: 'wrong_address', label: 'Wrong address or place', blocking: false, description: 'An address or place is misplaced or wrong' },
  { id: 'other', label: 'Other', blocking: false, description: 'Anything else' },
];
export const FEEDBACK_CATEGORY_IDS = FEEDBACK_CATEGORIES.map((category) => category.id) as [string, ...string[]];
export const BLOCKING_CATEGORIES: readonly string[] = FEEDBACK_CATEGORIES.filter((category) => category.blocking).map((category) => category.id);

/** How much a source is trusted (problem-spot score weight); a source not listed counts 0.5. */
export const SOURCE_TRUST: ReadonlyMap<string, number> = new Map([
  ['editor', 1],
  ['nav_chip', 0.9],
  ['post_trip', 0.8],
  ['map_report', 0.8],
  ['voice', 0.7],
  ['api', 0.6],
  ['implicit', 0.4],
]);
export const DEFAULT_SOURCE_TRUST = 0.5;

/** Severity (1–5 scale of explicit reports) an implicit signal counts as in problem spots. */
export const SIGNAL_SEVERITY: Record<ImplicitSignal, number> = {
  reroute: 1,
  u_turn: 2,
  dead_end: 3,
  hard_brake: 2,
  long_stop: 1,
  gps_lost: 1,
  failed_arrival: 2,
};

export { IMPLICIT_SIGNALS };
