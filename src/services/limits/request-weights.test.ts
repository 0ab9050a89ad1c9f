import { describe, expect, it } from 'vitest';
import { billingWeight, REQUEST_WEIGHTS } from './request-weights.js';

describe('billingWeight', () => {
  it('weighs Arabic geocoding above Latin, routing and matrices above lookups', () => {
    expect(billingWeight('geocode', { q: 'شارع الطيران' })).toBe(REQUEST_WEIGHTS.geocodeArabic);
    expect(billingWeight('geocode', { q: 'Al Tayaran Street' })).toBe(REQUEST_WEIGHTS.geocodeLatin);
    expect(billingWeight('geocode', {})).toBe(REQUEST_WEIGHTS.geocodeLatin);
    expect(billingWeight('routing', {})).toBe(REQUEST_WEIGHTS.routing);
    expect(billingWeight('matrixOrIsochrone', {})).toBe(REQUEST_WEIGHTS.matrixOrIsochrone);
    expect(billingWeight('optimization', {})).toBe(REQUEST_WEIGHTS.optimization);
    expect(billingWeight('default', { q: 'شارع' })).toBe(1);
    expect(REQUEST_WEIGHTS.geocodeArabic).toBeGreaterThan(REQUEST_WEIGHTS.geocodeLatin);
  });
});
