/**
 * Isochrones and map matching (spec part 3 §4.1 engine passthroughs, payloads
 * in Valhalla's shape, see docs/routing-analysis.md): turns a validated
 * request into a solver task, runs it on the worker pool and shapes the
 * answer. No I/O besides the pool.
 */
import type { FeatureCollection } from 'geojson';
import { ApiError } from '../../shared/errors.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { MapMatchResult } from '../../solvers/routing/map-matching/map-matcher.js';
import { availableEnvelope as engineAnswer, EngineFailure, type EngineEnvelope, type EngineOutages } from '../routing/engine-envelope.js';
import type { ExternalEngine } from '../routing/external-engine.js';
import type { RoutingService } from '../routing/routing-service.js';
import { runWithBudget } from '../routing/solver-call.js';
import { roundTo } from '../../shared/rounding.js';
import type { Costing } from '../../domain/costing.js';

export const ISOCHRONE_PATH = '/routing/isochrone';
export const MAP_MATCH_PATH = '/routing/map-match';
/** How far the isochrone origin may lie from a road (m). */
export const ISOCHRONE_SEARCH_CUTOFF_METERS = 500;

export interface IsochroneQuery {
  id?: string | undefined;
  locations: { lat: number; lon: number; search_cutoff?: number | undefined }[];
  costing: Costing;
  contours: { time?: number | undefined; distance?: number | undefined; color?: string | undefined }[];
  polygons: boolean;
  denoise: number;
  generalize: number;
  show_locations: boolean;
}

export interface TraceOptions {
  search_radius?: number | undefined;
  gps_accuracy?: number | undefined;
  breakage_distance?: number | undefined;
  interpolation_distance?: number | undefined;
}

export interface MapMatchQuery extends TraceOptions {
  id?: string | undefined;
  /** The trace, from `shape` or decoded from `encoded_polyline`. */
  points: { lat: number; lon: number; time?: number | undefined }[];
  costing: Costing;
  trace_options?: TraceOptions | undefined;
}

export type IsochroneData = FeatureCollection & { id?: string };

export interface MapMatchData {
  id?: string;
  units: 'kilometers';
  confidence_score: number;
  shape: string;
  distance: number;
  sub_matches: number;
  matched_points: Record<string, unknown>[];
  edges: Record<string, unknown>[];
  attribution: string;
}

export interface RoutingAnalysisOptions {
  solvers: SolverPool;
  /** Costing availability (truck only with truck data). */
  routing: Pick<RoutingService, 'assertAvailable'>;
  /** Time budget of one computation (ROUTING_TIMEOUT_MS). */
  timeoutMs: number;
  /** With ROUTING_ENGINE_URL: requests go through to that engine as they came. */
  external?: ExternalEngine;
  /** The engine's own failures answer `available: false` (engine-envelope.ts). */
  outages: EngineOutages;
}

export class RoutingAnalysisService {
  constructor(private readonly options: RoutingAnalysisOptions) {}

  get passthrough(): boolean {
    return this.options.external !== undefined;
  }

  async isochrone(query: IsochroneQuery, request: unknown, signal?: AbortSignal): Promise<EngineEnvelope<IsochroneData | unknown>> {
    if (this.options.external) return this.options.external.call(ISOCHRONE_PATH, request, signal);
    return this.options.outages.answer(ISOCHRONE_PATH, request, () => this.isochroneHere(query, signal));
  }

  private async isochroneHere(query: IsochroneQuery, signal?: AbortSignal): Promise<EngineEnvelope<IsochroneData>> {
    this.options.routing.assertAvailable(query.costing);
    const location = query.locations[0]!;
    const contourMetric = query.contours[0]!.time !== undefined ? 'time' : 'distance';
    const result = await runWithBudget(
      this.options.solvers,
      'isochrone',
      {
        metric: { costing: query.costing, preference: 'fastest', avoid: [] },
        location: { lat: location.lat, lon: location.lon, searchCutoffMeters: location.search_cutoff ?? ISOCHRONE_SEARCH_CUTOFF_METERS },
        contourMetric,
        contours: query.contours.map((contour) => ({ value: (contourMetric === 'time' ? contour.time : contour.distance)!, ...(contour.color ? { color: contour.color } : {}) })),
        polygons: query.polygons,
        denoise: query.denoise,
        generalizeMeters: query.generalize,
        showLocations: query.show_locations,
      },
      this.options.timeoutMs,
      signal,
    );
    if (!result.ok) {
      if (result.code === 'no_map_pack') throw new EngineFailure('The routing engine has no map data', result.code);
      if (result.code === 'no_road_nearby') {
        throw new ApiError('NO_ROAD_NEARBY', {
          message: `locations[0]: no ${query.costing} road within ${result.cutoffMeters} m`,
          details: { reason: 'origin_not_near_road', locationIndex: 0, searchRadiusMeters: result.cutoffMeters },
        });
      }
    }
    return engineAnswer(ISOCHRONE_PATH, { ...(query.id !== undefined ? { id: query.id } : {}), ...result.value.collection });
  }

  async mapMatch(query: MapMatchQuery, request: unknown, signal?: AbortSignal): Promise<EngineEnvelope<MapMatchData | unknown>> {
    if (this.options.external) return this.options.external.call(MAP_MATCH_PATH, request, signal);
    return this.options.outages.answer(MAP_MATCH_PATH, request, () => this.mapMatchHere(query, signal));
  }

  private async mapMatchHere(query: MapMatchQuery, signal?: AbortSignal): Promise<EngineEnvelope<MapMatchData>> {
    this.options.routing.assertAvailable(query.costing);
    const options = { ...pickTraceOptions(query), ...pickTraceOptions(query.trace_options ?? {}) };
    const result = await runWithBudget(
      this.options.solvers,
      'mapMatch',
      {
        metric: { costing: query.costing, preference: 'fastest', avoid: [] },
        points: query.points.map((point) => ({ lat: point.lat, lon: point.lon, ...(point.time !== undefined ? { time: point.time } : {}) })),
        options: {
          searchRadiusMeters: options.search_radius,
          gpsAccuracyMeters: options.gps_accuracy,
          breakageDistanceMeters: options.breakage_distance,
          interpolationDistanceMeters: options.interpolation_distance,
        },
      },
      this.options.timeoutMs,
      signal,
    );
    if (!result.ok) {
      if (result.code === 'no_map_pack') throw new EngineFailure('The routing engine has no map data', result.code);
      if (result.code === 'no_road_nearby') {
        throw new ApiError('NO_ROAD_NEARBY', {
          message: `shape: no point of the trace lies within ${result.searchRadiusMeters} m of a ${query.costing} road`,
          details: { reason: 'trace_not_near_roads', searchRadiusMeters: result.searchRadiusMeters },
        });
      }
    }
    return engineAnswer(MAP_MATCH_PATH, matchData(query, result.value));
  }
}

function pickTraceOptions(source: TraceOptions): TraceOptions {
  const { search_radius, gps_accuracy, breakage_distance, interpolation_distance } = source;
  return Object.fromEntries(Object.entries({ search_radius, gps_accuracy, breakage_distance, interpolation_distance }).filter(([, value]) => value !== undefined));
}

/** The solver's result in Valhalla's trace_attributes shape (snake_case, lengths in km). */
function matchData(query: MapMatchQuery, result: MapMatchResult): MapMatchData {
  return {
    ...(query.id !== undefined ? { id: query.id } : {}),
    units: 'kilometers',
    confidence_score: roundTo(result.confidence, 4),
    shape: result.encodedShape,
    distance: roundTo(result.lengthMeters / 1000, 4),
    sub_matches: result.subMatches,
    matched_points: result.points.map((point, index) => ({
      type: point.type,
      lat: roundTo(point.lat, 6),
      lon: roundTo(point.lon, 6),
      ...(point.edgeIndex !== undefined ? { edge_index: point.edgeIndex } : {}),
      ...(point.distanceAlongEdge !== undefined ? { distance_along_edge: roundTo(point.distanceAlongEdge, 4) } : {}),
      ...(point.distanceFromTraceMeters !== undefined ? { distance_from_trace_point: roundTo(point.distanceFromTraceMeters, 2) } : {}),
      ...(point.beginRouteDiscontinuity ? { begin_route_discontinuity: true } : {}),
      ...(point.endRouteDiscontinuity ? { end_route_discontinuity: true } : {}),
      ...(query.points[index]!.time !== undefined ? { time: query.points[index]!.time } : {}),
    })),
    edges: result.edges.map((edge) => ({
      id: edge.edge,
      way_id: edge.wayId,
      names: edge.names,
      road_class: edge.roadClass,
      speed: edge.speedKph,
      length: roundTo(edge.lengthMeters / 1000, 4),
      begin_shape_index: edge.beginShapeIndex,
      end_shape_index: edge.endShapeIndex,
      sub_match: edge.subMatch,
    })),
    attribution: '© OpenStreetMap contributors (ODbL)',
  };
}
