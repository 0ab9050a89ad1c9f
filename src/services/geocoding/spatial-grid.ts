/**
 * A uniform grid over lon/lat: each item is filed under every cell its bounding
 * box touches. Reverse geocoding asks for the cells around a point (segments,
 * address points) or the one cell under it (polygons). The cell size is chosen
 * per use: ~100 m for streets and addresses, ~10 km for admin areas.
 */
export class SpatialGrid {
  private readonly cells = new Map<number, number[]>();

  constructor(private readonly cellDegrees: number) {}

  private key(column: number, row: number): number {
    // columns and rows fit in 2^21 for cells down to 0.0002°
    return (column + 1_048_576) * 2_097_152 + (row + 1_048_576);
  }

  add(item: number, west: number, south: number, east: number, north: number): void {
    const c0 = Math.floor(west / this.cellDegrees);
    const c1 = Math.floor(east / this.cellDegrees);
    const r0 = Math.floor(south / this.cellDegrees);
    const r1 = Math.floor(north / this.cellDegrees);
    for (let column = c0; column <= c1; column++) {
      for (let row = r0; row <= r1; row++) {
        const key = this.key(column, row);
        const list = this.cells.get(key);
        if (list) list.push(item);
        else this.cells.set(key, [item]);
      }
    }
  }

  /** Items filed in the cells within `rings` cells of the point (0 = its own cell). May repeat items. */
  near(lon: number, lat: number, rings: number, visit: (item: number) => void): void {
    const column = Math.floor(lon / this.cellDegrees);
    const row = Math.floor(lat / this.cellDegrees);
    for (let dc = -rings; dc <= rings; dc++) {
      for (let dr = -rings; dr <= rings; dr++) {
        const list = this.cells.get(this.key(column + dc, row + dr));
        if (list) for (const item of list) visit(item);
      }
    }
  }

  /** The cell index (column or row) of a coordinate; with `cell` below, for loops too hot for a visitor closure. */
  cellOf(coordinate: number): number {
    return Math.floor(coordinate / this.cellDegrees);
  }

  /** The items filed in one cell, or undefined. */
  cell(column: number, row: number): readonly number[] | undefined {
    return this.cells.get(this.key(column, row));
  }

  get cellCount(): number {
    return this.cells.size;
  }
}

/** Metres per degree of latitude, and of longitude at this latitude (equirectangular, fine at street scale). */
export function metresPerDegree(lat: number): { lat: number; lon: number } {
  return { lat: 111_320, lon: 111_320 * Math.cos((lat * Math.PI) / 180) };
}

/** Squared distance in metres² from a point to a segment, with the point's metres per degree given (hot loops). */
export function segmentDistanceSquared(lon: number, lat: number, ax: number, ay: number, bx: number, by: number, metresPerLon: number, metresPerLat: number): number {
  const px = (lon - ax) * metresPerLon;
  const py = (lat - ay) * metresPerLat;
  const dx = (bx - ax) * metresPerLon;
  const dy = (by - ay) * metresPerLat;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, (px * dx + py * dy) / lengthSquared));
  const ex = px - t * dx;
  const ey = py - t * dy;
  return ex * ex + ey * ey;
}

export function distanceMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const scale = metresPerDegree((lat1 + lat2) / 2);
  const dx = (lon2 - lon1) * scale.lon;
  const dy = (lat2 - lat1) * scale.lat;
  return Math.sqrt(dx * dx + dy * dy);
}

/** Even-odd point-in-polygon over all rings (holes are rings too); rings are flat lon, lat arrays. */
export function ringsContain(rings: readonly Float64Array[], lon: number, lat: number): boolean {
  let inside = false;
  for (const ring of rings) {
    const count = ring.length >> 1;
    for (let i = 0, j = count - 1; i < count; j = i++) {
      const xi = ring[i * 2]!;
      const yi = ring[i * 2 + 1]!;
      const xj = ring[j * 2]!;
      const yj = ring[j * 2 + 1]!;
      if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}
