/**
 * Each source's reading of each route segment (docs/map-data.md, Route risk): what was found near the
 * segment, its value 0–1 (risk-scoring.ts) and the reasons, in words. Pure: the service fetches, these read.
 */
import type { IncidentType } from '../../domain/incident.js';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import { corridorOf, distanceToCorridor, type Corridor, type LatLng } from '../routing/corridor.js';
import { metersInside, type LngLat } from '../map-data/zone-crossing.js';
import { conditionOf, type WeatherHour } from '../weather/weather-conditions.js';
import {
  ENFORCEMENT_METERS,
  ENFORCEMENT_VALUES,
  INCIDENT_NEAR_METERS,
  INCIDENT_SEVERITY,
  WEATHER_VALUES,
  congestionValue,
  incidentValue,
  trustOf,
  unionOf,
  zoneValue,
  type FactorReading,
} from './risk-scoring.js';
import type { LineSegment } from './route-line.js';

/** A learned-traffic label (GET /traffic/labels) with its road's shape when the pack has it. */
export interface TrafficLabelReading {
  segmentKey: string;
  congestion: string;
  speedRatio: number;
  reason: string;
  lat: number;
  lng: number;
  shape: [number, number][] | undefined;
}
export interface IncidentReading { id: string; incidentType: IncidentType; lat: number; lng: number; confidence: number; reports: number }
export interface EnforcementAsset { kind: 'speed_camera' | 'traffic_light'; id: string; lng: number; lat: number }

/** A label's road lies along the route when its points at a quarter, half and three quarters are this close. */
export const TRAFFIC_MATCH_METERS = 10;

export interface SegmentGeometry {
  segment: LineSegment;
  corridor: Corridor;
}

export function segmentGeometry(segment: LineSegment): SegmentGeometry {
  return { segment, corridor: corridorOf(segment.points.map(([lng, lat]) => [lat, lng] as LatLng)) };
}

const unavailable = (reason: string): FactorReading => ({ available: false, value: 0, reasons: [reason] });
const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;
const within = (corridor: Corridor, lat: number, lng: number, meters: number) => distanceToCorridor(corridor, lat, lng) <= meters;

/** Traffic: the learned labels of the roads the segment runs along, at the hour it is entered. */
export function trafficReading(geometry: SegmentGeometry, labels: readonly TrafficLabelReading[] | undefined, hourText: string): FactorReading {
  if (!labels) return unavailable('learned traffic is not available on this server');
  const matched = labels.filter((label) => alongRoute(geometry.corridor, label));
  if (!matched.length) return unavailable(`no learned traffic profile for these roads at ${hourText}`);
  const values = matched.map((label) => ({ label, value: congestionValue(label.congestion) ?? 0 }));
  const value = values.reduce((sum, entry) => sum + entry.value, 0) / values.length;
  const worst = values.reduce((a, b) => (b.value > a.value ? b : a));
  const meanRatio = matched.reduce((sum, label) => sum + label.speedRatio, 0) / matched.length;
  return {
    available: true,
    value,
    reasons: [`${worst.label.congestion} traffic at ${hourText} on ${matched.length} road section${matched.length === 1 ? '' : 's'} (mean speed ${pct(meanRatio)} of free flow): ${worst.label.reason}`],
  };
}

function alongRoute(corridor: Corridor, label: TrafficLabelReading): boolean {
  const shape = label.shape;
  if (!shape || shape.length < 2) return within(corridor, label.lat, label.lng, TRAFFIC_MATCH_METERS);
  return [0.25, 0.5, 0.75].every((share) => {
    const [lng, lat] = pointAlong(shape, share);
    return within(corridor, lat, lng, TRAFFIC_MATCH_METERS);
  });
}

/** The point a share of the way along a line (by vertex-to-vertex distance on a flat local projection). */
function pointAlong(line: readonly [number, number][], share: number): [number, number] {
  const kx = Math.cos((line[0]![1] * Math.PI) / 180);
  const lengths = line.slice(1).map((point, index) => Math.hypot((point[0] - line[index]![0]) * kx, point[1] - line[index]![1]));
  let target = lengths.reduce((sum, length) => sum + length, 0) * share;
  for (let index = 0; index < lengths.length; index++) {
    const length = lengths[index]!;
    if (target <= length && length > 0) {
      const t = target / length;
      const [a, b] = [line[index]!, line[index + 1]!];
      return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
    }
    target -= length;
  }
  return line[line.length - 1]!;
}

/** Weather: the condition of the forecast hour the segment is entered in, at its middle's provider cell. */
export function weatherReading(forecast: { provider: string; hours: readonly WeatherHour[] } | 'unconfigured' | 'failed', atMs: number): FactorReading {
  if (forecast === 'unconfigured') return unavailable('no weather provider is configured (WEATHER_URL): weather is not assumed');
  if (forecast === 'failed') return unavailable('the weather provider did not answer: weather is not assumed');
  const hour = forecast.hours.find((candidate) => atMs >= candidate.atMs && atMs < candidate.atMs + 3_600_000);
  if (!hour) return unavailable('the departure is outside the forecast the provider gave (the next 72 hours)');
  const condition = conditionOf(hour);
  const details = [
    hour.weatherCode !== undefined ? `WMO code ${hour.weatherCode}` : undefined,
    hour.precipitationMm !== undefined ? `${hour.precipitationMm} mm/h` : undefined,
    hour.windGustsKph !== undefined ? `gusts ${hour.windGustsKph} km/h` : undefined,
    hour.visibilityM !== undefined ? `visibility ${hour.visibilityM} m` : undefined,
  ].filter(Boolean);
  return { available: true, value: WEATHER_VALUES[condition], reasons: [`${condition.replace('_', ' ')} forecast for ${new Date(hour.atMs).toISOString().slice(0, 13)}:00Z (${details.join(', ')}; ${forecast.provider})`] };
}

/** The segment each point is nearest to (within `meters`), so a point between two segments counts once. */
export function nearestSegments<T extends { lat: number; lng: number }>(geometries: readonly SegmentGeometry[], points: readonly T[], meters: number): Map<number, { item: T; meters: number }[]> {
  const bySegment = new Map<number, { item: T; meters: number }[]>();
  for (const item of points) {
    let best: { index: number; meters: number } | undefined;
    for (const geometry of geometries) {
      const { corridor } = geometry;
      const dLat = meters / 111_320;
      if (item.lat < corridor.south - dLat || item.lat > corridor.north + dLat) continue;
      const distance = distanceToCorridor(corridor, item.lat, item.lng);
      if (distance <= meters && (!best || distance < best.meters)) best = { index: geometry.segment.index, meters: distance };
    }
    if (best) bySegment.set(best.index, [...(bySegment.get(best.index) ?? []), { item, meters: best.meters }]);
  }
  return bySegment;
}

/** Incidents: live community reports that make driving riskier (closures, accidents, hazards, jams) near the segment. */
export function incidentReading(near: readonly { item: IncidentReading; meters: number }[] | undefined, source: boolean): FactorReading {
  if (!source) return unavailable('community incidents are not available on this server');
  const risky = (near ?? []).filter(({ item }) => INCIDENT_SEVERITY[item.incidentType] !== undefined);
  if (!risky.length) return { available: true, value: 0, reasons: [`no live accident, closure, hazard or jam within ${INCIDENT_NEAR_METERS} m`] };
  return {
    available: true,
    value: unionOf(risky.map(({ item, meters }) => incidentValue(item.incidentType, meters, item.confidence))),
    reasons: risky.map(({ item, meters }) => `${item.incidentType} reported ${Math.round(meters)} m from the route (confidence ${item.confidence}, ${item.reports} report${item.reports === 1 ? '' : 's'}; incident ${item.id})`),
  };
}

/** Logistics zones: the active zones the segment runs through, each at its riskScore (an avoid zone at least 0.75). */
export function zoneReading(geometry: SegmentGeometry, zones: readonly LogisticsZone[] | undefined): FactorReading {
  if (!zones) return unavailable('logistics zones are not available on this server');
  const crossed = zones.map((zone) => ({ zone, meters: metersInside(zone, geometry.segment.points as LngLat[]) })).filter((entry) => entry.meters > 0);
  if (!crossed.length) return { available: true, value: 0, reasons: ['crosses no active logistics zone'] };
  return {
    available: true,
    value: Math.max(...crossed.map(({ zone }) => zoneValue(zone))),
    reasons: crossed.map(
      ({ zone, meters }) =>
        `${Math.round(meters)} m inside ${zone.zoneType} zone "${zone.name}" (risk ${zone.riskScore}, cost ×${zone.costMultiplier}, policy ${zone.routingPolicy}${zone.routingPolicy === 'avoid' ? ': operators ask routes to avoid it' : ''}${zone.zoneType === 'restricted' ? '; restricted access' : ''}; zone ${zone.id})`,
    ),
  };
}

/**
 * Enforcement: speed cameras and traffic lights of the map data within 30 m of the segment, and live camera and
 * police reports near it. Unavailable where the map data has none of them anywhere and nobody reported one.
 */
export function enforcementReading(
  geometry: SegmentGeometry,
  assets: readonly EnforcementAsset[] | undefined,
  reports: readonly { item: IncidentReading; meters: number }[] | undefined,
  anyKnown: boolean,
): FactorReading {
  const reported = (reports ?? []).filter(({ item }) => item.incidentType === 'camera' || item.incidentType === 'police');
  if (!anyKnown) return unavailable('the loaded map data has no speed cameras, traffic cameras or traffic lights, and no camera or police report is live near the route');
  const nearby = (assets ?? []).filter((asset) => within(geometry.corridor, asset.lat, asset.lng, ENFORCEMENT_METERS));
  const cameras = nearby.filter((asset) => asset.kind === 'speed_camera').length;
  const lights = nearby.filter((asset) => asset.kind === 'traffic_light').length;
  const values = [
    ...Array<number>(cameras).fill(ENFORCEMENT_VALUES.speedCamera),
    ...Array<number>(lights).fill(ENFORCEMENT_VALUES.trafficLight),
    ...reported.map(({ item }) => (item.incidentType === 'camera' ? ENFORCEMENT_VALUES.reportedCamera : ENFORCEMENT_VALUES.reportedPolice) * trustOf(item.confidence)),
  ];
  const reasons = [
    ...(cameras ? [`${cameras} speed camera${cameras === 1 ? '' : 's'} on the route (OpenStreetMap)`] : []),
    ...(lights ? [`${lights} traffic light${lights === 1 ? '' : 's'} on the route (OpenStreetMap)`] : []),
    ...reported.map(({ item, meters }) => `${item.incidentType} reported ${Math.round(meters)} m from the route (confidence ${item.confidence}; incident ${item.id})`),
  ];
  return { available: true, value: unionOf(values), reasons: reasons.length ? reasons : [`no speed camera or traffic light within ${ENFORCEMENT_METERS} m`] };
}
