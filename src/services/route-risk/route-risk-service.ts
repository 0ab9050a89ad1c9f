/**
 * POST /map/route-risk (issue #29; docs/map-data.md, Route risk): a route, given or routed here, cut into
 * segments, each read by five sources (learned traffic at the hour it is entered, the weather forecast,
 * live incidents, logistics zones, enforcement assets) and scored; the route scored from its segments.
 * A source this server lacks, or that has nothing to say here, is reported `available: false`, never guessed.
 */
import polyline from '@mapbox/polyline';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import { ApiError } from '../../shared/errors.js';
import type { IncidentService } from '../incidents/incident-service.js';
import type { IndexedFeature } from '../map-data/pack-overlays.js';
import type { LngLat } from '../map-data/zone-crossing.js';
import type { OverlayLayerType } from '../map-data/overlay-layers.js';
import { EngineFailure } from '../routing/engine-envelope.js';
import { metricOf } from '../routing/engine-request.js';
import type { RoutingService } from '../routing/routing-service.js';
import type { TrafficService } from '../traffic/traffic-service.js';
import type { WeatherForecast, WeatherSource } from '../weather/open-meteo-forecast.js';
import {
  enforcementReading,
  incidentReading,
  nearestSegments,
  segmentGeometry,
  trafficReading,
  weatherReading,
  zoneReading,
  type EnforcementAsset,
  type IncidentReading,
  type TrafficLabelReading,
} from './risk-readings.js';
import { FACTOR_WEIGHTS, INCIDENT_NEAR_METERS, LEVEL_THRESHOLDS, RISK_FACTORS, WORST_SEGMENT_SHARE, levelOf, routeScore, segmentScore, type ScoredFactor } from './risk-scoring.js';
import { decodePolyline6, lineMeters, lineOfCoordinates, segmentLengthFor, splitLine } from './route-line.js';
import { MAX_DEPART_OFFSET_MS, type RouteRiskRequest } from './route-risk-request.js';

export const PROVIDER = 'svc-route-risk';
/** A given route (no engine timing) is timed at this mean speed to know the hour each segment is entered. */
export const ASSUMED_SPEED_KPH = 40;
/** Most forecast cells (0.1°) one request asks the weather provider for; other segments take the nearest asked. */
export const MAX_WEATHER_CELLS = 25;
/** Most distinct hours of learned traffic one request reads. */
export const MAX_TRAFFIC_HOURS = 26;
const HOUR_MS = 3_600_000;
const METERS_PER_DEGREE = 111_320;

export interface RouteRiskSources {
  routing: Pick<RoutingService, 'trip'>;
  traffic?: Pick<TrafficService, 'labels'>;
  weather?: WeatherSource;
  incidents?: Pick<IncidentService, 'live'>;
  zones?: { activeZones(): Promise<LogisticsZone[]> };
  pack: { features(layerType: OverlayLayerType): IndexedFeature[] | undefined; segmentShape(segmentKey: string): [number, number][] | undefined };
  now?: () => number;
}

interface RoutedLine {
  line: LngLat[];
  source: 'polyline' | 'geometry' | 'routed';
  durationSeconds: number | null;
}

export class RouteRiskService {
  private readonly now: () => number;

  constructor(private readonly sources: RouteRiskSources) {
    this.now = sources.now ?? Date.now;
  }

  async score(body: RouteRiskRequest, signal?: AbortSignal) {
    const nowMs = this.now();
    const departMs = body.departAt ? Date.parse(body.departAt) : nowMs;
    if (Math.abs(departMs - nowMs) > MAX_DEPART_OFFSET_MS) throw new ApiError('VALIDATION_ERROR', { message: 'departAt: at most a year from now' });
    const route = await this.lineOf(body, signal);
    const totalMeters = lineMeters(route.line);
    const segmentMeters = segmentLengthFor(totalMeters, body.segmentMeters);
    const geometries = splitLine(route.line, segmentMeters).map(segmentGeometry);
    // when each segment is entered: the engine's time spread by distance, else the assumed speed
    const secondsPerMeter = route.durationSeconds !== null && totalMeters > 0 ? route.durationSeconds / totalMeters : 3.6 / ASSUMED_SPEED_KPH;
    const enteredAt = geometries.map(({ segment }) => departMs + segment.startMeters * secondsPerMeter * 1000);
    const box = boxOf(route.line, INCIDENT_NEAR_METERS);

    const [labelsByHour, forecasts, incidents, zones] = await Promise.all([
      this.trafficLabels(box, enteredAt),
      this.forecasts(geometries.map(({ segment }) => segment.points[Math.floor(segment.points.length / 2)]!)),
      this.sources.incidents?.live({ west: box[0], south: box[1], east: box[2], north: box[3] }, undefined, 5_000),
      this.sources.zones?.activeZones(),
    ]);
    const incidentPoints: IncidentReading[] = (incidents ?? []).map((incident) => ({ id: incident.id, incidentType: incident.incidentType, lat: incident.lat, lng: incident.lng, confidence: incident.confidence, reports: incident.reports }));
    const incidentsNear = nearestSegments(geometries, incidentPoints, INCIDENT_NEAR_METERS);
    const assets = this.enforcementAssets(box);
    const anyEnforcement = assets.known || incidentPoints.some((incident) => incident.incidentType === 'camera' || incident.incidentType === 'police');

    const segments = geometries.map((geometry, index) => {
      const { segment } = geometry;
      const atMs = enteredAt[index]!;
      const hour = hourKey(atMs);
      const scored = segmentScore({
        traffic: trafficReading(geometry, labelsByHour?.get(hour) ?? labelsByHour?.get([...labelsByHour.keys()].at(-1)!), `${new Date(hour * HOUR_MS).toISOString().slice(0, 13)}:00Z`),
        weather: weatherReading(forecasts[index]!, atMs),
        incidents: incidentReading(incidentsNear.get(segment.index), this.sources.incidents !== undefined),
        logistics_zones: zoneReading(geometry, zones),
        enforcement: enforcementReading(geometry, assets.items, incidentsNear.get(segment.index), anyEnforcement),
      });
      const first = segment.points[0]!;
      const last = segment.points[segment.points.length - 1]!;
      return {
        index: segment.index,
        startMeters: Math.round(segment.startMeters),
        endMeters: Math.round(segment.endMeters),
        distanceMeters: Math.round(segment.endMeters - segment.startMeters),
        enteredAt: new Date(atMs).toISOString(),
        from: roundPoint(first),
        to: roundPoint(last),
        shape: polyline.encode(segment.points.map(([lng, lat]) => [lat, lng]), 6),
        score: scored.score,
        level: scored.level,
        factors: scored.factors,
      };
    });
    const score = routeScore(segments.map((segment) => ({ score: segment.score, meters: segment.endMeters - segment.startMeters })));
    return {
      provider: PROVIDER,
      departAt: new Date(departMs).toISOString(),
      score,
      level: levelOf(score),
      route: {
        source: route.source,
        costing: route.source === 'routed' ? body.costing : null,
        distanceMeters: Math.round(totalMeters),
        durationSeconds: route.durationSeconds === null ? null : Math.round(route.durationSeconds),
        durationSource: route.durationSeconds === null ? `assumed ${ASSUMED_SPEED_KPH} km/h` : 'engine',
        shape: polyline.encode(route.line.map(([lng, lat]) => [lat, lng]), 6),
        segmentMeters,
        segmentCount: segments.length,
      },
      factors: RISK_FACTORS.map((factor) => summarise(factor, segments)),
      segments,
      formula: {
        segment: 'score = round(100 × (1 − Π over factors (1 − weight × value))); an unavailable factor has value 0',
        route: `score = round(${WORST_SEGMENT_SHARE} × worst segment score + ${1 - WORST_SEGMENT_SHARE} × length-weighted mean segment score)`,
        weights: FACTOR_WEIGHTS,
        levels: { low: `< ${LEVEL_THRESHOLDS.moderate}`, moderate: `${LEVEL_THRESHOLDS.moderate}–${LEVEL_THRESHOLDS.high - 1}`, high: `${LEVEL_THRESHOLDS.high}–${LEVEL_THRESHOLDS.severe - 1}`, severe: `≥ ${LEVEL_THRESHOLDS.severe}` },
      },
      attribution: '© OpenStreetMap contributors, ODbL',
    };
  }

  private async lineOf(body: RouteRiskRequest, signal: AbortSignal | undefined): Promise<RoutedLine> {
    if (body.polyline !== undefined) return { line: decodePolyline6(body.polyline), source: 'polyline', durationSeconds: null };
    if (body.geometry) return { line: lineOfCoordinates(body.geometry.coordinates), source: 'geometry', durationSeconds: null };
    const locations = [body.origin!, ...body.waypoints, body.destination!];
    try {
      const { trip } = await this.sources.routing.trip(metricOf(body.costing, undefined), locations, { language: 'en-US', units: 'kilometers', costing: body.costing }, {}, signal);
      const line: LngLat[] = [];
      for (const leg of trip.legs) {
        for (const [lat, lng] of polyline.decode(leg.shape, 6)) {
          const last = line[line.length - 1];
          if (!last || last[0] !== lng || last[1] !== lat) line.push([lng, lat]);
        }
      }
      if (line.length < 2) line.push(line[0]!);
      return { line, source: 'routed', durationSeconds: trip.summary.time };
    } catch (error) {
      if (error instanceof EngineFailure) throw new ApiError('SERVICE_UNAVAILABLE', { message: `The routing engine could not route this request now (${error.failure}); try again` });
      throw error;
    }
  }

  /** Learned labels in the route's box for each hour a segment is entered in (hour key → labels); undefined without traffic. */
  private async trafficLabels(box: [number, number, number, number], enteredAt: readonly number[]): Promise<Map<number, TrafficLabelReading[]> | undefined> {
    const traffic = this.sources.traffic;
    if (!traffic) return undefined;
    const hours = [...new Set(enteredAt.map(hourKey))].slice(0, MAX_TRAFFIC_HOURS);
    const clamped = [Math.max(-180, box[0]), Math.max(-90, box[1]), Math.min(180, box[2]), Math.min(90, box[3])].join(',');
    const entries = await Promise.all(
      hours.map(async (hour) => {
        // the hour's middle, so a departure at 08:59 and one at 08:00 read the same profile
        const { labels } = await traffic.labels({ bbox: clamped, at: new Date(hour * HOUR_MS + HOUR_MS / 2).toISOString() });
        return [hour, labels.map((label) => ({ ...label, shape: this.sources.pack.segmentShape(label.segmentKey) }))] as const;
      }),
    );
    return new Map(entries);
  }

  /** The forecast at each segment's middle (one provider call per 0.1° cell, at most MAX_WEATHER_CELLS cells). */
  private async forecasts(middles: readonly LngLat[]): Promise<(WeatherForecast | 'unconfigured' | 'failed')[]> {
    const weather = this.sources.weather;
    if (!weather?.configured) return middles.map(() => 'unconfigured' as const);
    const cellOf = ([lng, lat]: LngLat) => `${Math.round(lat * 10) / 10},${Math.round(lng * 10) / 10}`;
    const cells = [...new Set(middles.map(cellOf))];
    // a long route crossing more cells than allowed: every n-th cell, the others read their nearest asked one
    const step = Math.ceil(cells.length / MAX_WEATHER_CELLS);
    const asked = cells.filter((_, index) => index % step === 0);
    const fetched = new Map(await Promise.all(asked.map(async (cell) => [cell, await weather.forecast(...(cell.split(',').map(Number) as [number, number]))] as const)));
    return middles.map(([lng, lat]) => {
      const nearest = asked.reduce((best, cell) => {
        const [cellLat, cellLng] = cell.split(',').map(Number) as [number, number];
        const distance = Math.hypot(cellLat - lat, cellLng - lng);
        return distance < best.distance ? { cell, distance } : best;
      }, { cell: asked[0]!, distance: Infinity });
      return fetched.get(nearest.cell) ?? ('failed' as const);
    });
  }

  /** The map data's speed and enforcement cameras and traffic lights in the box; `known` when the map data has any anywhere. */
  private enforcementAssets(box: [number, number, number, number]): { items: EnforcementAsset[]; known: boolean } {
    const items: EnforcementAsset[] = [];
    let known = false;
    // a speed camera node is also in traffic_cameras, and an enforcement relation sits on its device node: one camera per place
    const seen = new Set<string>();
    const layers = [['speed_cameras', 'speed_camera'], ['traffic_cameras', 'speed_camera'], ['traffic_lights', 'traffic_light']] as const;
    for (const [layerType, kind] of layers) {
      const features = this.sources.pack.features(layerType) ?? [];
      known ||= features.length > 0;
      for (const { feature, bounds } of features) {
        if (bounds[0] > box[2] || bounds[2] < box[0] || bounds[1] > box[3] || bounds[3] < box[1] || feature.geometry.type !== 'Point') continue;
        const [lng, lat] = feature.geometry.coordinates as [number, number];
        const place = `${kind}@${lng.toFixed(6)},${lat.toFixed(6)}`;
        if (seen.has(place)) continue;
        seen.add(place);
        items.push({ kind, id: String(feature.properties.id ?? ''), lng, lat });
      }
    }
    return { items, known };
  }
}

/** Six decimals (about 0.1 m), as the polyline keeps them. */
function roundPoint([lng, lat]: LngLat): LngLat {
  return [Math.round(lng * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6];
}

function hourKey(atMs: number): number {
  return Math.floor(atMs / HOUR_MS);
}

/** A factor over the whole route: available where any segment had it, its length-weighted mean and worst value, the reasons once each. */
function summarise(factor: (typeof RISK_FACTORS)[number], segments: readonly { distanceMeters: number; factors: ScoredFactor[] }[]) {
  const readings = segments.map((segment) => ({ meters: segment.distanceMeters, reading: segment.factors.find((entry) => entry.factor === factor)! }));
  const meters = readings.reduce((sum, entry) => sum + entry.meters, 0);
  const value = meters > 0 ? readings.reduce((sum, entry) => sum + entry.reading.value * entry.meters, 0) / meters : 0;
  // the segments that read something speak for the route; the quiet ones' "nothing here" only when all are quiet
  const speaking = readings.filter((entry) => entry.reading.value > 0);
  const reasons = [...new Set((speaking.length ? speaking : readings).flatMap((entry) => entry.reading.reasons))];
  return {
    factor,
    weight: FACTOR_WEIGHTS[factor],
    available: readings.some((entry) => entry.reading.available),
    value: Math.round(value * 1000) / 1000,
    maxValue: Math.max(0, ...readings.map((entry) => entry.reading.value)),
    reasons: reasons.slice(0, 20),
    ...(reasons.length > 20 ? { moreReasons: reasons.length - 20 } : {}),
  };
}

/** [west, south, east, north] of a line, grown by `meters`. */
function boxOf(line: readonly LngLat[], meters: number): [number, number, number, number] {
  let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [lng, lat] of line) {
    west = Math.min(west, lng); east = Math.max(east, lng);
    south = Math.min(south, lat); north = Math.max(north, lat);
  }
  const dLat = meters / METERS_PER_DEGREE;
  const dLng = meters / (METERS_PER_DEGREE * Math.max(0.01, Math.cos((((south + north) / 2) * Math.PI) / 180)));
  return [west - dLng, south - dLat, east + dLng, north + dLat];
}
