import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initialTrackerState } from '../../solvers/navigation/progress-tracker.js';
import type { AcceptedFix, SessionProgress, SessionTracking } from '../../domain/navigation-session.js';
import { adoptTracking, copyProgress } from './tracking-adoption.js';

const fix = fc.record(
  {
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lng: fc.double({ min: -180, max: 180, noNaN: true }),
    speed: fc.double({ min: 0, max: 50, noNaN: true }),
    heading: fc.double({ min: 0, max: 360, noNaN: true }),
    capturedAt: fc.constant('2026-11-23T10:00:00.000Z'),
    receivedAt: fc.constant('2026-11-23T10:00:01.000Z'),
  },
  { requiredKeys: ['lat', 'lng', 'receivedAt'] },
) as fc.Arbitrary<AcceptedFix>;

const maneuver = fc.record({ index: fc.nat(50), type: fc.nat(38), instruction: fc.string(), verbalAlert: fc.string(), cumulativeMeters: fc.nat(9000), lat: fc.double({ noNaN: true }), lng: fc.double({ noNaN: true }) });

const progress: fc.Arbitrary<SessionProgress> = fc.record({
  offRoute: fc.boolean(),
  arrived: fc.boolean(),
  shapeIndex: fc.nat(500),
  maneuverIndex: fc.nat(50),
  snapped: fc.record({ lat: fc.double({ noNaN: true }), lng: fc.double({ noNaN: true }) }),
  distanceToRouteMeters: fc.nat(1000),
  distanceRemainingMeters: fc.nat(9000),
  durationRemainingSeconds: fc.nat(900),
  distanceToNextManeuverMeters: fc.option(fc.nat(900)),
  nextManeuver: fc.option(maneuver),
  progressFraction: fc.double({ min: 0, max: 1, noNaN: true }),
});

const tracking: fc.Arbitrary<SessionTracking> = fc.record({
  tracker: fc.record({ alongMeters: fc.option(fc.nat(9000), { nil: undefined }), offRouteStreak: fc.nat(3), approached: fc.integer({ min: -1, max: 40 }), completed: fc.nat(40), arrived: fc.boolean() }),
  fixCount: fc.nat(10_000),
  lastFix: fc.option(fix),
  progress: fc.option(progress),
  reroutes: fc.nat(9),
  recentCommands: fc.array(fc.record({ id: fc.uuid(), fromSeq: fc.nat(99), toSeq: fc.nat(99), accepted: fc.nat(50), rerouted: fc.boolean() }), { maxLength: 4 }),
});

describe('adoptTracking', () => {
  it('makes the session tracking equal to the draft, whatever both were', () => {
    fc.assert(
      fc.property(tracking, tracking, (before, draft) => {
        const target = structuredClone(before);
        const expected = structuredClone(draft);
        const adopted = adoptTracking(target, draft);
        expect(adopted).toBe(target);
        expect(JSON.parse(JSON.stringify(adopted))).toEqual(JSON.parse(JSON.stringify(expected)));
      }),
    );
  });

  it('keeps the session objects (the draft objects can be collected young)', () => {
    const target: SessionTracking = { tracker: initialTrackerState(), fixCount: 1, lastFix: { lat: 1, lng: 2, receivedAt: 'a' }, progress: null, reroutes: 0, recentCommands: [] };
    const { tracker, lastFix } = target;
    adoptTracking(target, { ...target, tracker: { ...tracker, completed: 3 }, lastFix: { lat: 5, lng: 6, speed: 7, receivedAt: 'b' }, fixCount: 2 });
    expect(target.tracker).toBe(tracker);
    expect(target.lastFix).toBe(lastFix);
    expect(target.lastFix).toEqual({ lat: 5, lng: 6, speed: 7, receivedAt: 'b' });
  });

  it('hands out copies of progress that a later fix does not change', () => {
    fc.assert(
      fc.property(progress, progress, (first, second) => {
        const session: SessionTracking = { tracker: initialTrackerState(), fixCount: 0, lastFix: null, progress: structuredClone(first), reroutes: 0, recentCommands: [] };
        const handedOut = copyProgress(session.progress);
        const frozen = JSON.stringify(handedOut);
        adoptTracking(session, { ...session, progress: second });
        expect(JSON.stringify(handedOut)).toBe(frozen);
      }),
    );
  });
});
