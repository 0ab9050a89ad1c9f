/**
 * The packed form of a trip's raw fixes in `traffic_trips.fix_data` (migration 028): fix after fix, lat, lng
 * and t (epoch ms), each a little-endian float64 (exact: a fix reads back as it was sent). The insert writes it
 * and the claim reads it, in the intake's own thread: 10 µs to pack and 2–3 µs to unpack 300 fixes, where the
 * JSON array of [lat, lng, t] it replaces took about 100 µs to stringify and 75 µs to parse and map (017's
 * `fixes` column, still read for rows stored before).
 */
import type { TripFix } from '../../domain/traffic.js';

/** Bytes a packed fix takes. */
export const FIX_BYTES = 24;

/** A trip's fixes as `fix_data` stores them. */
export function packFixes(fixes: readonly TripFix[]): Buffer {
  const data = Buffer.allocUnsafe(fixes.length * FIX_BYTES);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let index = 0, offset = 0; index < fixes.length; index++, offset += FIX_BYTES) {
    const fix = fixes[index]!;
    view.setFloat64(offset, fix.lat, true);
    view.setFloat64(offset + 8, fix.lng, true);
    view.setFloat64(offset + 16, fix.t, true);
  }
  return data;
}

/**
 * A fix read back from `fix_data`. A class, not an object literal: V8 may decide from a literal's allocation
 * site that its objects live long and allocate them in the old generation from then on ("pretenuring"); the
 * claim's 300 fixes (alive while the trip is matched and filed) made it do so, and every trip's fixes then
 * went to the old generation: 20 000–25 000 page faults over 1 200 intake trips instead of 7 000–10 000, and
 * more full collections. Objects built by a constructor have no allocation site and stay young.
 */
class StoredFix implements TripFix {
  constructor(
    readonly lat: number,
    readonly lng: number,
    readonly t: number,
  ) {}
}

/** The fixes `packFixes` packed. */
export function unpackFixes(data: Uint8Array): TripFix[] {
  if (data.byteLength % FIX_BYTES) throw new Error(`packed fixes of ${data.byteLength} bytes: not a whole number of ${FIX_BYTES}-byte fixes`);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const fixes: TripFix[] = [];
  for (let offset = 0; offset < data.byteLength; offset += FIX_BYTES) {
    fixes.push(new StoredFix(view.getFloat64(offset, true), view.getFloat64(offset + 8, true), view.getFloat64(offset + 16, true)));
  }
  return fixes;
}
