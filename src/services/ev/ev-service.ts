/**
 * EV charging (spec part 3 §2.7, §4.6; docs/ev.md): stations and networks from
 * the merged catalogue in SQL, and the range-aware planner on the routed corridor.
 */
import polyline from '@mapbox/polyline';
import type { EvStation } from '../../domain/ev-station.js';
import type { MetricSpec } from '../../solvers/routing/costing/profiles.js';
import type { RouteLocation } from '../../solvers/routing/routing-engine.js';
import type { EvStationRepository } from '../../store/pg/ev-stations.js';
import type { RoutingService } from '../routing/routing-service.js';
import { corridorOf, planCharging, type Detour, type DetourRequest, type LatLng } from './charging-plan.js';
import { EV_ATTRIBUTION, type EvPlanBody, type EvStationsQuery } from './ev-schemas.js';

/** The car's metric: the warmed-up default of the router, so the plan needs no hierarchy of its own. */
const CAR: MetricSpec = { costing: 'auto', preference: 'balanced', avoid: [] };
/** At most this many operational stations near one corridor are considered (strongest first). */
export const MAX_CORRIDOR_STATIONS = 2000;
const KM_PER_DEGREE = 111.32;

export type EvRouter = Pick<RoutingService, 'trip' | 'matrix'>;

export class EvService {
  constructor(
    private readonly stationsStore: EvStationRepository,
    private readonly routing: EvRouter,
  ) {}

  async stations(query: EvStationsQuery) {
    const [minLng, minLat, maxLng, maxLat] = query.bbox;
    const { total, stations } = await this.stationsStore.search({
      minLng,
      minLat,
      maxLng,
      maxLat,
      ...(query.minKw !== undefined ? { minKw: query.minKw } : {}),
      ...(query.connector !== undefined ? { connector: query.connector } : {}),
      ...(query.network !== undefined ? { network: query.network } : {}),
      availableOnly: query.availableOnly,
      limit: query.limit,
    });
    return {
      provider: 'svc-ev' as const,
      count: stations.length,
      total,
      stations,
      minKw: query.minKw ?? null,
      connector: query.connector ?? null,
      availableOnly: query.availableOnly,
      network: query.network ?? null,
      attribution: EV_ATTRIBUTION,
    };
  }

  async networks() {
    const networks = await this.stationsStore.networks();
    return { provider: 'svc-ev' as const, count: networks.length, networks, attribution: EV_ATTRIBUTION };
  }

  async plan(body: EvPlanBody, signal?: AbortSignal) {
    const outcome = await this.routing.trip(CAR, [toLocation(body.from), toLocation(body.to)], { language: 'en', units: 'kilometers' }, {}, signal);
    const points: LatLng[] = [];
    for (const leg of outcome.trip.legs) {
      const decoded = polyline.decode(leg.shape, 6).map(([lat, lng]) => ({ lat, lng }));
      points.push(...(points.length ? decoded.slice(1) : decoded));
    }
    const corridor = corridorOf(points, outcome.trip.summary.length);
    const stations = await this.corridorStations(points, body.detourKm);
    const plan = await planCharging(corridor, stations, body, (requests) => this.detours(requests, signal));
    return { provider: 'svc-ev' as const, ...plan, attribution: EV_ATTRIBUTION };
  }

  /** Operational stations in the corridor's box widened by `detourKm`. */
  private async corridorStations(points: LatLng[], detourKm: number): Promise<EvStation[]> {
    let minLat = 90;
    let maxLat = -90;
    let minLng = 180;
    let maxLng = -180;
    for (const { lat, lng } of points) {
      minLat = Math.min(minLat, lat);
      maxLat = Math.max(maxLat, lat);
      minLng = Math.min(minLng, lng);
      maxLng = Math.max(maxLng, lng);
    }
    const padLat = detourKm / KM_PER_DEGREE;
    const padLng = detourKm / (KM_PER_DEGREE * Math.max(0.05, Math.cos((Math.max(Math.abs(minLat), Math.abs(maxLat)) * Math.PI) / 180)));
    const { stations } = await this.stationsStore.search({
      minLat: minLat - padLat,
      maxLat: maxLat + padLat,
      minLng: minLng - padLng,
      maxLng: maxLng + padLng,
      statuses: ['operational'],
      limit: MAX_CORRIDOR_STATIONS,
    });
    return stations;
  }

  /** Road kilometres from each entry to its station and from it to the exit (one matrix each way, the diagonal read). */
  private async detours(requests: DetourRequest[], signal?: AbortSignal): Promise<Detour[]> {
    const entries = requests.map((request) => toLocation(request.entry));
    const exits = requests.map((request) => toLocation(request.exit));
    const stations = requests.map((request) => toLocation(request.station));
    const [there, back] = await Promise.all([this.routing.matrix(CAR, entries, stations, signal), this.routing.matrix(CAR, stations, exits, signal)]);
    return requests.map((_, index) => {
      const cell = index * requests.length + index;
      return { toKm: there.meters[cell]! / 1000, backKm: back.meters[cell]! / 1000 };
    });
  }
}

function toLocation(point: LatLng): RouteLocation {
  return { lat: point.lat, lon: point.lng };
}
