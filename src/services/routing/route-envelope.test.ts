import { describe, expect, it } from 'vitest';
import { availableEnvelope } from './engine-envelope.js';
import { routeAnswerJson } from './route-envelope.js';

const trip = { locations: [{ lat: 43.7, lon: 7.4 }], legs: [{ maneuvers: [{ type: 1, instruction: 'Drive "north".', street_names: ['Boulevard\u00a0Albert 1er'] }], shape: 'a\\b' }], units: 'kilometers' };
const alternates = [{ trip: { ...trip, units: 'miles' } }];
const labels = { purpose: 'route_labels', parsed: { label: 'Via X', tip: 'No turns.' }, source: 'generated' };

describe('route answer JSON', () => {
  it.each([
    ['trip only', undefined, undefined],
    ['with alternatives', alternates, undefined],
    ['with an id', undefined, 'req-7 "quoted"'],
    ['with both', alternates, 'x'],
  ] as const)('is the text JSON.stringify gives for the envelope object (%s)', (_, alternatives, id) => {
    const text = routeAnswerJson('/routing/route', { tripJson: JSON.stringify(trip), alternatesJson: alternatives ? JSON.stringify(alternatives) : undefined }, id, labels);
    const data = { trip, ...(alternatives ? { alternates: alternatives } : {}), ...(id ? { id } : {}) };
    expect(text).toBe(JSON.stringify({ ...availableEnvelope('/routing/route', data), labels }));
  });

  it('appends trafficModel after the labels only when given', () => {
    const trafficModel = { used: true, metric: 'traffic', todBucket: 8, profileType: 'typical', segmentsWithProfiles: 12 };
    const text = routeAnswerJson('/routing/route', { tripJson: JSON.stringify(trip), alternatesJson: undefined }, undefined, labels, trafficModel);
    expect(text).toBe(JSON.stringify({ ...availableEnvelope('/routing/route', { trip }), labels, trafficModel }));
  });
});
