import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('map style settings', () => {
  it('offers no imagery and no elevation by default', () => {
    const config = loadConfig({});
    expect([config.SATELLITE_TILE_URL, config.TERRAIN_DEM_TILE_URL]).toEqual([undefined, undefined]);
    expect([config.SATELLITE_MAX_ZOOM, config.TERRAIN_DEM_ENCODING, config.TERRAIN_DEM_MAX_ZOOM]).toEqual([19, 'terrarium', 12]);
  });

  it('takes tile templates with their credits', () => {
    const config = loadConfig({
      SATELLITE_TILE_URL: 'https://imagery.example.com/{z}/{y}/{x}.jpg',
      SATELLITE_ATTRIBUTION: '© Example Imagery',
      TERRAIN_DEM_TILE_URL: 'https://dem.example.com/{z}/{x}/{y}.png',
      TERRAIN_DEM_ATTRIBUTION: '© Example DEM',
      TERRAIN_DEM_ENCODING: 'mapbox',
    });
    expect(config).toMatchObject({ SATELLITE_ATTRIBUTION: '© Example Imagery', TERRAIN_DEM_ENCODING: 'mapbox' });
  });

  it('refuses a template without {z}/{x}/{y}, another protocol, or a URL without its credit', () => {
    expect(() => loadConfig({ SATELLITE_TILE_URL: 'https://imagery.example.com/{z}/{y}.jpg', SATELLITE_ATTRIBUTION: 'x' })).toThrow(/SATELLITE_TILE_URL/);
    expect(() => loadConfig({ TERRAIN_DEM_TILE_URL: 'ftp://dem.example.com/{z}/{x}/{y}.png', TERRAIN_DEM_ATTRIBUTION: 'x' })).toThrow(/TERRAIN_DEM_TILE_URL/);
    expect(() => loadConfig({ SATELLITE_TILE_URL: 'https://imagery.example.com/{z}/{x}/{y}.jpg' })).toThrow(/SATELLITE_ATTRIBUTION/);
    expect(() => loadConfig({ TERRAIN_DEM_TILE_URL: 'https://dem.example.com/{z}/{x}/{y}.png' })).toThrow(/TERRAIN_DEM_ATTRIBUTION/);
  });
});
