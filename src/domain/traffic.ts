/** Records of the learned traffic model shared by its store and services (docs/traffic.md). */

export const PROFILE_TYPES = ['ramadan', 'holiday', 'weekend', 'typical'] as const;
export type ProfileType = (typeof PROFILE_TYPES)[number];

/** Sums kept per profile row: means and spreads are derived, never stored. */
export interface ProfileSums {
  sampleCount: number;
  simulatedCount: number;
  speedSum: number;
  speedSqSum: number;
  ratioSum: number;
  freeFlowKph: number;
}

/** Where a sample is filed: a segment (its road's country and midpoint) under a type, local weekday (-1: all weekdays) and local hour. */
export interface ProfileSlot {
  segmentKey: string;
  profileType: ProfileType;
  dow: number;
  hour: number;
  country: string;
  lat: number;
  lng: number;
}

/** One stored profile. */
export interface ProfileRow extends ProfileSums, ProfileSlot {}

/** One fix of a contributed trip: position and epoch milliseconds. */
export interface TripFix {
  lat: number;
  lng: number;
  t: number;
}

/** One timed segment traversal filed into the model. */
export interface FiledObservation extends ProfileSlot {
  speedKph: number;
  freeFlowKph: number;
  observedAt: number;
}

export interface QueuedTrip {
  id: string;
  contributor: string;
  simulated: boolean;
  holdout: boolean;
  fixes: TripFix[];
  attempts: number;
}
