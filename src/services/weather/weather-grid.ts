/**
 * Where the weather layer samples the forecast: the nodes of a global lattice (multiples of the step
 * in degrees), one per cell the bbox meets. The lattice is global so two viewports or two tiles that
 * overlap ask for the same cells, and the cache (per 0.1° cell and hour) serves both. The step follows
 * the zoom (a finer grid when zoomed in) and is raised until the bbox needs at most `maxSamples`
 * cells, which bounds the provider calls one request can cause. Pure.
 */

/** Lattice steps in degrees, finest first. 0.1° is the provider adapter's own cell (about 11 km). */
export const GRID_STEPS_DEG = [0.1, 0.2, 0.5, 1, 2, 5, 10] as const;
/** Most cells one request samples (two multi-location provider calls at 50 cells each). */
export const MAX_GRID_SAMPLES = 100;
/** Latitudes sampled stop here (Web Mercator tiles end at ±85.05°). */
const MAX_SAMPLE_LAT = 85;

export type GridBbox = [west: number, south: number, east: number, north: number];

export interface GridSample {
  /** The lattice node sampled (the cell's centre). */
  lat: number;
  lng: number;
  /** The square the sample stands for: node ± step / 2. */
  cell: GridBbox;
}

export interface SampleGrid {
  stepDeg: number;
  /** The step the zoom asked for, before it was raised to fit `maxSamples`. */
  requestedStepDeg: number;
  samples: GridSample[];
}

/** The lattice step a zoom draws at: 0.1° from zoom 9 (city), up to 10° for the whole world. */
export function gridStepForZoom(zoom: number): number {
  if (zoom >= 9) return 0.1;
  if (zoom >= 8) return 0.2;
  if (zoom >= 6) return 0.5;
  if (zoom >= 5) return 1;
  if (zoom >= 4) return 2;
  if (zoom >= 3) return 5;
  return 10;
}

/** Lattice indexes whose cells [(i − ½)·step, (i + ½)·step] meet [from, to]. */
function indexRange(from: number, to: number, step: number): [number, number] {
  return [Math.floor(from / step - 0.5) + 1, Math.ceil(to / step + 0.5) - 1];
}

function countFor(bbox: GridBbox, step: number): number {
  const [west, south, east, north] = bbox;
  const [firstLng, lastLng] = indexRange(west, east, step);
  const [firstLat, lastLat] = indexRange(Math.max(south, -MAX_SAMPLE_LAT), Math.min(north, MAX_SAMPLE_LAT), step);
  return Math.max(0, lastLng - firstLng + 1) * Math.max(0, lastLat - firstLat + 1);
}

/** The cells of a bbox at a zoom, at most `maxSamples` (the step is coarsened until they fit). */
export function sampleGrid(bbox: GridBbox, zoom: number, maxSamples = MAX_GRID_SAMPLES): SampleGrid {
  const requestedStepDeg = gridStepForZoom(zoom);
  let stepIndex = GRID_STEPS_DEG.indexOf(requestedStepDeg as (typeof GRID_STEPS_DEG)[number]);
  while (stepIndex < GRID_STEPS_DEG.length - 1 && countFor(bbox, GRID_STEPS_DEG[stepIndex]!) > maxSamples) stepIndex++;
  const step = GRID_STEPS_DEG[stepIndex]!;
  const [west, south, east, north] = bbox;
  const [firstLng, lastLng] = indexRange(west, east, step);
  const [firstLat, lastLat] = indexRange(Math.max(south, -MAX_SAMPLE_LAT), Math.min(north, MAX_SAMPLE_LAT), step);
  const round = (value: number) => Number(value.toFixed(6));
  const samples: GridSample[] = [];
  // north to south, west to east: the order a map reads; the coarsest step may still exceed the cap over the whole world
  for (let row = lastLat; row >= firstLat && samples.length < maxSamples; row--) {
    for (let column = firstLng; column <= lastLng && samples.length < maxSamples; column++) {
      const lat = round(row * step);
      const lng = round(column * step);
      if (lng < -180 || lng > 180) continue;
      samples.push({ lat, lng, cell: [round(lng - step / 2), round(lat - step / 2), round(lng + step / 2), round(lat + step / 2)] });
    }
  }
  return { stepDeg: step, requestedStepDeg, samples };
}
