/**
 * Transit (spec part 2 §2.8, §4.6): stations near a point, routes by bbox and
 * type, and journeys planned with RAPTOR on the imported GTFS feeds. Without an
 * imported feed every answer is an empty collection (or found:false), never an
 * error. The feeds are held in memory and reloaded when an import changes them.
 */
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import { raptor, type StopAccess } from '../../solvers/transit/raptor.js';
import type { TransitFeedRepository } from '../../store/pg/transit-feeds.js';
import type { Logger } from '../../shared/logger.js';
import type { TransitPlanBody, TransitRoutesQuery, TransitStopsQuery } from './transit-queries.js';
import type { OsmTransitLines } from './osm-transit-lines.js';
import { TransitNetwork, WALK_DETOUR_FACTOR, WALK_SPEED_MPS, walkingMeters, walkingSeconds, type TransitRoute, type TransitStation } from './transit-network.js';

export const TRANSIT_PROVIDER = 'svc-transit' as const;
/** Farthest walk (straight line) from the origin to a first stop, or from a last stop to the destination. */
export const MAX_ACCESS_M = 1_500;
/** Access and egress candidates per end. */
const ACCESS_STOPS = 24;
/** How often the feed version is checked, milliseconds. */
const RELOAD_CHECK_MS = 15_000;
const NEAREST_STOPS_RADIUS_M = 5_000;
const NEAREST_STOPS = 3;
/** A journey whose first ride leaves later than this after departAt counts as no service (the next day's first trains are no answer). */
export const MAX_FIRST_WAIT_S = 3 * 3_600;

export const WALKING_MODEL = `straight line × ${WALK_DETOUR_FACTOR} at ${WALK_SPEED_MPS} m/s`;

type StopRecord = Omit<TransitStation, never> & { distanceM: number };

export class TransitService {
  private network = TransitNetwork.empty();
  private version: string | undefined;
  private checkedAt = 0;
  private loading: Promise<void> | undefined;

  /**
   * `osm`: the map pack's OSM stops and lines, served beside the feeds' but never planned (no timetable:
   * docs/transit.md, "Stops and lines from OSM").
   */
  constructor(
    private readonly feeds: TransitFeedRepository,
    private readonly logger: Logger,
    private readonly osm?: OsmTransitLines,
  ) {}

  /** Loads the imported feeds now (at start) rather than on the first request. */
  async start(): Promise<void> {
    await this.current();
  }

  private async current(): Promise<TransitNetwork> {
    if (Date.now() - this.checkedAt >= RELOAD_CHECK_MS) {
      this.loading ??= this.reload().finally(() => (this.loading = undefined));
      await this.loading;
    }
    return this.network;
  }

  private async reload(): Promise<void> {
    const version = await this.feeds.version();
    this.checkedAt = Date.now();
    if (version === this.version) return;
    const started = performance.now();
    const feeds = await this.feeds.list();
    const data = [];
    for (const feed of feeds) data.push(await this.feeds.load(feed));
    this.network = new TransitNetwork(data);
    this.version = version;
    this.logger.info({ feeds: feeds.map((feed) => feed.name), stations: this.network.stations.length, routes: this.network.routes.length, ms: Math.round(performance.now() - started) }, 'transit feeds loaded');
  }

  /** The loaded routes (with their shapes) and stations, GTFS and OSM, for the map's transit overlay. */
  async mapNetwork(): Promise<{ routes: readonly TransitRoute[]; stations: readonly TransitStation[] }> {
    const network = await this.current();
    if (!this.osm || this.osm.isEmpty) return network;
    return { routes: [...network.routes, ...this.osm.routes], stations: [...network.stations, ...this.osm.stations] };
  }

  async stops(query: TransitStopsQuery) {
    const network = await this.current();
    const near = network.stationsNear(query.lat, query.lng, query.radius, query.limit);
    if (this.osm) near.push(...this.osm.stationsNear(query.lat, query.lng, query.radius, query.limit));
    // GTFS first among equal distances (a feed's station and the OSM node mapped on it)
    const stops = near.sort((a, b) => a.distanceM - b.distanceM || sourceRank(a) - sourceRank(b)).slice(0, query.limit).map(stopRecord);
    return { provider: TRANSIT_PROVIDER, count: stops.length, stops };
  }

  async routes(query: TransitRoutesQuery) {
    const network = await this.current();
    const all = this.osm ? [...network.routes, ...this.osm.routes] : network.routes;
    const routes = all.filter((route) => (query.type === undefined || route.routeType === query.type) && (!query.bbox || inBbox(route, query.bbox))).map(routeRecord);
    return { provider: TRANSIT_PROVIDER, count: routes.length, routes, type: query.type ?? null, bbox: query.bbox ?? null };
  }

  async plan(body: TransitPlanBody, nowMs = Date.now()) {
    const network = await this.current();
    const departMs = body.departAt ? Date.parse(body.departAt) : nowMs;
    const { from, to } = body;
    const straight = haversineMeters(from.lat, from.lng, to.lat, to.lng);
    const notFound = (reason: 'out_of_coverage' | 'no_service' | 'no_common_route' | 'walking_is_faster') => ({
      provider: TRANSIT_PROVIDER,
      found: false as const,
      reason,
      walkAlternative: { distanceM: walkingMeters(straight), durationS: walkingSeconds(straight) },
      nearestOriginStops: network.stationsNear(from.lat, from.lng, NEAREST_STOPS_RADIUS_M, NEAREST_STOPS).map(stopRecord),
      nearestDestStops: network.stationsNear(to.lat, to.lng, NEAREST_STOPS_RADIUS_M, NEAREST_STOPS).map(stopRecord),
    });
    const access: StopAccess[] = network.platformsNear(from.lat, from.lng, MAX_ACCESS_M, ACCESS_STOPS).map(({ index, distanceM }) => ({ stop: index, durationS: walkingSeconds(distanceM) }));
    const egress: StopAccess[] = network.platformsNear(to.lat, to.lng, MAX_ACCESS_M, ACCESS_STOPS).map(({ index, distanceM }) => ({ stop: index, durationS: walkingSeconds(distanceM) }));
    if (!access.length || !egress.length) return notFound('out_of_coverage');
    const day = network.dayTimetable(departMs);
    if (!day.network.patterns.length) return notFound('no_service');
    const departAt = Math.round((departMs - day.originMs) / 1000);
    const journey = raptor(day.network, { departAt, access, egress, maxRounds: 5 });
    if (!journey) return notFound('no_common_route');
    if (journey.rides === 0) return notFound('walking_is_faster');
    const firstRide = journey.parts.find((part) => part.kind === 'ride')!;
    if (firstRide.departAt - departAt > MAX_FIRST_WAIT_S) return notFound('no_service');
    const iso = (t: number) => new Date(day.originMs + t * 1000).toISOString().replace('.000Z', 'Z');
    const platformPoint = (index: number) => ({ lat: network.platforms[index]!.lat, lng: network.platforms[index]!.lng });
    const walk = (a: { lat: number; lng: number }, b: { lat: number; lng: number }, durationS: number) => ({
      mode: 'walk' as const,
      from: { lat: a.lat, lng: a.lng },
      to: { lat: b.lat, lng: b.lng },
      distanceM: walkingMeters(haversineMeters(a.lat, a.lng, b.lat, b.lng)),
      durationS,
    });
    const legs = journey.parts.map((part) => {
      switch (part.kind) {
        case 'access':
          return walk(from, platformPoint(part.to), part.arriveAt - part.departAt);
        case 'egress':
          return walk(platformPoint(part.from), to, part.arriveAt - part.departAt);
        case 'transfer':
          return walk(platformPoint(part.from), platformPoint(part.to), part.arriveAt - part.departAt);
        case 'ride': {
          const template = day.trips[part.ref]!;
          const stopRef = (index: number) => {
            const platform = network.platforms[index]!;
            return { stopId: platform.stopId, name: platform.name, lat: platform.lat, lng: platform.lng };
          };
          return {
            mode: 'transit' as const,
            route: routeRecord(network.route(template.route)),
            board: stopRef(part.from),
            alight: stopRef(part.to),
            departAt: iso(part.departAt),
            arriveAt: iso(part.arriveAt),
            headsign: template.headsign,
            durationS: part.arriveAt - part.departAt,
          };
        }
      }
    });
    return {
      provider: TRANSIT_PROVIDER,
      found: true as const,
      departAt: iso(departAt),
      arriveAt: iso(journey.arriveAt),
      durationS: journey.arriveAt - departAt,
      transfers: journey.rides - 1,
      legs,
      walking: WALKING_MODEL,
    };
  }
}

function sourceRank(station: StopRecord): number {
  return station.source === 'gtfs' ? 0 : 1;
}

function stopRecord(station: StopRecord) {
  return {
    id: station.id,
    stopId: station.stopId,
    name: station.name,
    nameAr: station.nameAr,
    nameEn: station.nameEn,
    lat: station.lat,
    lng: station.lng,
    distanceM: station.distanceM,
    routeIds: station.routeIds,
    source: station.source,
    attribution: station.attribution,
  };
}

function routeRecord(route: TransitRoute) {
  return {
    id: route.id,
    routeId: route.routeId,
    shortName: route.shortName,
    longName: route.longName,
    type: route.type,
    typeLabel: route.typeLabel,
    routeType: route.routeType,
    color: route.color,
    shape: route.shape,
    stopIds: route.stopIds,
    source: route.source,
    attribution: route.attribution,
  };
}

/** A route with geometry inside or crossing the box; routes with no geometry are kept (part 2 §4.6). */
function inBbox(route: TransitRoute, [west, south, east, north]: [number, number, number, number]): boolean {
  if (!route.points.length) return true;
  const inside = ([lat, lng]: [number, number]) => lng >= west && lng <= east && lat >= south && lat <= north;
  for (let i = 0; i < route.points.length; i++) {
    const a = route.points[i]!;
    if (inside(a)) return true;
    const b = route.points[i + 1];
    if (b && segmentCrossesBox(a, b, west, south, east, north)) return true;
  }
  return false;
}

/** Liang–Barsky clipping: does segment a–b ([lat, lng]) pass through the box? */
function segmentCrossesBox(a: [number, number], b: [number, number], west: number, south: number, east: number, north: number): boolean {
  let t0 = 0;
  let t1 = 1;
  const dx = b[1] - a[1];
  const dy = b[0] - a[0];
  const checks: Array<[number, number]> = [
    [-dx, a[1] - west],
    [dx, east - a[1]],
    [-dy, a[0] - south],
    [dy, north - a[0]],
  ];
  for (const [p, q] of checks) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}
