import { describe, expect, it } from 'vitest';
import { cellFeatures, weatherIconOf } from './weather-features.js';
import { parseWeatherFilters } from './weather-layer.js';
import { weatherSvgTile } from './weather-svg-tile.js';

const sample = { lat: 30.1, lng: 31.3, cell: [31.25, 30.05, 31.35, 30.15] as [number, number, number, number] };
const hour = { atMs: 1_800_000_000_000, weatherCode: 3, temperatureC: 24, precipitationMm: 0, cloudCoverPercent: 50, windGustsKph: 10, visibilityM: 20_000, isDay: false };

describe('weather features', () => {
  it('picks the icon of the weather that matters most, else the sky by day or night', () => {
    expect(weatherIconOf({ ...hour, weatherCode: 95 })).toBe('storm');
    expect(weatherIconOf({ ...hour, precipitationMm: 6 })).toBe('rain');
    expect(weatherIconOf({ ...hour, visibilityM: 400 })).toBe('fog');
    expect(weatherIconOf({ ...hour, windGustsKph: 55, visibilityM: 2_000 })).toBe('wind');
    expect(weatherIconOf({ ...hour, temperatureC: 44 })).toBe('heat');
    expect(weatherIconOf({ ...hour, temperatureC: -2 })).toBe('cold');
    expect(weatherIconOf({ ...hour, cloudCoverPercent: 95 })).toBe('cloud');
    expect(weatherIconOf(hour)).toBe('partly');
    expect(weatherIconOf({ ...hour, cloudCoverPercent: 0 })).toBe('clear-night');
    expect(weatherIconOf({ ...hour, cloudCoverPercent: 0, isDay: true })).toBe('clear');
  });

  it('gives a cell polygon per type with something to show, with the measured values', () => {
    const dry = cellFeatures(sample, hour, ['temperature', 'precipitation', 'clouds', 'storms', 'alerts'], 0.1);
    expect(dry.map((feature) => feature.properties.type)).toEqual(['temperature', 'clouds']);
    expect(dry[0]!.geometry).toEqual({ type: 'Polygon', coordinates: [[[31.25, 30.05], [31.35, 30.05], [31.35, 30.15], [31.25, 30.15], [31.25, 30.05]]] });
    expect(dry[0]!.properties).toMatchObject({ layerType: 'weather', value: 24, unit: '°C', lat: 30.1, lng: 31.3, time: new Date(hour.atMs).toISOString(), weatherType: 'partly' });
    const wet = cellFeatures(sample, { ...hour, precipitationMm: 9, weatherCode: 95 }, ['precipitation', 'storms', 'alerts'], 0.1);
    expect(wet.map((feature) => [feature.properties.type, feature.properties.weatherType])).toEqual([
      ['precipitation', 'storm'],
      ['storms', 'storm'],
      ['alerts', 'storm'],
    ]);
    expect(wet[2]!.properties).toMatchObject({ hazard: 'storm', hazards: 'storm,heavy_rain' });
  });

  it('reads the type and time filters, refusing unknown values', () => {
    expect(parseWeatherFilters({})).toEqual({ types: ['precipitation', 'temperature', 'clouds', 'storms', 'alerts'], time: 'now' });
    expect(parseWeatherFilters({ type: 'clouds,storms,clouds', time: '+3h' })).toEqual({ types: ['clouds', 'storms'], time: '+3h' });
    expect(parseWeatherFilters({ type: 'hail' }).error).toContain('type');
    expect(parseWeatherFilters({ time: '+2h' }).error).toContain('time');
  });

  it('draws the cells meeting an SVG tile, and nothing else', () => {
    const features = cellFeatures(sample, hour, ['temperature'], 0.1);
    // z9 tile holding 30.1, 31.3 and one far away
    expect(weatherSvgTile({ z: 9, x: 300, y: 211 }, features)).toContain(`fill="${features[0]!.properties.color}"`);
    expect(weatherSvgTile({ z: 9, x: 10, y: 10 }, features)).not.toContain('<rect');
  });
});
