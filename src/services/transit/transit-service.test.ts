/**
 * Journeys on the Cairo metro feed (CC BY-NC, tests only): the feed is read
 * with the importer's reader and held by the service as after an import; the
 * times of every ride are checked against stop_times.txt and frequencies.txt.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { GtfsRows, GtfsTable } from '../../domain/transit.js';
import { readGtfsFeed } from '../../ingest/gtfs/gtfs-reader.js';
import { silentProgress } from '../../ingest/progress.js';
import type { TransitFeedData, TransitFeedRecord, TransitFeedRepository } from '../../store/pg/transit-feeds.js';
import { createLogger } from '../../shared/logger.js';
import { TransitService } from './transit-service.js';

const FEED = new URL('../../../../shared/data/gtfs/cairo-metro', import.meta.url).pathname;
const HELWAN = { lat: 29.848824, lng: 31.334252 };
const SADAT = { lat: 30.043924, lng: 31.23566 };
const MOUNIB = { lat: 29.9810333, lng: 31.2123084 };
// Cairo kept UTC+2 all of 2016
const MORNING = '2016-03-01T08:00:00+02:00';

let rows: TransitFeedData['rows'];
let service: TransitService;

async function loadRows(): Promise<TransitFeedData['rows']> {
  const collected = {} as Record<GtfsTable, unknown[]>;
  await readGtfsFeed(FEED, async (table, batch) => void (collected[table] ??= []).push(...batch), silentProgress);
  for (const table of ['agency', 'stops', 'routes', 'trips', 'stopTimes', 'frequencies', 'calendar', 'calendarDates', 'shapes'] as GtfsTable[]) collected[table] ??= [];
  return collected as TransitFeedData['rows'];
}

/** The feed's in-vehicle time between two stops of a trip, from stop_times.txt. */
function timetableSeconds(tripId: string, boardStop: string, alightStop: string): number {
  const times = rows.stopTimes.filter((row) => row.tripId === tripId);
  const board = times.find((row) => row.stopId === boardStop)!;
  const alight = times.find((row) => row.stopId === alightStop)!;
  return alight.arrivalS! - board.departureS!;
}

function tripOf(routeId: string, boardStop: string, alightStop: string): GtfsRows['trips'] {
  return rows.trips.find((trip) => {
    if (trip.routeId !== routeId) return false;
    const times = rows.stopTimes.filter((row) => row.tripId === trip.tripId);
    const board = times.find((row) => row.stopId === boardStop);
    const alight = times.find((row) => row.stopId === alightStop);
    return board && alight && board.stopSequence < alight.stopSequence;
  })!;
}

beforeAll(async () => {
  rows = await loadRows();
  const feed: TransitFeedRecord = { id: '1', name: 'cairo-metro', source: FEED, importedAt: new Date(0).toISOString() };
  const repository = { version: async () => '1', list: async () => [feed], load: async () => ({ feed, rows }) } as unknown as TransitFeedRepository;
  service = new TransitService(repository, createLogger({ LOG_LEVEL: 'silent' }));
  await service.start();
});

describe('transit plan on the Cairo metro', () => {
  it('rides one line: Helwan to Sadat on M1, times as the timetable says', async () => {
    const plan = await service.plan({ from: HELWAN, to: SADAT, departAt: MORNING });
    expect(plan.found).toBe(true);
    if (!plan.found) return;
    expect(plan.legs.map((leg) => leg.mode)).toEqual(['walk', 'transit', 'walk']);
    const ride = plan.legs[1]!;
    if (ride.mode !== 'transit') throw new Error('not a ride');
    expect(ride.route.routeId).toBe('L1');
    expect(ride.board.name).toBe('Helwan');
    expect(ride.alight.name).toBe('Sadat');
    const trip = tripOf('L1', ride.board.stopId, ride.alight.stopId);
    expect(ride.durationS).toBe(timetableSeconds(trip.tripId, ride.board.stopId, ride.alight.stopId));
    // the first departure of the frequency grid (06:00 + k × 132 s) at or after 08:00 plus the walk to the platform (0 m here)
    const firstStopDeparture = rows.stopTimes.find((row) => row.tripId === trip.tripId && row.stopSequence === 1)!.departureS!;
    const boardOffset = rows.stopTimes.find((row) => row.tripId === trip.tripId && row.stopId === ride.board.stopId)!.departureS! - firstStopDeparture;
    const frequency = rows.frequencies.find((row) => row.tripId === trip.tripId)!;
    const depart = Date.parse(MORNING) / 1000;
    const gridStart = Date.parse('2016-03-01T06:00:00+02:00') / 1000;
    const k = Math.ceil((depart - gridStart - boardOffset) / frequency.headwayS);
    expect(Date.parse(ride.departAt) / 1000).toBe(gridStart + k * frequency.headwayS + boardOffset);
    expect(plan.durationS).toBe(Date.parse(plan.arriveAt) / 1000 - depart);
  });

  it('changes at Sadat from M1 to M2: Helwan to El-Mounib', async () => {
    const plan = await service.plan({ from: HELWAN, to: MOUNIB, departAt: MORNING });
    expect(plan.found).toBe(true);
    if (!plan.found) return;
    const rides = plan.legs.filter((leg) => leg.mode === 'transit');
    expect(rides.map((ride) => ride.route.routeId)).toEqual(['L1', 'L2']);
    expect(plan.transfers).toBe(1);
    expect(rides[0]!.alight.name).toBe('Sadat');
    expect(rides[1]!.board.name).toBe('Sadat');
    for (const ride of rides) {
      const trip = tripOf(ride.route.routeId, ride.board.stopId, ride.alight.stopId);
      expect(ride.durationS).toBe(timetableSeconds(trip.tripId, ride.board.stopId, ride.alight.stopId));
    }
    // the change is a walk between the platforms of at least the minimum transfer time
    const change = plan.legs[2]!;
    expect(change.mode).toBe('walk');
    expect(Date.parse(rides[1]!.departAt) - Date.parse(rides[0]!.arriveAt)).toBeGreaterThanOrEqual(change.durationS * 1000);
    expect(change.durationS).toBeGreaterThanOrEqual(120);
  });

  it('answers out_of_coverage with a walk alternative far from any stop (Amman)', async () => {
    const plan = await service.plan({ from: { lat: 31.9539, lng: 35.9106 }, to: { lat: 31.97, lng: 35.93 }, departAt: MORNING });
    expect(plan).toMatchObject({ found: false, reason: 'out_of_coverage', nearestOriginStops: [], nearestDestStops: [] });
    if (plan.found) return;
    expect(plan.walkAlternative.distanceM).toBeGreaterThan(2_000);
    expect(plan.walkAlternative.durationS).toBeGreaterThan(0);
  });

  it('answers no_service outside the calendar and on a removed date', async () => {
    expect(await service.plan({ from: HELWAN, to: SADAT, departAt: '2026-03-01T08:00:00+02:00' })).toMatchObject({ found: false, reason: 'no_service' });
    // calendar_dates.txt removes 2016-02-01: no trip within 3 hours of 10:00 (the next one is at 06:00 the day after)
    const removed = await service.plan({ from: HELWAN, to: SADAT, departAt: '2016-02-01T10:00:00+02:00' });
    expect(removed).toMatchObject({ found: false, reason: 'no_service' });
    // the day before runs as usual
    expect(await service.plan({ from: HELWAN, to: SADAT, departAt: '2016-01-31T10:00:00+02:00' })).toMatchObject({ found: true });
    if (removed.found) return;
    expect(removed.nearestOriginStops[0]).toMatchObject({ name: 'Helwan', distanceM: 0, routeIds: ['L1'] });
  });

  it('lists stations nearest first and routes by bbox and type', async () => {
    const near = await service.stops({ lat: SADAT.lat, lng: SADAT.lng, radius: 1_000, limit: 2 });
    expect(near.count).toBe(2);
    expect(near.stops[0]).toMatchObject({ name: 'Sadat', distanceM: 0, routeIds: ['L1', 'L2'] });
    expect(near.stops[1]!.distanceM).toBeGreaterThan(0);
    const metro = await service.routes({ type: 1 });
    expect(metro.count).toBe(3);
    expect(metro.routes.every((route) => route.typeLabel === 'Metro' && route.type === 'metro' && route.shape)).toBe(true);
    expect((await service.routes({ type: 3 })).count).toBe(0);
    // a box around Helwan only: M1 alone passes there
    const helwan = await service.routes({ bbox: [31.32, 29.84, 31.34, 29.86] });
    expect(helwan.routes.map((route) => route.routeId)).toEqual(['L1']);
  });
});
