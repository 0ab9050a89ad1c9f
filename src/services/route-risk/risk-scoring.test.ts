import { describe, expect, it } from 'vitest';
import {
  FACTOR_WEIGHTS,
  INCIDENT_FAR_SHARE,
  INCIDENT_NEAR_METERS,
  INCIDENT_ON_ROUTE_METERS,
  RISK_FACTORS,
  incidentValue,
  levelOf,
  routeScore,
  segmentScore,
  unionOf,
  zoneValue,
  type FactorReading,
  type RiskFactor,
} from './risk-scoring.js';

const quiet: FactorReading = { available: true, value: 0, reasons: [] };
function readings(overrides: Partial<Record<RiskFactor, FactorReading>> = {}): Record<RiskFactor, FactorReading> {
  return { ...(Object.fromEntries(RISK_FACTORS.map((factor) => [factor, quiet])) as Record<RiskFactor, FactorReading>), ...overrides };
}

describe('segment score', () => {
  it('is 0 when every source reads nothing, and one factor alone gives 100 × weight × value', () => {
    expect(segmentScore(readings()).score).toBe(0);
    const closure = segmentScore(readings({ incidents: { available: true, value: 1, reasons: ['closure'] } }));
    expect(closure.score).toBe(Math.round(100 * FACTOR_WEIGHTS.incidents));
    expect(closure.level).toBe('severe');
    expect(closure.factors.find((factor) => factor.factor === 'incidents')).toMatchObject({ weight: FACTOR_WEIGHTS.incidents, value: 1, points: 100 * FACTOR_WEIGHTS.incidents, reasons: ['closure'] });
  });

  it('combines factors as a noisy-OR: more factors only raise it, never past 100', () => {
    const one = segmentScore(readings({ weather: { available: true, value: 0.7, reasons: [] } })).score;
    const two = segmentScore(readings({ weather: { available: true, value: 0.7, reasons: [] }, traffic: { available: true, value: 0.7, reasons: [] } })).score;
    expect(two).toBeGreaterThan(one);
    expect(two).toBe(Math.round(100 * (1 - (1 - FACTOR_WEIGHTS.weather * 0.7) * (1 - FACTOR_WEIGHTS.traffic * 0.7))));
    const all = segmentScore(readings(Object.fromEntries(RISK_FACTORS.map((factor) => [factor, { available: true, value: 1, reasons: [] }])))).score;
    expect(all).toBeLessThanOrEqual(100);
  });

  it('lets an unavailable factor add nothing, whatever value it carries', () => {
    const scored = segmentScore(readings({ weather: { available: false, value: 1, reasons: ['no provider'] } }));
    expect(scored.score).toBe(0);
    expect(scored.factors.find((factor) => factor.factor === 'weather')).toMatchObject({ available: false, value: 0, points: 0, reasons: ['no provider'] });
  });
});

describe('route score and levels', () => {
  it('weighs the worst segment 0.6 and the length-weighted mean 0.4', () => {
    expect(routeScore([{ score: 80, meters: 100 }, { score: 0, meters: 900 }])).toBe(Math.round(0.6 * 80 + 0.4 * 8));
    expect(routeScore([{ score: 40, meters: 500 }, { score: 40, meters: 500 }])).toBe(40);
    expect(routeScore([])).toBe(0);
  });

  it('cuts the levels at 25, 50 and 75', () => {
    expect([0, 24, 25, 49, 50, 74, 75, 100].map(levelOf)).toEqual(['low', 'low', 'moderate', 'moderate', 'high', 'high', 'severe', 'severe']);
  });
});

describe('source values', () => {
  it('fades an incident with distance and trusts it by confidence', () => {
    expect(incidentValue('closure', 0, 1)).toBe(1);
    expect(incidentValue('closure', INCIDENT_ON_ROUTE_METERS, 1)).toBe(1);
    expect(incidentValue('closure', INCIDENT_NEAR_METERS, 1)).toBeCloseTo(INCIDENT_FAR_SHARE, 6);
    expect(incidentValue('closure', INCIDENT_NEAR_METERS + 1, 1)).toBe(0);
    expect(incidentValue('closure', 0, 0)).toBe(0.5);
    expect(incidentValue('accident', 10, 1)).toBeGreaterThan(incidentValue('jam', 10, 1));
    // police and cameras are enforcement, not incident risk
    expect(incidentValue('police', 0, 1)).toBe(0);
  });

  it('reads a zone at its riskScore, an avoid zone at least 0.75', () => {
    expect(zoneValue({ riskScore: 0.3, routingPolicy: 'penalize' })).toBe(0.3);
    expect(zoneValue({ riskScore: 0.3, routingPolicy: 'avoid' })).toBe(0.75);
    expect(zoneValue({ riskScore: 0.9, routingPolicy: 'avoid' })).toBe(0.9);
  });

  it('unions several readings of one kind', () => {
    expect(unionOf([])).toBe(0);
    expect(unionOf([0.4, 0.4])).toBeCloseTo(0.64, 9);
    expect(unionOf([1, 0.2])).toBe(1);
  });
});
