import { describe, expect, it } from 'vitest';
import { centreRing, cityCentreOf } from './city-centres.js';
import { insideRing } from './corridor.js';

describe('city centres', () => {
  it('picks the centre nearest the locations within reach, none far from every city', () => {
    expect(cityCentreOf([{ lat: 31.96, lon: 35.9 }, { lat: 31.98, lon: 35.95 }])?.city.en).toBe('Amman');
    expect(cityCentreOf([{ lat: 30.0626, lon: 31.3219 }])?.city.en).toBe('Cairo');
    expect(cityCentreOf([{ lat: 34.0, lon: 36.7 }])).toBeUndefined();
  });

  it('draws the circle as a closed ring holding the centre and not points beyond the radius', () => {
    const centre = cityCentreOf([{ lat: 43.74, lon: 7.42 }])!;
    const ring = centreRing(centre);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(insideRing(ring, centre.lat, centre.lon)).toBe(true);
    const degreesBeyond = (centre.radiusMeters * 1.05) / 111_320;
    expect(insideRing(ring, centre.lat + degreesBeyond, centre.lon)).toBe(false);
    expect(insideRing(ring, centre.lat + degreesBeyond * 0.9, centre.lon)).toBe(true);
  });
});
