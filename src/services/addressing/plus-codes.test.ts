import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodePlusCode, encodePlusCode, normalizeCoordinates } from './plus-codes.js';

/**
 * Test vectors of the Open Location Code reference, copied from google/open-location-code
 * test_data/encoding.csv (latitude,longitude,length,expected code) — a subset including every
 * pole, latitude-over-90, antimeridian and longitude-wrapping row — and test_data/decoding.csv
 * (code,latLo,lngLo,latHi,lngHi; its length column dropped). Apache-2.0.
 */
const REFERENCE_ENCODING = `20.375,2.775,6,7FG49Q00+
20.3700625,2.7821875,10,7FG49QCJ+2V
20.3701125,2.782234375,11,7FG49QCJ+2VX
20.3701135,2.78223535156,13,7FG49QCJ+2VXGJ
47.0000625,8.0000625,10,8FVC2222+22
-41.2730625,174.7859375,10,4VCPPQGP+Q9
0.5,-179.5,4,62G20000+
-89.5,-179.5,4,22220000+
20.5,2.5,4,7FG40000+
-89.9999375,-179.9999375,10,22222222+22
0.5,179.5,4,6VGX0000+
1,1,11,6FH32222+222
90,1,4,CFX30000+
92,1,4,CFX30000+
90,1,10,CFX3X2X2+X2
1,180,4,62H20000+
1,181,4,62H30000+
20.3701135,362.78223535156,13,7FG49QCJ+2VXGJ
47.0000625,728.0000625,10,8FVC2222+22
-41.2730625,1254.7859375,10,4VCPPQGP+Q9
20.3701135,-357.217764648,13,7FG49QCJ+2VXGJ
47.0000625,-711.9999375,10,8FVC2222+22
-41.2730625,-905.2140625,10,4VCPPQGP+Q9
1.2,3.4,10,6FH56C22+22
37.539669125,-122.375069724,15,849VGJQF+VX7QR3J
35.6,3.033,10,8F75J22M+26
-48.71,142.78,8,4R347QRJ+
-70,163.7,8,3V252P22+
2.5,-64.23,11,67JQGQ2C+222
-37.014,-159.936,10,43J2X3P7+CJ
10.734,-168.294,10,722HPPM4+JC
35.019,148.827,11,8R7C2R9G+JR2
-68.54504,-62.81725,11,373VF53M+X4J
-25.798,-59.812,10,5862652Q+R6
-18.32,96.397,10,5MHRM9JW+2R
80.0100000001,58.57,15,CHGW2H6C+2222222
80.0099999999,58.57,15,CHGW2H5C+X2RRRRR
-80.0099999999,58.57,15,2HFWXHRC+2222222
-80.0100000001,58.57,15,2HFWXHQC+X2RRRRR
-80.000000,-360000000170.000000,2,22000000+`;
const REFERENCE_DECODING = `7FG49QCJ+2V,20.37,2.782125,20.370125,2.78225
7FG49QCJ+2VX,20.3701,2.78221875,20.370125,2.78225
8FVC2222+22,47.0,8.0,47.000125,8.000125
4VCPPQGP+Q9,-41.273125,174.785875,-41.273,174.786
22222222+22,-90.0,-180.0,-89.999875,-179.999875
6FH32222+222,1,1,1.000025,1.00003125
CFX3X2X2+X2,89.9998750,1,90,1.0001250`;
const rows = (text: string) => text.split('\n').map((line) => line.split(','));

describe('plus codes', () => {
  it('encodes Nasr City at the default length and decodes back to the cell', () => {
    const code = encodePlusCode(30.0626, 31.3219);
    expect(code).toBe('8G2H387C+2Q');
    const decoded = decodePlusCode(code);
    expect(decoded.bounds.south).toBeLessThanOrEqual(30.0626);
    expect(decoded.bounds.north).toBeGreaterThan(30.0626);
  });

  it('gives 10 digits for a requested length of 9, and the lengths asked for otherwise', () => {
    expect(encodePlusCode(30.0626, 31.3219, 8)).toBe('8G2H387C+');
    expect(encodePlusCode(30.0626, 31.3219, 9)).toBe('8G2H387C+2Q');
    expect(encodePlusCode(30.0626, 31.3219, 11).replace('+', '')).toHaveLength(11);
  });

  it('recovers a short code near a reference point', () => {
    expect(decodePlusCode('387C+2Q', { lat: 30.05, lng: 31.3 }).code).toBe('8G2H387C+2Q');
    expect(() => decodePlusCode('387C+2Q')).toThrow(/reference/);
    expect(() => decodePlusCode('not-a-code')).toThrow(/not a valid/);
  });

  it('round-trips: every point lies in the cell of its own code (property)', () => {
    fc.assert(
      fc.property(fc.double({ min: -89.99, max: 89.99, noNaN: true }), fc.double({ min: -179.99, max: 179.99, noNaN: true }), fc.integer({ min: 8, max: 11 }), (lat, lng, length) => {
        const { bounds } = decodePlusCode(encodePlusCode(lat, lng, length));
        expect(lat).toBeGreaterThanOrEqual(bounds.south - 1e-7);
        expect(lat).toBeLessThanOrEqual(bounds.north + 1e-7);
        expect(lng).toBeGreaterThanOrEqual(bounds.west - 1e-7);
        expect(lng).toBeLessThanOrEqual(bounds.east + 1e-7);
      }),
    );
  });

  it.each(rows(REFERENCE_ENCODING))('encodes %s, %s at length %s as the reference: %s', (lat, lng, length, expected) => {
    expect(encodePlusCode(Number(lat), Number(lng), Number(length))).toBe(expected);
  });

  it.each(rows(REFERENCE_DECODING))('decodes %s to the reference cell, bounds unrounded', (code, south, west, north, east) => {
    const { bounds } = decodePlusCode(code!);
    expect(bounds.south).toBeCloseTo(Number(south), 10);
    expect(bounds.west).toBeCloseTo(Number(west), 10);
    expect(bounds.north).toBeCloseTo(Number(north), 10);
    expect(bounds.east).toBeCloseTo(Number(east), 10);
  });

  it('keeps 11-digit cell edges that 7 decimals would move (1/32000° longitude steps)', () => {
    expect(decodePlusCode('6FH32222+222').bounds.east).toBe(1.00003125);
  });

  it('clips latitude and wraps longitude like the reference, poles and antimeridian included', () => {
    expect(normalizeCoordinates(92, 181)).toEqual({ lat: 90, lng: -179 });
    expect(normalizeCoordinates(-95, -180)).toEqual({ lat: -90, lng: -180 });
    expect(normalizeCoordinates(0, 180)).toEqual({ lat: 0, lng: -180 });
    expect(normalizeCoordinates(47.0000625, 728.0000625).lng).toBeCloseTo(8.0000625, 9);
    fc.assert(
      fc.property(fc.double({ min: -1e6, max: 1e6, noNaN: true }), fc.double({ min: -1e6, max: 1e6, noNaN: true }), (lat, lng) => {
        const point = normalizeCoordinates(lat, lng);
        expect(point.lat).toBeGreaterThanOrEqual(-90);
        expect(point.lat).toBeLessThanOrEqual(90);
        expect(point.lng).toBeGreaterThanOrEqual(-180);
        expect(point.lng).toBeLessThan(180);
        expect(encodePlusCode(lat, lng)).toBe(encodePlusCode(point.lat, point.lng));
      }),
    );
  });

  it('refuses non-finite coordinates', () => {
    expect(() => encodePlusCode(Number.NaN, 1)).toThrow();
    expect(() => encodePlusCode(1, Number.POSITIVE_INFINITY)).toThrow();
  });
});
