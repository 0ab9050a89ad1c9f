/**
 * Live fleet: creates a simulated fleet (three vehicles, eight stops in Nasr City), subscribes to its
 * WebSocket stream (clients/typescript FleetStream) and redraws vehicles, stops and each vehicle's visiting
 * order whenever a new plan arrives (a stop added, vehicles moved, a re-optimisation asked for).
 */
import type { Fleet, FleetPlan, FleetStream } from '../../../clients/typescript/src/index.js';
import { client, currentApiKey, errorText } from '../app-state.js';
import { fill, h } from '../dom.js';
import type { LngLat } from '../geo.js';
import { formatNumber, t } from '../i18n.js';
import { collection, line, point, type MapView } from '../map-view.js';
import type { View } from './view.js';

const COLORS = ['#1565c0', '#c62828', '#2e7d32', '#6a1b9a', '#ef6c00'];
const DEPOT: LngLat = [31.3415, 30.0605];

/** A small deterministic generator, so the demo fleet is the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

export function fleetView(map: MapView): View {
  const s = () => t();
  const version = h('output', { 'data-testid': 'plan-version' }, '—');
  const log = h('ol', { className: 'plan-log', 'aria-live': 'polite', 'data-testid': 'plan-log', reversed: true });
  const routes = h('ul', { className: 'fleet-routes', 'data-testid': 'fleet-routes' });
  const error = h('p', { className: 'error', role: 'alert' });
  const state = h('p', { className: 'stream-state', 'data-testid': 'fleet-state' });
  const controls = h('div', { className: 'actions' });
  let stream: FleetStream | undefined;
  let fleet: Fleet | undefined;
  let random = seeded(32);
  let added = 0;

  const colorOf = (vehicleId: string) => COLORS[(fleet?.vehicles.findIndex((vehicle) => vehicle.id === vehicleId) ?? 0) % COLORS.length]!;
  const positionOf = (vehicleId: string): LngLat => {
    const vehicle = fleet!.vehicles.find((item) => item.id === vehicleId)!;
    const where = vehicle.position ?? vehicle.start;
    return [where.lng, where.lat];
  };

  const draw = (plan: FleetPlan | null) => {
    if (!fleet) return;
    const stops = new Map(fleet.stops.map((stop) => [stop.id, stop]));
    const owner = new Map<string, string>();
    const order = new Map<string, number>();
    for (const route of plan?.routes ?? []) route.stopIds.forEach((id, index) => (owner.set(id, route.vehicleId), order.set(id, index + 1)));
    map.setOverlay(
      'fleet-routes',
      collection(
        (plan?.routes ?? []).filter((route) => route.stopIds.length).map((route) =>
          line([positionOf(route.vehicleId), ...route.stopIds.flatMap((id) => (stops.has(id) ? [[stops.get(id)!.lng, stops.get(id)!.lat] as LngLat] : []))], { color: colorOf(route.vehicleId) }),
        ),
      ),
    );
    map.setOverlay('fleet-stops', collection([...stops.values()].filter((stop) => stop.status === 'pending').map((stop) => point([stop.lng, stop.lat], { color: owner.has(stop.id) ? colorOf(owner.get(stop.id)!) : '#757575', label: String(order.get(stop.id) ?? '?') }))));
    map.setOverlay('fleet-vehicles', collection(fleet.vehicles.map((vehicle) => point(positionOf(vehicle.id), { color: colorOf(vehicle.id) }))));
    version.textContent = String(plan?.planVersion ?? fleet.planVersion);
    fill(routes, 
      ...(plan?.routes ?? []).map((route) =>
        h('li', { style: `border-inline-start: 6px solid ${colorOf(route.vehicleId)}` }, `${s().vehicle} ${route.vehicleId}: ${formatNumber(route.stopIds.length)} ${s().stops} · ${s().summary(formatNumber(route.distanceMeters / 1000, 1), formatNumber(route.durationSeconds / 60))}`),
      ),
    );
  };

  const start = async () => {
    stop();
    error.textContent = '';
    fill(log);
    if (!currentApiKey()) return void (error.textContent = s().needKey);
    random = seeded(32);
    added = 0;
    const around = (spread: number) => ({ lat: DEPOT[1] + (random() - 0.5) * spread, lng: DEPOT[0] + (random() - 0.5) * spread * 1.2 });
    const created = await client.api.POST('/api/v1/optimize/fleets', {
      body: {
        name: 'Web app demo (simulated)',
        costing: 'auto',
        vehicles: ['v1', 'v2', 'v3'].map((id) => ({ id, start: around(0.01), capacity: 10 })),
        stops: Array.from({ length: 8 }, (_, index) => ({ id: `s${index + 1}`, ...around(0.03), demand: 1, serviceSeconds: 120 })),
      } as never,
    });
    const answer = created.data as Fleet | undefined;
    if (!answer) return void (error.textContent = errorText(created.error));
    fleet = answer;
    draw(fleet.plan);
    map.fitTo(fleet.stops.map((stop) => [stop.lng, stop.lat] as LngLat));
    stream = client.fleetStream(fleet.fleetId, { since: fleet.planVersion });
    stream.on('state', ({ state: value, code }) => (state.textContent = `${s().connection}: ${value}${code ? ` (${code})` : ''}`));
    stream.on('ready', (current) => {
      fleet = current;
      draw(current.plan);
    });
    stream.on('plan', (frame) => {
      if (!fleet) return;
      fleet.plan = frame.plan;
      fleet.planVersion = frame.planVersion;
      const diff = frame.diff;
      log.prepend(
        h(
          'li',
          { 'data-plan-version': String(frame.planVersion) },
          `${s().planVersion} ${frame.planVersion}`,
          diff ? ` · +${diff.added.length} −${diff.removed.length} ↔${diff.moved.length} · ${diff.changedVehicleIds.join(', ') || '—'}` : ' · resync',
        ),
      );
      // the plan names stops the page may not know yet (added by another client): read the fleet again
      if (frame.plan.routes.some((route) => route.stopIds.some((id) => !fleet!.stops.some((stop) => stop.id === id)))) {
        void client.api.GET('/api/v1/optimize/fleets/{fleetId}', { params: { path: { fleetId: fleet.fleetId } } } as never).then((read: { data?: unknown }) => {
          if (read.data) fleet = read.data as Fleet;
          draw(fleet!.plan);
        });
      } else draw(frame.plan);
    });
    stream.on('error', (frame) => (error.textContent = errorText(frame)));
    fill(controls, 
      h('button', { type: 'button', 'data-action': 'add-stop', onclick: addStop }, s().addStop),
      h('button', { type: 'button', 'data-action': 'move', onclick: moveVehicles }, s().moveVehicles),
      h('button', { type: 'button', 'data-action': 'reoptimize', onclick: () => stream?.send({ type: 'reoptimize' }) }, s().reoptimize),
    );
  };

  const addStop = () => {
    if (!fleet || !stream) return;
    const stop = { id: `new${++added}`, lat: DEPOT[1] + (random() - 0.5) * 0.03, lng: DEPOT[0] + (random() - 0.5) * 0.036, demand: 1, serviceSeconds: 120 };
    fleet.stops.push({ ...stop, status: 'pending', addedAt: new Date().toISOString() });
    stream.send({ type: 'add_stops', stops: [stop] });
    draw(fleet.plan);
  };

  /** Each vehicle drives 60 % of the way to its next stop; then a re-plan from where they are. */
  const moveVehicles = () => {
    if (!fleet?.plan || !stream) return;
    const stops = new Map(fleet.stops.map((stop) => [stop.id, stop]));
    const at = new Date().toISOString();
    for (const route of fleet.plan.routes) {
      const target = stops.get(route.stopIds[0] ?? '');
      if (!target) continue;
      const [lng, lat] = positionOf(route.vehicleId);
      const moved = { lat: lat + (target.lat - lat) * 0.6, lng: lng + (target.lng - lng) * 0.6 };
      const vehicle = fleet.vehicles.find((item) => item.id === route.vehicleId)!;
      vehicle.position = { ...moved, at };
      stream.send({ type: 'position', vehicleId: route.vehicleId, ...moved, at });
    }
    stream.send({ type: 'reoptimize' });
    draw(fleet.plan);
  };

  const stop = () => {
    stream?.close();
    stream = undefined;
  };

  return {
    render(panel) {
      panel.append(
        h('p', {}, s().fleetIntro, ' ', h('span', { className: 'badge' }, s().simulated)),
        h('div', { className: 'actions' }, h('button', { type: 'button', 'data-action': 'start-fleet', onclick: () => void start() }, s().startFleet)),
        controls,
        error,
        state,
        h('p', {}, `${s().planVersion}: `, version),
        routes,
        h('h3', {}, s().planLog),
        log,
        h('p', { className: 'attribution' }, s().attributionNote),
      );
      if (fleet) draw(fleet.plan);
    },
    leave() {
      stop();
      fleet = undefined;
      fill(controls);
      for (const overlay of ['fleet-routes', 'fleet-stops', 'fleet-vehicles'] as const) map.setOverlay(overlay, undefined);
    },
  };
}
