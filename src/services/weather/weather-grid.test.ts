import { describe, expect, it } from 'vitest';
import { gridStepForZoom, MAX_GRID_SAMPLES, sampleGrid, type GridBbox } from './weather-grid.js';

const NASR_CITY: GridBbox = [31.3, 30.03, 31.37, 30.09];
const EGYPT: GridBbox = [24.7, 22, 36.9, 31.7];

describe('weather sampling grid', () => {
  it('samples the 0.1° cells a city bbox meets, on the lattice, each cell holding its node', () => {
    const grid = sampleGrid(NASR_CITY, 14);
    expect(grid.stepDeg).toBe(0.1);
    // latitudes 30.0 and 30.1 (30.03–30.09 meets both cells), longitudes 31.3 and 31.4
    expect(grid.samples.map((sample) => [sample.lat, sample.lng])).toEqual([
      [30.1, 31.3],
      [30.1, 31.4],
      [30, 31.3],
      [30, 31.4],
    ]);
    for (const sample of grid.samples) {
      const [west, south, east, north] = sample.cell;
      expect(west).toBeLessThan(sample.lng);
      expect(east).toBeGreaterThan(sample.lng);
      expect(north - south).toBeCloseTo(0.1, 9);
      // every cell meets the bbox
      expect(west <= NASR_CITY[2] && east >= NASR_CITY[0] && south <= NASR_CITY[3] && north >= NASR_CITY[1]).toBe(true);
    }
  });

  it('coarsens with the zoom and never exceeds the sample cap', () => {
    expect(gridStepForZoom(12)).toBeLessThan(gridStepForZoom(7));
    expect(gridStepForZoom(7)).toBeLessThan(gridStepForZoom(3));
    for (const zoom of [2, 5, 7, 9, 14]) {
      const grid = sampleGrid(EGYPT, zoom);
      expect(grid.samples.length).toBeLessThanOrEqual(MAX_GRID_SAMPLES);
      expect(grid.stepDeg).toBeGreaterThanOrEqual(grid.requestedStepDeg);
    }
    // Egypt at zoom 9 asks for 0.1° (~12 000 cells) and is raised to 1° (13 × 10 = 130 > 100) then 2°
    const egypt = sampleGrid(EGYPT, 9);
    expect(egypt.requestedStepDeg).toBe(0.1);
    expect(egypt.stepDeg).toBe(2);
    expect(sampleGrid([-180, -85, 180, 85], 0, 40).samples).toHaveLength(40);
  });

  it('overlapping boxes share lattice nodes (one cache cell serves both)', () => {
    const left = sampleGrid([31.2, 30, 31.35, 30.1], 10).samples.map((sample) => `${sample.lat},${sample.lng}`);
    const right = sampleGrid([31.3, 30, 31.45, 30.1], 10).samples.map((sample) => `${sample.lat},${sample.lng}`);
    expect(left.filter((key) => right.includes(key))).toContain('30,31.3');
  });
});
