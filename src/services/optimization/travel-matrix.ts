/** Travel times and distances between points, row-major size × size, from the routing engine. */
import type { FleetCosting } from '../../domain/costing.js';
export interface TravelMatrix {
  size: number;
  durationsSeconds: Float64Array;
  distancesMeters: Float64Array;
  /** false where no path exists */
  reachable?: Uint8Array;
}

/** Where route optimization gets its matrices (implemented over the routing engine). */
export interface TravelMatrixSource {
  matrix(points: readonly { lat: number; lng: number }[], costing: FleetCosting, signal?: AbortSignal): Promise<TravelMatrix>;
}
