/**
 * Live navigation replay: creates a navigation session and drives it over the WebSocket stream
 * (clients/typescript NavigationStream). A simulated driver walks the route, sending a fix every
 * TICK_MS; once, a third of the way in (250–600 m), he turns off the road and keeps going away from it until the
 * server declares him off route and sends a new route, which he then follows. Progress, the next maneuver
 * and every event are shown as they arrive.
 */
import type { NavigationEvent, NavigationStream } from '../../../clients/typescript/src/index.js';
import { client, currentApiKey, errorText } from '../app-state.js';
import { fill, h } from '../dom.js';
import { decodePolyline, LineWalker, offset, type LngLat } from '../geo.js';
import { formatNumber, language, t } from '../i18n.js';
import { collection, line, point, type MapView } from '../map-view.js';
import { trip } from './directions-view.js';
import type { View } from './view.js';

/** Al-Hamd Mosque to Al-Rahma Mosque, Nasr City: about 5 km with a dozen maneuvers. */
const DEMO_FROM: LngLat = [31.349432, 30.0667181];
const DEMO_TO: LngLat = [31.3331883, 30.0536822];
const TICK_MS = 500;
/** Simulated seconds per tick: the replay runs at 3× real time. */
const SIMULATED_SECONDS_PER_TICK = 1.5;
const SPEED_MPS = 14;
/** Metres the detour moves away from the road per tick. */
const DETOUR_STEP_M = 30;

type Phase = 'following' | 'detour' | 'waiting-reroute';

export function navigationView(map: MapView): View {
  const s = () => t();
  const status = h('p', { className: 'stream-state', 'data-testid': 'stream-state' });
  const progressBar = h('progress', { max: 1, value: 0, 'aria-label': s().progress, 'data-testid': 'progress' });
  const remaining = h('p', { 'data-testid': 'remaining' });
  const next = h('p', { className: 'next-maneuver', 'data-testid': 'next-maneuver' });
  const events = h('ol', { className: 'events', 'aria-live': 'polite', 'data-testid': 'events', reversed: true });
  const startButton = h('button', { type: 'button', onclick: () => void start() }, s().startReplay);
  const stopButton = h('button', { type: 'button', disabled: true, onclick: () => void stop() }, s().stopReplay);
  const error = h('p', { className: 'error', role: 'alert' });

  let stream: NavigationStream | undefined;
  let sessionId: string | undefined;
  let timer: ReturnType<typeof setInterval> | undefined;
  let walker: LineWalker | undefined;
  let along = 0;
  let phase: Phase = 'following';
  let detoured = false;
  let detourFrom: { point: LngLat; bearing: number } | undefined;
  let detourSteps = 0;
  let clock = Date.now();
  let position: LngLat | undefined;
  const trail: GeoJSON.Feature[] = [];

  const setRoute = (shape: string) => {
    const coordinates = decodePolyline(shape);
    walker = new LineWalker(coordinates);
    along = 0;
    map.setOverlay('route', collection([line(coordinates)]));
  };

  const addEvent = (event: NavigationEvent) => {
    const names = s().eventNames;
    const data = event.data as { instruction?: string; distanceToRouteMeters?: number; reroutes?: number; distanceMeters?: number };
    const detail =
      event.type === 'off_route'
        ? `${formatNumber(data.distanceToRouteMeters ?? 0)} m`
        : event.type === 'rerouted'
          ? `#${data.reroutes} · ${formatNumber((data.distanceMeters ?? 0) / 1000, 1)} km`
          : (data.instruction ?? '');
    events.prepend(h('li', { 'data-event': event.type, className: `event ${event.type}` }, h('strong', {}, names[event.type] ?? event.type), ` #${event.seq} `, detail));
  };

  const tick = () => {
    if (!walker || !stream) return;
    clock += SIMULATED_SECONDS_PER_TICK * 1000;
    let heading: number;
    if (phase === 'following') {
      along += SPEED_MPS * SIMULATED_SECONDS_PER_TICK;
      const here = walker.at(along);
      position = here.point;
      heading = here.bearing;
      // leave the road once, a third of the way, between 250 and 600 m in (a short replay sees it)
      if (!detoured && along > Math.max(250, Math.min(600, walker.length / 3))) {
        detoured = true;
        phase = 'detour';
        detourFrom = here;
        detourSteps = 0;
      }
    } else {
      const bearing = ((detourFrom!.bearing + 90) % 360) * (Math.PI / 180);
      if (phase === 'detour' && detourSteps < 8) detourSteps++;
      else phase = 'waiting-reroute';
      const distance = detourSteps * DETOUR_STEP_M;
      position = offset(detourFrom!.point, Math.sin(bearing) * distance, Math.cos(bearing) * distance);
      heading = (detourFrom!.bearing + 90) % 360;
    }
    stream.sendFix({ lat: position[1], lng: position[0], speed: SPEED_MPS, heading: Math.round(heading), accuracy: 5, capturedAt: new Date(clock).toISOString() });
    map.setOverlay('driver', collection([point(position)]));
  };

  const start = async () => {
    await stop();
    error.textContent = '';
    fill(events);
    trail.length = 0;
    if (!currentApiKey()) return void (error.textContent = s().needKey);
    const from = trip.from?.lngLat ?? DEMO_FROM;
    const to = trip.to?.lngLat ?? DEMO_TO;
    const created = await client.api.POST('/api/v1/navigation/sessions', {
      body: { origin: { lat: from[1], lng: from[0] }, destination: { lat: to[1], lng: to[0], name: trip.to?.name ?? 'Al-Rahma Mosque' }, costing: 'auto', language: language() === 'ar' ? 'ar-EG' : 'en-US' } as never,
    });
    const session = created.data as { sessionId: string; routeShape: string } | undefined;
    if (!session) return void (error.textContent = errorText(created.error));
    sessionId = session.sessionId;
    setRoute(session.routeShape);
    map.fitTo(walker!.line);
    phase = 'following';
    detoured = false;
    clock = Date.now();
    stream = client.navigationStream(session.sessionId);
    stream.on('state', ({ state, code }) => (status.textContent = `${s().connection}: ${state}${code ? ` (${code})` : ''}`));
    stream.on('event', addEvent);
    stream.on('progress', (frame) => {
      progressBar.value = frame.progress?.progressFraction ?? 0;
      remaining.textContent = s().remaining(formatNumber(frame.distanceRemainingMeters / 1000, 1), formatNumber(frame.durationRemainingSeconds / 60));
      const nextManeuver = frame.progress?.nextManeuver;
      next.textContent = nextManeuver ? `${s().nextManeuver}: ${nextManeuver.instruction} (${formatNumber(frame.progress!.distanceToNextManeuverMeters ?? 0)} m)` : '';
      if (position) {
        trail.push(point(position, { offRoute: frame.progress?.offRoute ?? false }));
        map.setOverlay('trail', collection(trail.slice(-400)));
      }
    });
    stream.on('route', ({ route }) => {
      // the server re-planned from where the driver is: follow the new route
      setRoute(route.shape);
      phase = 'following';
    });
    stream.on('status', (frame) => {
      status.textContent = `${s().connection}: ${frame.status}`;
      clearInterval(timer);
      timer = undefined;
      stopButton.disabled = true;
    });
    stream.on('error', (frame) => (error.textContent = errorText(frame)));
    stream.on('ready', () => {
      if (!timer) timer = setInterval(tick, TICK_MS);
    });
    stopButton.disabled = false;
  };

  const stop = async () => {
    clearInterval(timer);
    timer = undefined;
    stream?.close();
    stream = undefined;
    if (sessionId) await client.api.DELETE('/api/v1/navigation/sessions/{id}', { params: { path: { id: sessionId } } } as never).catch(() => {});
    sessionId = undefined;
    stopButton.disabled = true;
  };

  return {
    render(panel) {
      panel.append(
        h('p', {}, s().navIntro, ' ', h('span', { className: 'badge' }, s().simulated)),
        h('div', { className: 'actions' }, startButton, stopButton),
        error,
        status,
        h('label', {}, s().progress, ' ', progressBar),
        remaining,
        next,
        h('h3', {}, s().events),
        events,
        h('p', { className: 'attribution' }, s().attributionNote),
      );
    },
    leave() {
      void stop();
      for (const overlay of ['route', 'driver', 'trail'] as const) map.setOverlay(overlay, undefined);
    },
  };
}
