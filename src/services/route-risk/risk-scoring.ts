/**
 * Route-risk scoring (docs/map-data.md, Route risk): what each source's reading is worth (a value 0–1)
 * and how the five factors make a segment's score and the route's. Pure; the numbers are the documented
 * ones, tested in risk-scoring.test.ts.
 *
 * A segment's score is a noisy-OR of its factors, `100 × (1 − Π (1 − weight × value))`: every factor can
 * only raise it, one severe factor alone makes it high (a closure on the road is not averaged away by fine
 * weather), and an unavailable factor adds nothing (it is reported `available: false`, never guessed).
 * The route's score is `0.6 × its worst segment + 0.4 × the length-weighted mean`.
 */
import type { IncidentType } from '../../domain/incident.js';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import type { WeatherCondition } from '../weather/weather-conditions.js';

export const RISK_FACTORS = ['traffic', 'weather', 'incidents', 'logistics_zones', 'enforcement'] as const;
export type RiskFactor = (typeof RISK_FACTORS)[number];

/** The most a factor at value 1 adds on its own (as a share of 100). */
export const FACTOR_WEIGHTS: Readonly<Record<RiskFactor, number>> = Object.freeze({ traffic: 0.5, weather: 0.6, incidents: 0.85, logistics_zones: 0.75, enforcement: 0.25 });
/** Share of the route score from its worst segment; the rest is the length-weighted mean. */
export const WORST_SEGMENT_SHARE = 0.6;
/** Lower bounds of the levels above `low`. */
export const LEVEL_THRESHOLDS = Object.freeze({ moderate: 25, high: 50, severe: 75 });
export type RiskLevel = 'low' | 'moderate' | 'high' | 'severe';

/** Learned congestion at the departure hour (the traffic model's bands). */
export const CONGESTION_VALUES: Readonly<Record<'light' | 'moderate' | 'heavy' | 'severe', number>> = Object.freeze({ light: 0.05, moderate: 0.35, heavy: 0.7, severe: 1 });
/** The weather condition of the hour (src/services/weather/weather-conditions.ts). */
export const WEATHER_VALUES: Readonly<Record<WeatherCondition, number>> = Object.freeze({ clear: 0, rain: 0.35, fog: 0.5, dust: 0.55, heavy_rain: 0.7, snow: 0.85, storm: 1 });
/** Community incidents that make driving riskier; police and camera reports count as enforcement. */
export const INCIDENT_SEVERITY: Readonly<Partial<Record<IncidentType, number>>> = Object.freeze({ closure: 1, accident: 0.85, hazard: 0.6, jam: 0.45 });
/** Incidents within this distance of the route count fully; farther ones fade to INCIDENT_FAR_SHARE at INCIDENT_NEAR_METERS, beyond it not at all. */
export const INCIDENT_ON_ROUTE_METERS = 30;
export const INCIDENT_NEAR_METERS = 150;
export const INCIDENT_FAR_SHARE = 0.25;
/** A zone's value is its riskScore, at least this for the policy (an operator's "avoid" is itself a risk). */
export const ZONE_POLICY_FLOOR: Readonly<Record<LogisticsZone['routingPolicy'], number>> = Object.freeze({ avoid: 0.75, penalize: 0, allow: 0 });
/** Enforcement assets within this distance of the route count. */
export const ENFORCEMENT_METERS = 30;
export const ENFORCEMENT_VALUES = Object.freeze({ speedCamera: 0.4, trafficLight: 0.1, reportedCamera: 0.4, reportedPolice: 0.3 });

export interface FactorReading {
  available: boolean;
  /** 0 (no risk) to 1. */
  value: number;
  reasons: string[];
}

export interface ScoredFactor extends FactorReading {
  factor: RiskFactor;
  weight: number;
  /** Points of the score this factor alone would give: 100 × weight × value. */
  points: number;
}

export function levelOf(score: number): RiskLevel {
  if (score >= LEVEL_THRESHOLDS.severe) return 'severe';
  if (score >= LEVEL_THRESHOLDS.high) return 'high';
  if (score >= LEVEL_THRESHOLDS.moderate) return 'moderate';
  return 'low';
}

/** Several readings of one kind in one place (two incidents, a camera and a signal): 1 − Π (1 − value). */
export function unionOf(values: readonly number[]): number {
  return 1 - values.reduce((rest, value) => rest * (1 - clamp01(value)), 1);
}

/** A segment's score 0–100 from its five readings. */
export function segmentScore(readings: Readonly<Record<RiskFactor, FactorReading>>): { score: number; level: RiskLevel; factors: ScoredFactor[] } {
  const factors = RISK_FACTORS.map((factor) => {
    const reading = readings[factor];
    const value = reading.available ? round3(clamp01(reading.value)) : 0;
    return { factor, weight: FACTOR_WEIGHTS[factor], ...reading, value, points: round1(100 * FACTOR_WEIGHTS[factor] * value) };
  });
  const score = Math.round(100 * unionOf(factors.map((factor) => factor.weight * factor.value)));
  return { score, level: levelOf(score), factors };
}

/** The route's score from its segments' scores and lengths. */
export function routeScore(segments: readonly { score: number; meters: number }[]): number {
  if (!segments.length) return 0;
  const meters = segments.reduce((sum, segment) => sum + segment.meters, 0);
  const worst = Math.max(...segments.map((segment) => segment.score));
  const mean = meters > 0 ? segments.reduce((sum, segment) => sum + segment.score * segment.meters, 0) / meters : worst;
  return Math.round(WORST_SEGMENT_SHARE * worst + (1 - WORST_SEGMENT_SHARE) * mean);
}

/** An incident's value: its severity, faded with distance from the route, trusted in proportion to its confidence (half at none). */
export function incidentValue(type: IncidentType, meters: number, confidence: number): number {
  const severity = INCIDENT_SEVERITY[type] ?? 0;
  if (meters > INCIDENT_NEAR_METERS) return 0;
  const proximity = meters <= INCIDENT_ON_ROUTE_METERS ? 1 : 1 - ((1 - INCIDENT_FAR_SHARE) * (meters - INCIDENT_ON_ROUTE_METERS)) / (INCIDENT_NEAR_METERS - INCIDENT_ON_ROUTE_METERS);
  return severity * proximity * trustOf(confidence);
}

/** Community reports count from half (one unconfirmed report) to full (confidence 1). */
export function trustOf(confidence: number): number {
  return 0.5 + 0.5 * clamp01(confidence);
}

export function zoneValue(zone: Pick<LogisticsZone, 'riskScore' | 'routingPolicy'>): number {
  return Math.max(clamp01(zone.riskScore), ZONE_POLICY_FLOOR[zone.routingPolicy]);
}

export function congestionValue(congestion: string): number | undefined {
  return CONGESTION_VALUES[congestion as keyof typeof CONGESTION_VALUES];
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const round3 = (value: number) => Math.round(value * 1000) / 1000;
