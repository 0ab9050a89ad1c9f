/**
 * The imported GTFS feeds in memory: stations for /transit/stops, routes with
 * their shapes for /transit/routes, platforms and trip templates from which a
 * day's RAPTOR timetable is built (frequencies expanded, calendar applied).
 */
import Flatbush from 'flatbush';
import polyline from '@mapbox/polyline';
import { routeTypeLabel, type GtfsRows } from '../../domain/transit.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import { fifoPatterns, indexPatterns, type Footpath, type PatternTrip, type RaptorNetwork, type TransitPattern } from '../../solvers/transit/raptor.js';
import type { TransitFeedData } from '../../store/pg/transit-feeds.js';
import { activeServices, addDays, localDate, serviceDayStart } from './service-days.js';

/** Walking between stops and to them: straight-line distance times this factor (docs/transit.md). */
export const WALK_DETOUR_FACTOR = 1.3;
/** Walking speed, metres per second (4.7 km/h). */
export const WALK_SPEED_MPS = 1.3;
/** Least time to change between two platforms of one station. */
export const MIN_TRANSFER_S = 120;
/** Platforms of different stations this close (straight line) are linked by a footpath. */
export const TRANSFER_RADIUS_M = 250;

export function walkingMeters(straightMeters: number): number {
  return Math.round(straightMeters * WALK_DETOUR_FACTOR);
}

export function walkingSeconds(straightMeters: number): number {
  return Math.round((straightMeters * WALK_DETOUR_FACTOR) / WALK_SPEED_MPS);
}

const TYPE_NAMES = { tram: 'Tram', metro: 'Metro', rail: 'Rail', bus: 'Bus', ferry: 'Ferry', other: 'Other' } as const;

/** Where a stop or line comes from: an imported GTFS feed, or the map pack's OSM data. */
export type TransitSource = 'gtfs' | 'osm';

export interface TransitRoute {
  id: string;
  source: TransitSource;
  /** The data's licence notice when it must be shown (OSM: ODbL); null for GTFS feeds. */
  attribution: string | null;
  routeId: string;
  shortName: string | null;
  longName: string | null;
  type: ReturnType<typeof routeTypeLabel>;
  typeLabel: string;
  /** The feed's GTFS route_type code. */
  routeType: number;
  color: string | null;
  shape: string | null;
  /** Shape vertices, for the bbox filter; empty when the route has no geometry. */
  points: Array<[number, number]>;
  /** The shape's unconnected pieces ([lat, lng]), when it has gaps (OSM lines); `points` joins them. */
  parts?: Array<Array<[number, number]>>;
  /** OSM lines: their stops in order (ids of /transit/stops); null for GTFS, whose order is per trip. */
  stopIds: string[] | null;
}

export interface TransitStation {
  id: string;
  source: TransitSource;
  attribution: string | null;
  stopId: string;
  name: string;
  nameAr: string | null;
  nameEn: string | null;
  lat: number;
  lng: number;
  routeIds: string[];
}

export interface Platform {
  feed: number;
  stopId: string;
  name: string;
  lat: number;
  lng: number;
  /** The station (index into `stations`) it belongs to. */
  station: number;
}

interface TripTemplate {
  feed: number;
  route: number;
  serviceId: string;
  headsign: string | null;
  stops: number[];
  arrivals: number[];
  departures: number[];
  frequencies: Array<GtfsRows['frequencies']>;
}

export interface DayTimetable {
  network: RaptorNetwork;
  /** Epoch ms that time 0 of the network stands for. */
  originMs: number;
  /** Per PatternTrip.ref: its template. */
  trips: TripTemplate[];
}

interface FeedInfo {
  name: string;
  timeZone: string;
  calendar: Array<GtfsRows['calendar']>;
  exceptions: Array<GtfsRows['calendarDates']>;
}

export class TransitNetwork {
  readonly stations: TransitStation[] = [];
  readonly routes: TransitRoute[] = [];
  readonly platforms: Platform[] = [];
  private readonly feeds: FeedInfo[] = [];
  private readonly templates: TripTemplate[] = [];
  private readonly footpaths: Footpath[][] = [];
  private stationIndex: Flatbush | undefined;
  private platformIndex: Flatbush | undefined;
  private readonly days = new Map<string, DayTimetable>();

  static empty(): TransitNetwork {
    return new TransitNetwork([]);
  }

  constructor(feeds: TransitFeedData[]) {
    feeds.forEach((data, feed) => this.addFeed(data, feed));
    this.buildIndexes();
    this.buildFootpaths();
  }

  get isEmpty(): boolean {
    return this.stations.length === 0;
  }

  private addFeed(data: TransitFeedData, feed: number): void {
    const { rows } = data;
    this.feeds.push({ name: data.feed.name, timeZone: rows.agency[0]?.timezone ?? 'UTC', calendar: rows.calendar, exceptions: rows.calendarDates });
    const prefix = `${data.feed.name}:`;
    // stations: parents and stops without a parent
    const stationOf = new Map<string, number>();
    const byId = new Map(rows.stops.map((stop) => [stop.stopId, stop]));
    for (const stop of rows.stops) {
      if (stop.locationType === 1 || (stop.locationType === 0 && !(stop.parentStation && byId.has(stop.parentStation)))) {
        stationOf.set(stop.stopId, this.stations.length);
        this.stations.push({ id: prefix + stop.stopId, source: 'gtfs', attribution: null, stopId: stop.stopId, name: stop.name, nameAr: null, nameEn: null, lat: stop.lat, lng: stop.lng, routeIds: [] });
      }
    }
    const platformOf = new Map<string, number>();
    for (const stop of rows.stops) {
      if (stop.locationType !== 0) continue;
      const station = stationOf.get(stop.stopId) ?? stationOf.get(stop.parentStation ?? '');
      if (station === undefined) continue;
      platformOf.set(stop.stopId, this.platforms.length);
      this.platforms.push({ feed, stopId: stop.stopId, name: stop.name || this.stations[station]!.name, lat: stop.lat, lng: stop.lng, station });
    }
    // shapes
    const shapes = new Map<string, Array<[number, number]>>();
    for (const point of rows.shapes) {
      let list = shapes.get(point.shapeId);
      if (!list) shapes.set(point.shapeId, (list = []));
      list.push([point.lat, point.lng]);
    }
    const routeOf = new Map<string, number>();
    const shapeOfRoute = new Map<string, string>();
    for (const trip of rows.trips) if (trip.shapeId && shapes.has(trip.shapeId) && !shapeOfRoute.has(trip.routeId)) shapeOfRoute.set(trip.routeId, trip.shapeId);
    for (const route of rows.routes) {
      // a feed whose trips name no shape: a shape called like the route (short name, then id) is its geometry
      const shapeId = shapeOfRoute.get(route.routeId) ?? [route.shortName, route.routeId].find((name) => name && shapes.has(name));
      const points = shapeId ? shapes.get(shapeId)! : [];
      const type = routeTypeLabel(route.routeType);
      routeOf.set(route.routeId, this.routes.length);
      this.routes.push({
        id: prefix + route.routeId,
        source: 'gtfs',
        attribution: null,
        routeId: route.routeId,
        shortName: route.shortName,
        longName: route.longName,
        type,
        typeLabel: TYPE_NAMES[type],
        routeType: route.routeType,
        color: route.color,
        shape: points.length >= 2 ? polyline.encode(points, 5) : null,
        points,
        stopIds: null,
      });
    }
    // trip templates
    const frequencies = new Map<string, Array<GtfsRows['frequencies']>>();
    for (const row of rows.frequencies) {
      let list = frequencies.get(row.tripId);
      if (!list) frequencies.set(row.tripId, (list = []));
      list.push(row);
    }
    const stopTimes = new Map<string, Array<GtfsRows['stopTimes']>>();
    for (const row of rows.stopTimes) {
      let list = stopTimes.get(row.tripId);
      if (!list) stopTimes.set(row.tripId, (list = []));
      list.push(row);
    }
    const routeStations = new Map<number, Set<string>>();
    for (const trip of rows.trips) {
      const route = routeOf.get(trip.routeId);
      const times = stopTimes.get(trip.tripId);
      if (route === undefined || !times || times.length < 2) continue;
      times.sort((a, b) => a.stopSequence - b.stopSequence);
      const template = templateOf(times, platformOf);
      if (!template) continue;
      for (const platform of template.stops) {
        const station = this.platforms[platform]!.station;
        let set = routeStations.get(station);
        if (!set) routeStations.set(station, (set = new Set()));
        set.add(trip.routeId);
      }
      this.templates.push({ feed, route, serviceId: trip.serviceId, headsign: trip.headsign, ...template, frequencies: frequencies.get(trip.tripId) ?? [] });
    }
    for (const [station, set] of routeStations) this.stations[station]!.routeIds = [...set].sort();
  }

  private buildIndexes(): void {
    if (this.stations.length) {
      this.stationIndex = new Flatbush(this.stations.length);
      for (const s of this.stations) this.stationIndex.add(s.lng, s.lat, s.lng, s.lat);
      this.stationIndex.finish();
    }
    if (this.platforms.length) {
      this.platformIndex = new Flatbush(this.platforms.length);
      for (const p of this.platforms) this.platformIndex.add(p.lng, p.lat, p.lng, p.lat);
      this.platformIndex.finish();
    }
  }

  private buildFootpaths(): void {
    this.platforms.forEach((platform, index) => {
      const paths: Footpath[] = [];
      for (const other of this.platformsNear(platform.lat, platform.lng, TRANSFER_RADIUS_M, 50)) {
        if (other.index === index) continue;
        const sameStation = this.platforms[other.index]!.station === platform.station;
        paths.push({ to: other.index, durationS: Math.max(sameStation ? MIN_TRANSFER_S : 0, walkingSeconds(other.distanceM)) });
      }
      // platforms of one station farther apart than the radius still connect
      this.footpaths.push(paths);
    });
    const byStation = new Map<number, number[]>();
    this.platforms.forEach((platform, index) => {
      const list = byStation.get(platform.station);
      if (list) list.push(index);
      else byStation.set(platform.station, [index]);
    });
    this.platforms.forEach((platform, index) => {
      for (const other of byStation.get(platform.station)!) {
        if (other === index || this.footpaths[index]!.some((path) => path.to === other)) continue;
        const meters = haversineMeters(platform.lat, platform.lng, this.platforms[other]!.lat, this.platforms[other]!.lng);
        this.footpaths[index]!.push({ to: other, durationS: Math.max(MIN_TRANSFER_S, walkingSeconds(meters)) });
      }
    });
  }

  /** Stations within `radiusM` of a point (straight line), nearest first. */
  stationsNear(lat: number, lng: number, radiusM: number, limit: number): Array<TransitStation & { distanceM: number }> {
    return near(this.stationIndex, this.stations, lat, lng, radiusM, limit).map(({ index, distanceM }) => ({ ...this.stations[index]!, distanceM }));
  }

  /** Platforms within `radiusM` of a point (straight line), nearest first. */
  platformsNear(lat: number, lng: number, radiusM: number, limit: number): Array<{ index: number; distanceM: number }> {
    return near(this.platformIndex, this.platforms, lat, lng, radiusM, limit);
  }

  /** The timetable around an instant: the service days before, of and after it in every feed. */
  dayTimetable(epochMs: number): DayTimetable {
    const dayKey = Math.floor(epochMs / 86_400_000);
    const key = String(dayKey);
    const cached = this.days.get(key);
    if (cached) return cached;
    const originMs = (dayKey - 1) * 86_400_000;
    const groups = new Map<string, PatternTrip[]>();
    const stopsOf = new Map<string, number[]>();
    const refs: TripTemplate[] = [];
    for (let f = 0; f < this.feeds.length; f++) {
      const feed = this.feeds[f]!;
      const today = localDate(epochMs, feed.timeZone);
      for (const date of [addDays(today, -1), today, addDays(today, 1)]) {
        const services = activeServices(date, feed.calendar, feed.exceptions);
        if (!services.size) continue;
        const offset = Math.round((serviceDayStart(date, feed.timeZone) - originMs) / 1000);
        for (const template of this.templates) {
          if (template.feed !== f || !services.has(template.serviceId)) continue;
          const groupKey = `${template.route}|${template.stops.join(',')}`;
          let trips = groups.get(groupKey);
          if (!trips) {
            groups.set(groupKey, (trips = []));
            stopsOf.set(groupKey, template.stops);
          }
          const starts = template.frequencies.length
            ? template.frequencies.flatMap((window) => {
                const list: number[] = [];
                for (let t = window.startS; t < window.endS; t += window.headwayS) list.push(t);
                return list;
              })
            : [template.departures[0]!];
          const ref = refs.length;
          refs.push(template);
          for (const start of starts) {
            const shift = offset + start - template.departures[0]!;
            trips.push({ ref, arrivals: Int32Array.from(template.arrivals, (t) => t + shift), departures: Int32Array.from(template.departures, (t) => t + shift) });
          }
        }
      }
    }
    const patterns: TransitPattern[] = [];
    for (const [groupKey, trips] of groups) patterns.push(...fifoPatterns(stopsOf.get(groupKey)!, trips));
    const network: RaptorNetwork = { stopCount: this.platforms.length, patterns, stopPatterns: indexPatterns(this.platforms.length, patterns), footpaths: this.footpaths };
    const day = { network, originMs, trips: refs };
    if (this.days.size >= 4) this.days.delete(this.days.keys().next().value!);
    this.days.set(key, day);
    return day;
  }

  route(index: number): TransitRoute {
    return this.routes[index]!;
  }
}

/** The items within `radiusM` of a point (straight line, via a Flatbush index over them), nearest first. */
export function near<T extends { lat: number; lng: number }>(index: Flatbush | undefined, items: T[], lat: number, lng: number, radiusM: number, limit: number) {
  if (!index) return [];
  const dLat = radiusM / 111_320;
  const dLng = radiusM / (111_320 * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  return index
    .search(lng - dLng, lat - dLat, lng + dLng, lat + dLat)
    .map((i) => ({ index: i, distanceM: Math.round(haversineMeters(lat, lng, items[i]!.lat, items[i]!.lng)) }))
    .filter((hit) => hit.distanceM <= radiusM)
    .sort((a, b) => a.distanceM - b.distanceM || a.index - b.index)
    .slice(0, limit);
}

/** A trip's platforms and times, blanks interpolated between timepoints; undefined when unusable. */
function templateOf(times: Array<GtfsRows['stopTimes']>, platformOf: Map<string, number>): { stops: number[]; arrivals: number[]; departures: number[] } | undefined {
  const stops: number[] = [];
  const arrivals: Array<number | null> = [];
  const departures: Array<number | null> = [];
  for (const row of times) {
    const platform = platformOf.get(row.stopId);
    if (platform === undefined) return undefined;
    stops.push(platform);
    arrivals.push(row.arrivalS ?? row.departureS);
    departures.push(row.departureS ?? row.arrivalS);
  }
  if (arrivals[0] === null || arrivals[arrivals.length - 1] === null) return undefined;
  for (let i = 1; i < stops.length; i++) {
    if (arrivals[i] !== null) continue;
    let next = i;
    while (arrivals[next] === null) next++;
    const from = departures[i - 1]!;
    const to = arrivals[next]!;
    for (let j = i; j < next; j++) arrivals[j] = departures[j] = Math.round(from + ((to - from) * (j - i + 1)) / (next - i + 1));
    i = next;
  }
  return { stops, arrivals: arrivals as number[], departures: departures as number[] };
}
