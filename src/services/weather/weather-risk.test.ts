import { describe, expect, it } from 'vitest';
import { areaRisk, hourWarnings, severityOf } from './weather-risk.js';

const calm = { weatherCode: 0, precipitationMm: 0, windGustsKph: 15, visibilityM: 24_000, temperatureC: 28 };

describe('weather risk', () => {
  it('a calm hour has no warnings', () => {
    expect(hourWarnings(calm)).toEqual([]);
    expect(areaRisk([{ lat: 30, lng: 31, hours: [{ atMs: 0, ...calm }] }])).toEqual({ score: 0, severity: 'none', warnings: [] });
  });

  it('names each hazard with its reason and scores worse weather higher', () => {
    const kinds = (hour: object) => hourWarnings({ ...calm, ...hour }).map((found) => found.kind);
    expect(kinds({ precipitationMm: 8 })).toEqual(['heavy_rain']);
    expect(kinds({ precipitationMm: 1 })).toEqual(['rain']);
    expect(kinds({ weatherCode: 95 })).toEqual(['storm']);
    expect(kinds({ windGustsKph: 90 })).toEqual(['storm']);
    expect(kinds({ visibilityM: 300 })).toEqual(['fog']);
    expect(kinds({ visibilityM: 3_000 })).toEqual(['visibility']);
    expect(kinds({ windGustsKph: 55, visibilityM: 2_000 })).toEqual(['dust']);
    expect(kinds({ windGustsKph: 60 })).toEqual(['wind']);
    expect(kinds({ temperatureC: 46 })).toEqual(['heat']);
    const score = (hour: object) => hourWarnings({ ...calm, ...hour })[0]!.score;
    expect(score({ precipitationMm: 12 })).toBeGreaterThan(score({ precipitationMm: 5 }));
    expect(score({ precipitationMm: 5 })).toBeGreaterThan(score({ precipitationMm: 1 }));
    expect(score({ visibilityM: 100 })).toBeGreaterThan(score({ visibilityM: 900 }));
    expect(score({ temperatureC: 48 })).toBeGreaterThan(score({ temperatureC: 41 }));
    expect(score({ weatherCode: 99 })).toBeGreaterThan(score({ weatherCode: 95 }));
    const heavy = hourWarnings({ ...calm, precipitationMm: 8 })[0]!;
    expect(heavy).toMatchObject({ value: 8, unit: 'mm/h', threshold: 4, severity: severityOf(heavy.score) });
    expect(heavy.reason).toContain('8.0 mm/h');
  });

  it('an area takes the worst of each kind, counts the samples, and adds for more kinds', () => {
    const hours = (atMs: number, hour: object) => [{ atMs, ...calm, ...hour }];
    const risk = areaRisk([
      { lat: 30, lng: 31, hours: hours(0, { precipitationMm: 6 }) },
      { lat: 30.1, lng: 31, hours: hours(3_600_000, { precipitationMm: 10 }) },
      { lat: 30.2, lng: 31, hours: hours(0, { temperatureC: 42 }) },
    ]);
    expect(risk.warnings.map((found) => found.kind)).toEqual(['heavy_rain', 'heat']);
    expect(risk.warnings[0]).toMatchObject({ lat: 30.1, value: 10, affectedSamples: 2, at: new Date(3_600_000).toISOString() });
    const alone = areaRisk([{ lat: 30.1, lng: 31, hours: hours(0, { precipitationMm: 10 }) }]);
    expect(risk.score).toBeGreaterThan(alone.score);
    expect(risk.score).toBeLessThanOrEqual(100);
    expect(risk.severity).toBe(severityOf(risk.score));
  });
});
