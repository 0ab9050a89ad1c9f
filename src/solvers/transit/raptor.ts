/**
 * RAPTOR (Delling, Pajor, Werneck: "Round-Based Public Transit Routing"):
 * earliest arrival on a timetable, one round per trip taken. Pure: the caller
 * builds the day's timetable (frequencies already expanded, calendar applied)
 * and the walking access, egress and footpaths.
 *
 * Semantics (the reference in raptor-reference.ts follows the same ones):
 * the traveller walks from the origin to an access stop (arriving at
 * departAt + access walk), then alternates a trip and at most one footpath,
 * and walks from an egress stop to the destination. Boarding a trip at stop i
 * needs arrival ≤ its departure at i. Times are seconds of the service day.
 */

export interface TransitPattern {
  /** Stop indices in travel order. */
  stops: number[];
  /** Trips in the same order at every stop (no overtaking); each has arrival and departure per stop. */
  trips: PatternTrip[];
}

export interface PatternTrip {
  /** Caller's reference (route and trip ids). */
  ref: number;
  arrivals: Int32Array | number[];
  departures: Int32Array | number[];
}

export interface Footpath {
  to: number;
  durationS: number;
}

export interface RaptorNetwork {
  stopCount: number;
  patterns: TransitPattern[];
  /** Per stop: the patterns that serve it, with the stop's position in each. */
  stopPatterns: Array<Array<{ pattern: number; position: number }>>;
  /** Per stop: footpaths to other stops (transfers). */
  footpaths: Footpath[][];
}

export interface StopAccess {
  stop: number;
  durationS: number;
}

export interface RaptorQuery {
  departAt: number;
  access: StopAccess[];
  egress: StopAccess[];
  /** Most trips in one journey (rounds); default 5. */
  maxRounds?: number;
}

export type JourneyPart =
  | { kind: 'access'; to: number; departAt: number; arriveAt: number }
  | { kind: 'ride'; pattern: number; trip: number; ref: number; from: number; to: number; departAt: number; arriveAt: number }
  | { kind: 'transfer'; from: number; to: number; departAt: number; arriveAt: number }
  | { kind: 'egress'; from: number; departAt: number; arriveAt: number };

export interface RaptorJourney {
  arriveAt: number;
  rides: number;
  parts: JourneyPart[];
}

const NONE = 0x7fffffff;

/** Builds the stop → patterns index of a network from its patterns. */
export function indexPatterns(stopCount: number, patterns: TransitPattern[]): RaptorNetwork['stopPatterns'] {
  const index: RaptorNetwork['stopPatterns'] = Array.from({ length: stopCount }, () => []);
  patterns.forEach((pattern, p) => pattern.stops.forEach((stop, position) => index[stop]!.push({ pattern: p, position })));
  return index;
}

/**
 * Splits trips that share a stop sequence into patterns where no trip overtakes
 * another (RAPTOR's earliest-trip search needs the same order at every stop).
 */
export function fifoPatterns(stops: number[], trips: PatternTrip[]): TransitPattern[] {
  const sorted = [...trips].sort((a, b) => a.departures[0]! - b.departures[0]!);
  const patterns: TransitPattern[] = [];
  for (const trip of sorted) {
    const home = patterns.find((pattern) => {
      const last = pattern.trips[pattern.trips.length - 1]!;
      for (let i = 0; i < stops.length; i++) {
        if (trip.departures[i]! < last.departures[i]! || trip.arrivals[i]! < last.arrivals[i]!) return false;
      }
      return true;
    });
    if (home) home.trips.push(trip);
    else patterns.push({ stops, trips: [trip] });
  }
  return patterns;
}

/** The earliest-arriving journey (fewest rides among equals), or undefined when none reaches the destination. */
export function raptor(network: RaptorNetwork, query: RaptorQuery): RaptorJourney | undefined {
  const maxRounds = query.maxRounds ?? 5;
  const n = network.stopCount;
  const egressOf = new Int32Array(n).fill(NONE);
  for (const e of query.egress) if (e.durationS < egressOf[e.stop]!) egressOf[e.stop] = e.durationS;
  // per round: arrival by a ride, by a footpath after a ride (round 0: by the access walk), and the best so far
  const byRide: Int32Array[] = [];
  const byWalk: Int32Array[] = [];
  const best: Int32Array[] = [];
  const rideFrom: Int32Array[] = [];
  const rideTrip: Int32Array[] = [];
  const rideBoard: Int32Array[] = [];
  const walkFrom: Int32Array[] = [];
  const starBest = new Int32Array(n).fill(NONE);
  let target = NONE;
  let targetRound = -1;
  let targetStop = -1;

  const r0walk = new Int32Array(n).fill(NONE);
  const marked = new Uint8Array(n);
  for (const a of query.access) {
    const t = query.departAt + a.durationS;
    if (t < r0walk[a.stop]!) r0walk[a.stop] = t;
  }
  for (let s = 0; s < n; s++) {
    if (r0walk[s]! === NONE) continue;
    starBest[s] = r0walk[s]!;
    marked[s] = 1;
    if (egressOf[s]! !== NONE && r0walk[s]! + egressOf[s]! < target) {
      target = r0walk[s]! + egressOf[s]!;
      targetRound = 0;
      targetStop = s;
    }
  }
  byRide.push(new Int32Array(n).fill(NONE));
  byWalk.push(r0walk);
  best.push(Int32Array.from(r0walk));
  rideFrom.push(new Int32Array(0));
  rideTrip.push(new Int32Array(0));
  rideBoard.push(new Int32Array(0));
  walkFrom.push(new Int32Array(0));

  const patternStart = new Int32Array(network.patterns.length);
  for (let k = 1; k <= maxRounds; k++) {
    const previous = best[k - 1]!;
    // routes serving a stop improved last round, from the earliest such stop
    patternStart.fill(NONE);
    let anyMarked = false;
    for (let s = 0; s < n; s++) {
      if (!marked[s]) continue;
      anyMarked = true;
      for (const { pattern, position } of network.stopPatterns[s]!) {
        if (position < patternStart[pattern]!) patternStart[pattern] = position;
      }
    }
    if (!anyMarked) break;
    marked.fill(0);
    const ride = new Int32Array(n).fill(NONE);
    const walk = new Int32Array(n).fill(NONE);
    const from = new Int32Array(n).fill(-1);
    const trip = new Int32Array(n).fill(-1);
    const board = new Int32Array(n).fill(-1);
    const walkSource = new Int32Array(n).fill(-1);
    const ridden: number[] = [];
    for (let p = 0; p < network.patterns.length; p++) {
      const start = patternStart[p]!;
      if (start === NONE) continue;
      const pattern = network.patterns[p]!;
      let current = -1;
      let boardedAt = -1;
      for (let i = start; i < pattern.stops.length; i++) {
        const stop = pattern.stops[i]!;
        if (current >= 0) {
          const arrival = pattern.trips[current]!.arrivals[i]!;
          if (arrival < starBest[stop]! && arrival < target) {
            ride[stop] = arrival;
            starBest[stop] = arrival;
            from[stop] = p;
            trip[stop] = current;
            board[stop] = boardedAt;
            if (!marked[stop]) ridden.push(stop);
            marked[stop] = 1;
          }
        }
        const ready = previous[stop]!;
        if (ready === NONE) continue;
        if (current < 0 || ready <= pattern.trips[current]!.departures[i]!) {
          const earlier = earliestTrip(pattern, i, ready, current < 0 ? pattern.trips.length : current + 1);
          if (earlier >= 0 && earlier !== current) {
            current = earlier;
            boardedAt = i;
          }
        }
      }
    }
    // one footpath after each ride
    for (const stop of ridden) {
      const arrived = ride[stop]!;
      for (const path of network.footpaths[stop]!) {
        const t = arrived + path.durationS;
        if (t < starBest[path.to]! && t < target) {
          walk[path.to] = t;
          starBest[path.to] = t;
          walkSource[path.to] = stop;
          marked[path.to] = 1;
        }
      }
    }
    const round = Int32Array.from(previous);
    for (let s = 0; s < n; s++) {
      const t = Math.min(ride[s]!, walk[s]!);
      if (t < round[s]!) round[s] = t;
      if (t !== NONE && egressOf[s]! !== NONE && t + egressOf[s]! < target) {
        target = t + egressOf[s]!;
        targetRound = k;
        targetStop = s;
      }
    }
    byRide.push(ride);
    byWalk.push(walk);
    best.push(round);
    rideFrom.push(from);
    rideTrip.push(trip);
    rideBoard.push(board);
    walkFrom.push(walkSource);
  }
  if (targetRound < 0) return undefined;

  // walk the labels back from the egress stop
  const parts: JourneyPart[] = [];
  const egressStart = best[targetRound]![targetStop]!;
  parts.push({ kind: 'egress', from: targetStop, departAt: egressStart, arriveAt: target });
  let stop = targetStop;
  let k = targetRound;
  let at = egressStart;
  let rides = 0;
  while (k > 0) {
    // the round where the stop got this arrival
    while (k > 0 && byRide[k]![stop]! !== at && byWalk[k]![stop]! !== at) k--;
    if (k === 0) break;
    if (byWalk[k]![stop]! === at && byRide[k]![stop]! !== at) {
      const source = walkFrom[k]![stop]!;
      parts.push({ kind: 'transfer', from: source, to: stop, departAt: byRide[k]![source]!, arriveAt: at });
      stop = source;
      at = byRide[k]![source]!;
    }
    const p = rideFrom[k]![stop]!;
    const t = rideTrip[k]![stop]!;
    const boardIndex = rideBoard[k]![stop]!;
    const pattern = network.patterns[p]!;
    const boardStop = pattern.stops[boardIndex]!;
    const tripData = pattern.trips[t]!;
    parts.push({ kind: 'ride', pattern: p, trip: t, ref: tripData.ref, from: boardStop, to: stop, departAt: tripData.departures[boardIndex]!, arriveAt: at });
    rides++;
    stop = boardStop;
    k--;
    at = best[k]![stop]!;
  }
  parts.push({ kind: 'access', to: stop, departAt: query.departAt, arriveAt: byWalk[0]![stop]! });
  parts.reverse();
  return { arriveAt: target, rides, parts };
}

/** The first trip (below `limit`) leaving position `i` at or after `ready`, or -1. */
function earliestTrip(pattern: TransitPattern, i: number, ready: number, limit: number): number {
  let lo = 0;
  let hi = limit;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (pattern.trips[mid]!.departures[i]! >= ready) hi = mid;
    else lo = mid + 1;
  }
  return lo < limit ? lo : -1;
}
