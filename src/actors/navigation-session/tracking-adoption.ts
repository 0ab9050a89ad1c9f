/**
 * Copies a committed draft's tracking into the session's own long-lived
 * objects instead of keeping the draft's. The session's state changes every
 * second, which is about how often V8 collects young objects: kept whole,
 * every fix's objects would survive into the old generation and drive
 * frequent full collections (50–200 ms pauses at thousands of sessions).
 * Copied, the draft's objects die young and the session's objects stay put.
 *
 * Whoever hands session state out (answers, snapshots) must copy it, since
 * these objects change in place: see `copyProgress`.
 */
import type { AcceptedFix, SessionProgress, SessionTracking } from '../../domain/navigation-session.js';

const FIX_FIELDS = ['lat', 'lng', 'speed', 'heading', 'accuracy', 'capturedAt', 'receivedAt'] as const;

function adoptFix(target: AcceptedFix | null, source: AcceptedFix | null): AcceptedFix | null {
  if (source === null || target === null || target === source) return source;
  const writable = target as unknown as Record<string, unknown>;
  // an absent field is set to undefined, never deleted: `delete` turns the object into a dictionary, whose
  // numbers are then boxed afresh on every fix (and promoted, being held for a second); JSON omits undefined
  for (const field of FIX_FIELDS) if (writable[field] !== source[field]) writable[field] = source[field];
  return target;
}

function adoptProgress(target: SessionProgress | null, source: SessionProgress | null): SessionProgress | null {
  if (source === null || target === null || target === source) return source;
  // field by field: a rest copy of the flat fields was an object per fix, only to be copied again
  target.offRoute = source.offRoute;
  target.arrived = source.arrived;
  target.shapeIndex = source.shapeIndex;
  target.maneuverIndex = source.maneuverIndex;
  target.snapped.lat = source.snapped.lat;
  target.snapped.lng = source.snapped.lng;
  target.distanceToRouteMeters = source.distanceToRouteMeters;
  target.distanceRemainingMeters = source.distanceRemainingMeters;
  target.durationRemainingSeconds = source.durationRemainingSeconds;
  target.distanceToNextManeuverMeters = source.distanceToNextManeuverMeters;
  const nextManeuver = source.nextManeuver;
  if (nextManeuver === null || target.nextManeuver === null) target.nextManeuver = nextManeuver;
  else Object.assign(target.nextManeuver, nextManeuver);
  target.progressFraction = source.progressFraction;
  return target;
}

/** Makes `target` equal to `source`, reusing `target`'s objects; answers `target`. */
export function adoptTracking(target: SessionTracking, source: SessionTracking): SessionTracking {
  if (target === source) return target;
  Object.assign(target.tracker, source.tracker);
  target.fixCount = source.fixCount;
  target.reroutes = source.reroutes;
  target.lastFix = adoptFix(target.lastFix, source.lastFix);
  target.progress = adoptProgress(target.progress, source.progress);
  if (target.recentCommands !== source.recentCommands) target.recentCommands = [...source.recentCommands];
  return target;
}

/** A copy of progress that later fixes cannot change under its reader. */
export function copyProgress(progress: SessionProgress | null): SessionProgress | null {
  if (progress === null) return null;
  return { ...progress, snapped: { ...progress.snapped }, nextManeuver: progress.nextManeuver ? { ...progress.nextManeuver } : null };
}
