/**
 * The assistant's vocabulary (spec part 3 §2.8, §4.7): the actions a client can carry out and the
 * intent a message is read as, whoever reads it (the deterministic parser or a configured model).
 */
export const ASSISTANT_ACTIONS = ['search', 'directions', 'navigate', 'pin', 'locate', 'control', 'itinerary', 'optimize_fleet', 'report_incident', 'answer'] as const;
export type AssistantAction = (typeof ASSISTANT_ACTIONS)[number];

export const CONTROL_TARGETS = ['traffic', 'satellite', '3d', 'transit', 'weather'] as const;
export type ControlTarget = (typeof CONTROL_TARGETS)[number];
export const CONTROL_VALUES = ['on', 'off', 'toggle'] as const;
export type ControlValue = (typeof CONTROL_VALUES)[number];

export const INCIDENT_TYPES = ['accident', 'hazard', 'police', 'camera', 'closure', 'jam'] as const;
export type IncidentType = (typeof INCIDENT_TYPES)[number];

export const ITINERARY_INTERESTS = ['food', 'coffee', 'history', 'museums', 'nature', 'shopping', 'art', 'family', 'nightlife', 'religious', 'sightseeing'] as const;
export type ItineraryInterest = (typeof ITINERARY_INTERESTS)[number];

/** What an `answer` is about: decides how it is grounded. */
export type AnswerTopic = 'traffic_now' | 'traffic_typical' | 'best_departure' | 'greeting' | 'thanks' | 'help' | 'off_topic' | 'unknown';

/** The language replies are written in; Arabizi (Arabic in Latin letters) is answered in Arabic. */
export type ReplyLanguage = 'en' | 'ar';
export type MessageScript = 'latin' | 'arabic' | 'arabizi';

export interface Intent {
  action: AssistantAction;
  /** search, directions, navigate, pin, locate: what to look for (words of the message); report_incident: the type. */
  query?: string;
  target?: ControlTarget;
  value?: ControlValue;
  timeBudgetMin?: number;
  interests?: ItineraryInterest[];
  incidentType?: IncidentType;
  topic?: AnswerTopic;
  /** traffic_typical: the local hour asked about ("tomorrow at 8"), when one was given. */
  hour?: number;
  /** traffic_typical: the question is about tomorrow. */
  tomorrow?: boolean;
  /** traffic_typical: a what-if-it-rains question. */
  rain?: boolean;
}
