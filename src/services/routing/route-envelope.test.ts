import { describe, expect, it } from 'vitest';
import { availableEnvelope } from './engine-envelope.js';
import { routeAnswerHead } from './route-envelope.js';
import { routeAnswerJson } from '../../solvers/routing/route-answer.js';
import { routeLabels, SKIPPED_LABELS, type Trip } from '../../solvers/routing/guidance/index.js';

const trip = {
  language: 'en-US',
  locations: [{ lat: 43.7, lon: 7.4 }],
  legs: [{ maneuvers: [{ type: 1, length: 0.2, instruction: 'Drive "north".', street_names: ['Boulevard\u00a0Albert 1er'] }], shape: 'a\\b' }],
  summary: { has_toll: false, has_ferry: false, has_highway: true },
  units: 'kilometers',
} as unknown as Trip;
const alternate = { ...trip, units: 'miles' } as Trip;

describe('route answer JSON', () => {
  it.each([
    ['trip only', [], undefined, true],
    ['with alternatives', [alternate], undefined, true],
    ['with an id', [], 'req-7 "quoted"', true],
    ['with both, labels skipped', [alternate], 'x', false],
  ] as const)('is the text JSON.stringify gives for the envelope object (%s)', (_, alternates, id, includeLabels) => {
    const text = routeAnswerJson({ head: routeAnswerHead('/routing/route'), ...(id ? { id } : {}), includeLabels }, trip, alternates);
    const data = { trip, ...(alternates.length ? { alternates: alternates.map((alternative) => ({ trip: alternative })) } : {}), ...(id ? { id } : {}) };
    expect(text).toBe(JSON.stringify({ ...availableEnvelope('/routing/route', data), labels: includeLabels ? routeLabels(trip) : SKIPPED_LABELS }));
  });

  it('appends trafficModel after the labels only when given', () => {
    const trafficModel = { used: true, metric: 'traffic', todBucket: 8, profileType: 'typical', segmentsWithProfiles: 12 };
    const text = routeAnswerJson({ head: routeAnswerHead('/routing/route'), includeLabels: true, trafficModel }, trip, []);
    expect(text).toBe(JSON.stringify({ ...availableEnvelope('/routing/route', { trip }), labels: routeLabels(trip), trafficModel }));
  });
});
