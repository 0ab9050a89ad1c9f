/**
 * The routing endpoints' work behind the route table: typed engine requests
 * in, spec envelopes out. Uses the built-in engine, or passes through to the
 * external one when ROUTING_ENGINE_URL is set. The engine's own failures
 * (over budget, line full, a worker that failed) answer `available: false`
 * with a reason (engine-envelope.ts); input it cannot route stays a 400.
 */
import { DEFAULT_ALTERNATES } from '../../solvers/routing/routing-engine.js';
import { maneuverTypeCatalogue, routeLabels, SKIPPED_LABELS, unitMeters, type SpeedLimitStretch, type Trip } from '../../solvers/routing/guidance/index.js';
import type { ExternalEngine } from './external-engine.js';
import { availableEnvelope, type EngineEnvelope, type EngineOutages } from './engine-envelope.js';
import { areasOf, metricOf, narrationOf, toRouteLocation, type EngineRequest, type MatrixRequest } from './engine-request.js';
import type { ProfileDescription, RoutingService } from './routing-service.js';
import { parseConstraintsText, type PlanRequest } from './plan-request.js';
import { orderStops } from '../../solvers/routing/stop-order/stop-order.js';
import type { MetricSpec } from '../../solvers/routing/costing/profiles.js';
import type { RouteLocation } from '../../solvers/routing/routing-engine.js';
import { roundTo } from '../../shared/rounding.js';
import { JsonText } from '../../shared/json-text.js';
import { routeAnswerHead } from './route-envelope.js';
import type { Costing } from '../../domain/costing.js';
import type { Principal } from '../../domain/principal.js';
import { ApiError } from '../../shared/errors.js';
import type { AreaAvoidance } from '../../solvers/routing/avoid-areas.js';
import { steerAround, type PlanConstraintSource } from './plan-constraints.js';
import type { TrafficMetricChoice, TrafficMetrics } from '../traffic/traffic-metric.js';

/** What `date_time` reads: the traffic metric of a moment (services/traffic/traffic-metric.ts). */
export type TrafficMetricSource = Pick<TrafficMetrics, 'choose'>;

/** Costings that drive in the traffic the profiles learned (motor vehicles on roads). */
const TRAFFIC_COSTINGS: ReadonlySet<Costing> = new Set<Costing>(['auto', 'taxi', 'bus', 'truck', 'motor_scooter']);
import { mergeAreas, planAroundZones, zoneAreas, zoneReport, zonesNotApplied, type PlanZoneSource } from './plan-zones.js';
import { boxesMeet } from '../map-data/zone-crossing.js';
import { avoidableAreas, constrainMetric, planAreas, routingConstraintReport } from './plan-routing-constraints.js';

export class RoutingEndpoints {
  constructor(
    private readonly routing: RoutingService,
    private readonly external: ExternalEngine | undefined,
    private readonly outages: EngineOutages,
    /** Incidents, acknowledged reports and road edits the planner routes around; none without it. */
    private readonly constraints?: PlanConstraintSource,
    /** The learned-traffic metrics `date_time` chooses from (wired after routing: read when a route asks). */
    private readonly trafficMetrics: () => TrafficMetricSource | undefined = () => undefined,
    /** The operators' logistics zones the planner avoids, penalizes or warns about; none without it. */
    private readonly zones?: PlanZoneSource,
  ) {}

  get passthrough(): boolean {
    return this.external !== undefined;
  }

  profiles(): ProfileDescription[] {
    return this.routing.profiles();
  }

  /** GET /routing/maneuver-types: the maneuver type codes with name, icon and description. */
  maneuverTypes() {
    return maneuverTypeCatalogue();
  }

  /** POST /routing/route: the trip, its alternatives and the route labels. */
  async route(path: string, payload: EngineRequest, includeLabels: boolean, signal?: AbortSignal) {
    if (this.external) return withLabels(await this.external.call(path, payload, signal), includeLabels);
    return this.outages.answer(path, payload, () => this.routeHere(path, payload, includeLabels, signal));
  }

  private async routeHere(path: string, payload: EngineRequest, includeLabels: boolean, signal?: AbortSignal): Promise<JsonText> {
    const metric = metricOf(payload.costing, payload.costing_options?.[payload.costing]);
    // with a date_time, the moment's learned traffic (if any) weighs the search; without, the answer is as it always was
    const traffic = payload.date_time ? await this.trafficFor(payload.date_time, payload.costing, payload.locations[0]!) : undefined;
    if (traffic?.weights) metric.traffic = traffic.weights;
    const avoidAreas = areasOf(payload);
    const { body } = await this.routing.routeAnswer(
      metric,
      payload.locations.map(toRouteLocation),
      narrationOf(payload),
      { ...(avoidAreas ? { avoidAreas } : {}), ...(payload.alternates ? { alternates: { ...DEFAULT_ALTERNATES, count: payload.alternates } } : {}) },
      { head: routeAnswerHead(path), ...(payload.id ? { id: payload.id } : {}), includeLabels, ...(traffic ? { trafficModel: traffic.model } : {}) },
      signal,
    );
    // the worker wrote the whole answer and transferred its bytes: they go out as they are
    return new JsonText(Buffer.from(body.buffer, body.byteOffset, body.byteLength));
  }

  /** The traffic metric of a route's `date_time`: learned traffic for motor vehicles, free flow (said why) otherwise. */
  private async trafficFor(dateTime: NonNullable<EngineRequest['date_time']>, costing: Costing, origin: { lat: number; lon: number }): Promise<TrafficMetricChoice | undefined> {
    const source = this.trafficMetrics();
    if (!source) return undefined;
    const choice = await source.choose(dateTime, origin);
    if (!TRAFFIC_COSTINGS.has(costing) && choice.weights) {
      const { weights: _weights, ...rest } = choice;
      return { ...rest, model: { ...choice.model, used: false, metric: 'free-flow', reason: `learned traffic applies to motor vehicles, not ${costing}`, segmentsWithProfiles: 0 } };
    }
    return choice;
  }

  /**
   * POST /routing/optimize (engine `optimized_route`): the first and last location stay, the ones
   * between are visited in the order of the shortest tour; `trip.locations[i].original_index` says
   * which input each stop is.
   */
  async optimize(path: string, payload: EngineRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    if (this.external) return this.external.call(path, payload, signal);
    return this.outages.answer(path, payload, () => this.optimizeHere(path, payload, signal));
  }

  private async optimizeHere(path: string, payload: EngineRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    const metric = metricOf(payload.costing, payload.costing_options?.[payload.costing]);
    const locations = payload.locations.map(toRouteLocation);
    const { order, exact } = await this.order(metric, locations, signal);
    const outcome = await this.routing.trip(
      metric,
      order.map((index) => ({ ...locations[index]!, type: 'break' as const })),
      narrationOf(payload),
      {},
      signal,
    );
    outcome.trip.locations.forEach((location, index) => (location.original_index = order[index]!));
    return availableEnvelope(path, { trip: outcome.trip, optimal: exact, ...(payload.id ? { id: payload.id } : {}) });
  }

  /** POST /routing/route-attributes: the route's legal speed limits, stretch by stretch, over each leg's shape. */
  async attributes(path: string, payload: EngineRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    if (this.external) return this.external.call(path, payload, signal);
    return this.outages.answer(path, payload, () => this.attributesHere(path, payload, signal));
  }

  private async attributesHere(path: string, payload: EngineRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    const metric = metricOf(payload.costing, payload.costing_options?.[payload.costing]);
    const { language, units } = narrationOf(payload);
    const outcome = await this.routing.trip(metric, payload.locations.map(toRouteLocation), { language, units, includeAttributes: true }, {}, signal);
    return availableEnvelope(path, {
      units,
      legs: outcome.trip.legs.map((leg, index) => ({ shape: leg.shape, speed_limits: speedLimitRows(outcome.speedLimits?.[index] ?? [], units) })),
      ...(payload.id ? { id: payload.id } : {}),
    });
  }

  /** POST /routing/plan: the planner (spec table), with stop ordering, constraints and labels. */
  plan(path: string, body: PlanRequest, signal?: AbortSignal, principal?: Principal) {
    return this.outages.answer(path, body, () => this.planHere(path, body, signal, principal));
  }

  private async planHere(path: string, body: PlanRequest, signal: AbortSignal | undefined, principal: Principal | undefined) {
    const parsedConstraints = body.constraintsText ? parseConstraintsText(body.constraintsText) : undefined;
    const avoid = [...new Set([...body.avoid, ...(parsedConstraints?.avoid ?? [])])];
    const metric = constrainMetric(metricOf(body.costing, undefined, body.preference, avoid), body);
    this.routing.assertAvailable(metric.costing);
    // as on /routing/route: with a date_time the trips are searched on that moment's learned traffic; the stop
    // order stays a free-flow matrix (a traffic matrix would wait for its bucket's hierarchy to be built)
    const freeFlow = { ...metric };
    const traffic = body.date_time ? await this.trafficFor(body.date_time, body.costing, body.locations[0]!) : undefined;
    if (traffic?.weights) metric.traffic = traffic.weights;
    let locations: RouteLocation[] = body.locations.map((location) => ({ lat: location.lat, lon: location.lon, ...(location.name ? { name: location.name } : {}) }));
    let order = locations.map((_, index) => index);
    const reorder = body.optimize ?? locations.length > 2;
    if (reorder && locations.length > 3) {
      order = (await this.order(freeFlow, locations, signal)).order;
      locations = order.map((index) => locations[index]!);
    }
    // the body's avoided areas hold in every plan; when no route goes round them, they are reported crossed
    const areas = planAreas(body, locations);
    let fixedAreas = avoidableAreas(areas);
    const planTrip = (avoidAreas?: AreaAvoidance) => {
      const merged = fixedAreas ? mergeAreas(fixedAreas, avoidAreas) : avoidAreas;
      return this.routing.trip(
        metric,
        locations,
        { language: body.language, units: body.units ?? 'kilometers', includeLanes: body.includeLanes, includeAttributes: body.includeAttributes },
        { ...(body.alternates ? { alternates: { ...DEFAULT_ALTERNATES, count: body.alternates } } : {}), ...(merged ? { avoidAreas: merged } : {}) },
        signal,
      );
    };
    let outcome = await planTrip().catch((error: unknown) => {
      if (!fixedAreas || !isUnroutable(error)) throw error;
      for (const area of areas) area.unavoidable ??= 'no route between the locations goes around it';
      fixedAreas = undefined;
      return planTrip();
    });
    // logistics zones first (plan-zones.ts): the avoided ones stay avoided in every later re-plan
    const zones = body.applyLogisticsZones && this.zones ? (await this.zones.activeZones()).filter((zone) => boxesMeet(zone, zoneSearchBox(locations))) : undefined;
    const zonePlan = zones?.length ? await planAroundZones(zones, locations, outcome, planTrip, isUnroutable) : undefined;
    if (zonePlan) outcome = zonePlan.outcome;
    const avoidedZones = zoneAreas(zonePlan?.avoided ?? []);
    let constraints: Awaited<ReturnType<typeof steerAround>>['report'] | undefined;
    if (this.constraints) {
      const planAvoiding = (areas: AreaAvoidance) => planTrip(mergeAreas(avoidedZones, areas));
      const steered = await steerAround(this.constraints, { locations, avoidIncidents: body.avoidIncidents, avoidReported: body.avoidReported, disregard: body.disregard, principal }, outcome, planAvoiding, isUnroutable);
      outcome = steered.outcome;
      constraints = steered.report;
    }
    let logisticsZones = zonesNotApplied(outcome.trip);
    if (zones) {
      // alternatives may be reordered by zone cost, unless speed limits were read for the first one
      const reported = zoneReport(outcome, zones, zonePlan ?? { avoided: [], unavoidable: [] }, !body.includeAttributes);
      outcome = reported.outcome;
      logisticsZones = reported.report;
    }
    outcome.trip.locations.forEach((location, index) => (location.original_index = order[index]!));
    if (body.includeAttributes) for (const trip of [outcome.trip, ...outcome.alternates.map((alternate) => alternate.trip)]) nameSpeedLimits(trip);
    const units = outcome.trip.units;
    return {
      ...availableEnvelope(path, { trip: outcome.trip, ...(outcome.alternates.length ? { alternates: outcome.alternates } : {}) }),
      labels: body.includeLabels ? routeLabels(outcome.trip) : SKIPPED_LABELS,
      ...(traffic ? { trafficModel: traffic.model } : {}),
      costing: metric.costing,
      preference: metric.preference,
      avoid: metric.avoid,
      optimizedOrder: reorder ? order : null,
      ...(constraints ?? {
        incidentConstraints: { applied: body.avoidIncidents, avoided: [], unavoidable: [] },
        reportedConstraints: { applied: body.avoidReported, ttlDays: 60, avoided: [], unavoidable: [] },
        roadEditConstraints: { applied: true, avoided: [], unavoidable: [], disregarded: [] },
        disregarded: body.disregard,
        exactFallback: { used: false, plans: 1 },
      }),
      logisticsZones,
      routingConstraints: routingConstraintReport(outcome.trip, metric, body, areas),
      ...(parsedConstraints ? { parsedConstraints } : {}),
      ...(body.includeAttributes ? { routeSpeedLimits: (outcome.speedLimits ?? []).map((stretches) => speedLimitRows(stretches, units)) } : {}),
    };
  }

  private async order(metric: MetricSpec, locations: RouteLocation[], signal?: AbortSignal) {
    const matrix = await this.routing.matrix(metric, locations, locations, signal);
    return orderStops(matrix.seconds, locations.length);
  }

  async matrix(path: string, payload: MatrixRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    if (this.external) return this.external.call(path, payload, signal);
    return this.outages.answer(path, payload, () => this.matrixHere(path, payload, signal));
  }

  private async matrixHere(path: string, payload: MatrixRequest, signal?: AbortSignal): Promise<EngineEnvelope> {
    const costing: Costing = payload.costing;
    const metric = metricOf(costing, payload.costing_options?.[costing]);
    const sources = (payload.sources ?? payload.locations)!;
    const targets = (payload.targets ?? payload.locations)!;
    const units = payload.units ?? 'kilometers';
    const result = await this.routing.matrix(metric, sources.map(toRouteLocation), targets.map(toRouteLocation), signal);
    const perUnit = unitMeters(units);
    const rows = sources.map((_, from) =>
      targets.map((_, to) => {
        const cell = from * targets.length + to;
        const seconds = result.seconds[cell]!;
        const meters = result.meters[cell]!;
        const reachable = !Number.isNaN(seconds);
        return { from_index: from, to_index: to, time: reachable ? Math.round(seconds) : null, distance: reachable ? roundTo(meters / perUnit, 3) : null };
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

/** The locations' box grown by a detour's reach: zones beyond it cannot meet the plan. */
function zoneSearchBox(locations: readonly RouteLocation[]): [number, number][] {
  const margin = 0.1; // degrees, about 10 km
  const lats = locations.map((location) => location.lat);
  const lons = locations.map((location) => location.lon);
  return [
    [Math.min(...lons) - margin, Math.min(...lats) - margin],
    [Math.max(...lons) + margin, Math.max(...lats) + margin],
  ];
}

/** Whether a re-plan failed because no route avoids what it was asked to (then the last route stands). */
function isUnroutable(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'NO_ROUTE' || error.code === 'NO_ROAD_NEARBY');
}

/**
 * The planner's `includeAttributes` puts `speedLimitKph` on every maneuver, as spec part 3 §4.1 names it: the
 * km/h limit where the maneuver begins, null where none is known. The guidance's own `speed_limit` (same value)
 * stays, for clients that already read it.
 */
function nameSpeedLimits(trip: Trip): void {
  for (const leg of trip.legs) for (const maneuver of leg.maneuvers) Object.assign(maneuver, { speedLimitKph: maneuver.speed_limit ?? null });
}

function speedLimitRows(stretches: SpeedLimitStretch[], units: 'kilometers' | 'miles') {
  const perUnit = unitMeters(units);
  return stretches.map((stretch) => ({
    begin_shape_index: stretch.beginShapeIndex,
    end_shape_index: stretch.endShapeIndex,
    length: roundTo(stretch.lengthMeters / perUnit, 3),
    speed_limit: stretch.speedLimitKph,
    road_name: stretch.roadName,
  }));
}

/** Labels for an external engine's answer, when it carries a trip we can read. */
function withLabels(envelope: EngineEnvelope, includeLabels: boolean) {
  if (!envelope.available) return envelope;
  const trip = (envelope.data as { trip?: Trip } | undefined)?.trip;
  const readable = trip && Array.isArray(trip.legs) && typeof trip.language === 'string';
  return { ...envelope, labels: includeLabels && readable ? routeLabels(trip) : SKIPPED_LABELS };
}
