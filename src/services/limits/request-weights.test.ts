import { describe, expect, it } from 'vitest';
import { REQUEST_WEIGHTS, requestWeight } from './request-weights.js';

describe('requestWeight', () => {
  it('weighs Arabic geocoding above Latin, routing and matrices above lookups', () => {
    expect(requestWeight({ path: '/geocode' }, { q: 'شارع الطيران' })).toBe(REQUEST_WEIGHTS.geocodeArabic);
    expect(requestWeight({ path: '/geocode' }, { q: 'Al Tayaran Street' })).toBe(REQUEST_WEIGHTS.geocodeLatin);
    expect(requestWeight({ path: '/routing/plan' }, {})).toBe(REQUEST_WEIGHTS.routing);
    expect(requestWeight({ path: '/routing/matrix' }, {})).toBe(REQUEST_WEIGHTS.matrixOrIsochrone);
    expect(requestWeight({ path: '/optimize/routes' }, {})).toBe(REQUEST_WEIGHTS.optimization);
    expect(requestWeight({ path: '/geo/pluscode' }, {})).toBe(1);
    expect(REQUEST_WEIGHTS.geocodeArabic).toBeGreaterThan(REQUEST_WEIGHTS.geocodeLatin);
  });
});
