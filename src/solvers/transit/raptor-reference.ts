/**
 * A reference for RAPTOR's tests: earliest arrival by scanning every elementary
 * connection of the time-expanded timetable in departure order (connection
 * scan), with the same semantics as raptor.ts (access walk, rides, at most one
 * footpath after each ride, egress walk) and no limit on the number of rides.
 */
import type { RaptorNetwork, RaptorQuery } from './raptor.js';

interface Connection {
  trip: number;
  /** Position of the departure stop in the trip. */
  index: number;
  from: number;
  to: number;
  departAt: number;
  arriveAt: number;
}

export function referenceEarliestArrival(network: RaptorNetwork, query: RaptorQuery): number | undefined {
  const connections: Connection[] = [];
  let tripId = 0;
  for (const pattern of network.patterns) {
    for (const trip of pattern.trips) {
      for (let i = 0; i + 1 < pattern.stops.length; i++) {
        connections.push({ trip: tripId, index: i, from: pattern.stops[i]!, to: pattern.stops[i + 1]!, departAt: trip.departures[i]!, arriveAt: trip.arrivals[i + 1]! });
      }
      tripId++;
    }
  }
  // at equal departure, earlier arrival first, so a zero-duration hop can feed the next connection
  connections.sort((a, b) => a.departAt - b.departAt || a.arriveAt - b.arriveAt);
  const stopArrival = new Array<number>(network.stopCount).fill(Infinity);
  for (const a of query.access) stopArrival[a.stop] = Math.min(stopArrival[a.stop]!, query.departAt + a.durationS);
  // per trip: the first position where it can be boarded
  const boardedAt = new Array<number>(tripId).fill(Infinity);
  // repeat until stable: zero-duration connections and footpaths may feed connections sorted before them
  for (let changed = true; changed; ) {
    changed = false;
    for (const c of connections) {
      if (c.index < boardedAt[c.trip]! && stopArrival[c.from]! <= c.departAt) {
        boardedAt[c.trip] = c.index;
        changed = true;
      }
      if (c.index < boardedAt[c.trip]!) continue;
      if (c.arriveAt < stopArrival[c.to]!) {
        stopArrival[c.to] = c.arriveAt;
        changed = true;
      }
      for (const path of network.footpaths[c.to]!) {
        const t = c.arriveAt + path.durationS;
        if (t < stopArrival[path.to]!) {
          stopArrival[path.to] = t;
          changed = true;
        }
      }
    }
  }
  let best = Infinity;
  for (const e of query.egress) best = Math.min(best, stopArrival[e.stop]! + e.durationS);
  return Number.isFinite(best) ? best : undefined;
}
