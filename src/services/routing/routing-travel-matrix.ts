/**
 * Travel-time matrices for route optimization, from the routing engine: the
 * fastest car (or truck, bicycle, foot) times and distances between every pair
 * of stops over the contraction hierarchy's many-to-many search.
 */
import type { TravelMatrix, TravelMatrixSource } from '../optimization/travel-matrix.js';
import type { RoutingService } from './routing-service.js';
import type { FleetCosting } from '../../domain/costing.js';

export class RoutingTravelMatrix implements TravelMatrixSource {
  constructor(private readonly routing: RoutingService) {}

  async matrix(points: readonly { lat: number; lng: number }[], costing: FleetCosting, signal?: AbortSignal): Promise<TravelMatrix> {
    const locations = points.map((point) => ({ lat: point.lat, lon: point.lng }));
    // stops far from any road are unreachable (NaN), not a failure of the whole request; an optimization's matrix
    // waits for a worker however long the line (a job the client was told is accepted must not fail on a moment's
    // overload; the optimization endpoints have their own limits)
    const result = await this.routing.matrix({ costing, preference: 'fastest', avoid: [] }, locations, locations, signal, { unbounded: true });
    const size = points.length;
    const reachable = new Uint8Array(size * size);
    const durationsSeconds = new Float64Array(size * size);
    const distancesMeters = new Float64Array(size * size);
    for (let cell = 0; cell < size * size; cell++) {
      const seconds = result.seconds[cell]!;
      const known = !Number.isNaN(seconds);
      reachable[cell] = known ? 1 : 0;
      durationsSeconds[cell] = known ? seconds : Number.POSITIVE_INFINITY;
      distancesMeters[cell] = known ? result.meters[cell]! : Number.POSITIVE_INFINITY;
    }
    return { size, durationsSeconds, distancesMeters, reachable };
  }
}
