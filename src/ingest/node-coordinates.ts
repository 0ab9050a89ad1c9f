/**
 * The coordinates of the nodes the ingest keeps, by slot (the node's index in
 * the sorted id list), held as Int32 fixed point (degrees × 1e7, the pack's own
 * unit: half the memory of Float64) as long as every coordinate is exactly
 * k / 1e7 as a double. That holds for OSM data as it is published: PBF with the
 * usual granularity (100 nanodegrees) and XML with at most 7 decimals, which is
 * OSM's own precision. The first coordinate that is not (a hand-made file with
 * more decimals) moves the store to Float64 for the rest of the ingest.
 *
 * `lat(slot)` gives back the very double that was stored either way (k / 1e7
 * is the correctly rounded value of the same rational as the parsed input), so
 * the pack does not depend on which storage was used.
 */
import { COORDINATE_SCALE } from '../datapack/pack-layout.js';

/** Marks a slot whose node was not found (no coordinate is this far out: |lon × 1e7| ≤ 1.8e9 < 2^31). */
const MISSING = -0x80000000;

export class NodeCoordinates {
  private latitudes: Int32Array | Float64Array;
  private longitudes: Int32Array | Float64Array;
  /** What the stored numbers are divided by to give degrees: 1e7 for Int32 fixed point, 1 for Float64. */
  private scale = COORDINATE_SCALE;

  constructor(readonly count: number) {
    this.latitudes = new Int32Array(count).fill(MISSING);
    this.longitudes = new Int32Array(count).fill(MISSING);
  }

  /** Whether the Float64 fallback was needed. */
  get isFloat64(): boolean {
    return this.scale === 1;
  }

  set(slot: number, lat: number, lon: number): void {
    if (this.scale === 1) {
      this.latitudes[slot] = lat;
      this.longitudes[slot] = lon;
      return;
    }
    const fixedLat = Math.round(lat * COORDINATE_SCALE);
    const fixedLon = Math.round(lon * COORDINATE_SCALE);
    if (fixedLat / COORDINATE_SCALE === lat && fixedLon / COORDINATE_SCALE === lon && fixedLat !== MISSING && fixedLon !== MISSING) {
      this.latitudes[slot] = fixedLat;
      this.longitudes[slot] = fixedLon;
      return;
    }
    this.toFloat64();
    this.set(slot, lat, lon);
  }

  has(slot: number): boolean {
    return this.scale === 1 ? !Number.isNaN(this.latitudes[slot]!) : this.latitudes[slot] !== MISSING;
  }

  /** Degrees (the double that was stored). */
  lat(slot: number): number {
    return this.latitudes[slot]! / this.scale;
  }

  lon(slot: number): number {
    return this.longitudes[slot]! / this.scale;
  }

  /** Degrees × 1e7 rounded, as the pack stores coordinates (the same as rounding `lat(slot) × 1e7`). */
  fixedLat(slot: number): number {
    return this.scale === 1 ? Math.round(this.latitudes[slot]! * COORDINATE_SCALE) : this.latitudes[slot]!;
  }

  fixedLon(slot: number): number {
    return this.scale === 1 ? Math.round(this.longitudes[slot]! * COORDINATE_SCALE) : this.longitudes[slot]!;
  }

  private toFloat64(): void {
    const widen = (fixed: Int32Array | Float64Array) => Float64Array.from(fixed, (value) => (value === MISSING ? Number.NaN : value / COORDINATE_SCALE));
    this.latitudes = widen(this.latitudes);
    this.longitudes = widen(this.longitudes);
    this.scale = 1;
  }
}
