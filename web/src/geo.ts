/** Small geometry helpers for the page: polyline6 decoding, distances and walking along a line. */
export type LngLat = [number, number];

/** Decodes a Google-style encoded polyline (precision 6 for the routing and navigation shapes) to [lng, lat]. */
export function decodePolyline(encoded: string, precision = 6): LngLat[] {
  const factor = 10 ** precision;
  const points: LngLat[] = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  while (index < encoded.length) {
    for (const axis of [0, 1]) {
      let shift = 0;
      let result = 0;
      let byte: number;
      do {
        byte = encoded.charCodeAt(index++) - 63;
        result |= (byte & 0x1f) << shift;
        shift += 5;
      } while (byte >= 0x20);
      const delta = result & 1 ? ~(result >> 1) : result >> 1;
      if (axis === 0) lat += delta;
      else lng += delta;
    }
    points.push([lng / factor, lat / factor]);
  }
  return points;
}

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (degrees: number) => (degrees * Math.PI) / 180;

export function distanceMeters(a: LngLat, b: LngLat): number {
  const dLat = rad(b[1] - a[1]);
  const dLng = rad(b[0] - a[0]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[1])) * Math.cos(rad(b[1])) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(h));
}

export function bearingDegrees(a: LngLat, b: LngLat): number {
  const y = Math.sin(rad(b[0] - a[0])) * Math.cos(rad(b[1]));
  const x = Math.cos(rad(a[1])) * Math.sin(rad(b[1])) - Math.sin(rad(a[1])) * Math.cos(rad(b[1])) * Math.cos(rad(b[0] - a[0]));
  return ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
}

/** The point `meters` east/north of `origin` (small offsets). */
export function offset(origin: LngLat, eastMeters: number, northMeters: number): LngLat {
  const dLat = northMeters / 111_320;
  const dLng = eastMeters / (111_320 * Math.cos(rad(origin[1])));
  return [origin[0] + dLng, origin[1] + dLat];
}

/** Walks a line: the point `along` metres from its start, and the direction there. */
export class LineWalker {
  private readonly cumulative: number[] = [0];

  constructor(readonly line: LngLat[]) {
    for (let i = 1; i < line.length; i++) this.cumulative.push(this.cumulative[i - 1]! + distanceMeters(line[i - 1]!, line[i]!));
  }

  get length(): number {
    return this.cumulative[this.cumulative.length - 1] ?? 0;
  }

  at(along: number): { point: LngLat; bearing: number } {
    const clamped = Math.max(0, Math.min(along, this.length));
    let i = 1;
    while (i < this.line.length - 1 && this.cumulative[i]! < clamped) i++;
    const a = this.line[i - 1]!;
    const b = this.line[Math.min(i, this.line.length - 1)]!;
    const span = this.cumulative[i]! - this.cumulative[i - 1]! || 1;
    const f = (clamped - this.cumulative[i - 1]!) / span;
    return { point: [a[0] + (b[0] - a[0]) * f, a[1] + (b[1] - a[1]) * f], bearing: bearingDegrees(a, b) };
  }
}

/** `POINT(lng lat)` as the places API writes a centre. */
export function parsePoint(wkt: string | null | undefined): LngLat | undefined {
  const match = /POINT\(([-\d.]+) ([-\d.]+)\)/.exec(wkt ?? '');
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}
