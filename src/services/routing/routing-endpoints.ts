/**
 * The routing endpoints' work behind the route table: typed engine requests
 * in, spec envelopes out. Uses the built-in engine, or passes through to the
 * external one when ROUTING_ENGINE_URL is set.
 */
import type { Costing } from '../../solvers/routing/leg-path.js';
import { availableEnvelope, type EngineEnvelope, type ExternalEngine } from './external-engine.js';
import { metersPerUnit, metricOf, toRouteLocation, type MatrixRequest } from './engine-request.js';
import type { ProfileDescription, RoutingService } from './routing-service.js';

export class RoutingEndpoints {
  constructor(
    private readonly routing: RoutingService,
    private readonly external: ExternalEngine | undefined,
  ) {}

  get passthrough(): boolean {
    return this.external !== undefined;
  }

  profiles(): ProfileDescription[] {
    return this.routing.profiles();
  }

  async matrix(path: string, payload: MatrixRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    if (this.external) return this.external.call(path, payload, signal);
    const costing: Costing = payload.costing;
    const metric = metricOf(costing, payload.costing_options?.[costing]);
    const sources = (payload.sources ?? payload.locations)!;
    const targets = (payload.targets ?? payload.locations)!;
    const units = payload.units ?? 'kilometers';
    const result = await this.routing.matrix(metric, sources.map(toRouteLocation), targets.map(toRouteLocation), signal);
    const perUnit = metersPerUnit(units);
    const rows = sources.map((_, from) =>
      targets.map((_, to) => {
        const cell = from * targets.length + to;
        const seconds = result.seconds[cell]!;
        const meters = result.meters[cell]!;
        const reachable = !Number.isNaN(seconds);
        return { from_index: from, to_index: to, time: reachable ? Math.round(seconds) : null, distance: reachable ? round3(meters / perUnit) : null };
      }),
    );
    return availableEnvelope(path, {
      sources_to_targets: rows,
      sources: sources.map((location) => [{ lat: location.lat, lon: location.lon }]),
      targets: targets.map((location) => [{ lat: location.lat, lon: location.lon }]),
      units,
      ...(result.unsnapped.sources.length || result.unsnapped.targets.length ? { unsnapped: result.unsnapped } : {}),
      ...(payload.id ? { id: payload.id } : {}),
    });
  }
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}
