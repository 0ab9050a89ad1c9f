import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fifoPatterns, indexPatterns, raptor, type PatternTrip, type RaptorNetwork, type StopAccess, type TransitPattern } from './raptor.js';
import { referenceEarliestArrival } from './raptor-reference.js';

/** A line A–B–C–D and a line E–B'–F where B' is a platform of B one minute's walk away. */
function twoLines(): RaptorNetwork {
  // stops: 0 A, 1 B, 2 C, 3 D, 4 E, 5 B', 6 F
  const trip = (ref: number, start: number, stops: number, hop = 120, dwell = 20): PatternTrip => {
    const arrivals: number[] = [];
    const departures: number[] = [];
    for (let i = 0; i < stops; i++) {
      arrivals.push(start + i * (hop + dwell));
      departures.push(start + i * (hop + dwell) + dwell);
    }
    return { ref, arrivals, departures };
  };
  const patterns: TransitPattern[] = [
    ...fifoPatterns([0, 1, 2, 3], [0, 600, 1200].map((t, i) => trip(i, 1000 + t, 4))),
    ...fifoPatterns([4, 5, 6], [0, 300, 600, 900].map((t, i) => trip(10 + i, 1000 + t, 3))),
  ];
  const footpaths = Array.from({ length: 7 }, () => [] as Array<{ to: number; durationS: number }>);
  footpaths[1]!.push({ to: 5, durationS: 60 });
  footpaths[5]!.push({ to: 1, durationS: 60 });
  return { stopCount: 7, patterns, stopPatterns: indexPatterns(7, patterns), footpaths };
}

describe('raptor', () => {
  it('rides one line: arrival is the timetable arrival plus the egress walk', () => {
    const journey = raptor(twoLines(), { departAt: 900, access: [{ stop: 0, durationS: 60 }], egress: [{ stop: 2, durationS: 30 }] })!;
    // first trip leaves A at 1020, arrives C at 1000 + 2 * 140 = 1280
    expect(journey.arriveAt).toBe(1280 + 30);
    expect(journey.rides).toBe(1);
    expect(journey.parts.map((part) => part.kind)).toEqual(['access', 'ride', 'egress']);
    expect(journey.parts[1]).toMatchObject({ from: 0, to: 2, departAt: 1020, arriveAt: 1280 });
  });

  it('transfers on foot between platforms and waits for the next trip', () => {
    const journey = raptor(twoLines(), { departAt: 900, access: [{ stop: 0, durationS: 60 }], egress: [{ stop: 6, durationS: 0 }] })!;
    // A 1020 → B 1140; walk to B' 1200; E–B'–F trips reach B' at 1140, 1440: the 1440 one leaves at 1460 → F 1580
    expect(journey.parts.map((part) => part.kind)).toEqual(['access', 'ride', 'transfer', 'ride', 'egress']);
    expect(journey.parts[2]).toMatchObject({ from: 1, to: 5, departAt: 1140, arriveAt: 1200 });
    expect(journey.parts[3]).toMatchObject({ from: 5, to: 6, departAt: 1460, arriveAt: 1580 });
    expect(journey.arriveAt).toBe(1580);
    expect(journey.rides).toBe(2);
  });

  it('finds nothing after the last trip and with no rounds left', () => {
    expect(raptor(twoLines(), { departAt: 5000, access: [{ stop: 0, durationS: 0 }], egress: [{ stop: 3, durationS: 0 }] })).toBeUndefined();
    expect(raptor(twoLines(), { departAt: 900, access: [{ stop: 0, durationS: 0 }], egress: [{ stop: 6, durationS: 0 }], maxRounds: 1 })).toBeUndefined();
  });

  it('splits overtaking trips into FIFO patterns', () => {
    const slow: PatternTrip = { ref: 0, arrivals: [0, 1000], departures: [0, 1000] };
    const fast: PatternTrip = { ref: 1, arrivals: [100, 200], departures: [100, 200] };
    expect(fifoPatterns([0, 1], [slow, fast])).toHaveLength(2);
  });

  // random small networks on a plane: walking is metric (access, egress and footpaths
  // between every pair, as RAPTOR assumes transitively closed footpaths), trips are random
  const network = fc
    .record({
      points: fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })), { minLength: 2, maxLength: 7 }),
      lines: fc.array(
        fc.record({
          order: fc.array(fc.nat(), { minLength: 2, maxLength: 5 }),
          trips: fc.array(fc.record({ start: fc.integer({ min: 0, max: 600 }), hops: fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 5, maxLength: 5 }) }), { minLength: 1, maxLength: 4 }),
        }),
        { minLength: 1, maxLength: 4 },
      ),
      origin: fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })),
      destination: fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer({ min: 0, max: 50 })),
      departAt: fc.integer({ min: 0, max: 400 }),
      walkPace: fc.integer({ min: 1, max: 30 }),
    })
    .map(({ points, lines, origin, destination, departAt, walkPace }) => {
      const n = points.length;
      const walk = (a: readonly number[], b: readonly number[]) => Math.round(Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!) * walkPace);
      const patterns: TransitPattern[] = [];
      for (const line of lines) {
        const stops = [...new Set(line.order.map((value) => value % n))];
        if (stops.length < 2) continue;
        const trips = line.trips.map(({ start, hops }, ref) => {
          const arrivals: number[] = [];
          const departures: number[] = [];
          let t = start;
          for (let i = 0; i < stops.length; i++) {
            arrivals.push(t);
            departures.push(t);
            t += hops[i]!;
          }
          return { ref, arrivals, departures };
        });
        patterns.push(...fifoPatterns(stops, trips));
      }
      const footpaths = points.map((p, i) => points.flatMap((q, j) => (i === j ? [] : [{ to: j, durationS: walk(p, q) }])));
      const access: StopAccess[] = points.map((p, stop) => ({ stop, durationS: walk(origin, p) }));
      const egress: StopAccess[] = points.map((p, stop) => ({ stop, durationS: walk(p, destination) }));
      return { network: { stopCount: n, patterns, stopPatterns: indexPatterns(n, patterns), footpaths } as RaptorNetwork, query: { departAt, access, egress, maxRounds: 30 } };
    });

  it('agrees with a connection scan of the time-expanded timetable (property)', () => {
    fc.assert(
      fc.property(network, ({ network, query }) => {
        const journey = raptor(network, query);
        expect(journey?.arriveAt).toBe(referenceEarliestArrival(network, query));
        if (!journey) return;
        // the parts chain: each starts no earlier than the previous ends, rides follow the timetable
        for (let i = 1; i < journey.parts.length; i++) expect(journey.parts[i]!.departAt).toBeGreaterThanOrEqual(journey.parts[i - 1]!.arriveAt);
        for (const part of journey.parts) {
          if (part.kind !== 'ride') continue;
          const pattern = network.patterns[part.pattern]!;
          const trip = pattern.trips[part.trip]!;
          expect(trip.departures[pattern.stops.indexOf(part.from)]).toBe(part.departAt);
          expect(trip.arrivals[pattern.stops.indexOf(part.to)]).toBe(part.arriveAt);
        }
      }),
      { numRuns: 400 },
    );
  });
});
