/**
 * Directions between two points (search or click): POST /routing/route with alternates, in the UI's
 * language; the route line, the alternatives (click to choose), the summary and the maneuver list.
 */
import { client, currentApiKey, errorText } from '../app-state.js';
import { fill, h } from '../dom.js';
import { decodePolyline, type LngLat } from '../geo.js';
import { formatNumber, language, t } from '../i18n.js';
import { collection, line, point, type MapView } from '../map-view.js';
import { searchBox } from '../search-box.js';
import type { View } from './view.js';

export interface Endpoint {
  lngLat: LngLat;
  name: string;
}

/** What the directions page decided, which the navigation page drives. */
export const trip: { from?: Endpoint; to?: Endpoint } = {};

interface Maneuver {
  type: number;
  instruction: string;
  length: number;
  time: number;
  street_names?: string[];
}
interface Trip {
  legs: { shape: string; maneuvers: Maneuver[] }[];
  summary: { length: number; time: number };
}

export function directionsView(map: MapView): View {
  const out = h('section', { 'aria-live': 'polite', 'data-testid': 'directions' });
  let trips: Trip[] = [];
  let chosen = 0;
  let clickFrom = !trip.from;

  const drawEndpoints = () =>
    map.setOverlay(
      'pins',
      collection([
        ...(trip.from ? [point(trip.from.lngLat, { name: trip.from.name, icon: 'marker-stroked' })] : []),
        ...(trip.to ? [point(trip.to.lngLat, { name: trip.to.name, icon: 'marker' })] : []),
      ]),
    );

  const show = () => {
    const s = t();
    const current = trips[chosen];
    if (!current) return;
    const shapes = trips.map((item) => item.legs.flatMap((leg) => decodePolyline(leg.shape)));
    map.setOverlay('route-alternatives', collection(shapes.filter((_, i) => i !== chosen).map((shape) => line(shape))));
    map.setOverlay('route', collection([line(shapes[chosen]!)]));
    const summary = (item: Trip) => s.summary(formatNumber(item.summary.length, 1), formatNumber(item.summary.time / 60));
    fill(out, 
      h('p', { className: 'summary', 'data-testid': 'route-summary' }, summary(current)),
      trips.length > 1
        ? h(
            'fieldset',
            { className: 'alternatives' },
            h('legend', {}, s.alternatives),
            ...trips.map((item, index) =>
              h('label', {}, h('input', { type: 'radio', name: 'alternative', checked: index === chosen, onchange: () => ((chosen = index), show()) }), ` ${index === 0 ? s.fastest : s.alternative(index)}: ${summary(item)}`),
            ),
          )
        : null,
      h('h3', {}, s.maneuvers),
      h(
        'ol',
        { className: 'maneuvers', 'data-testid': 'maneuvers' },
        ...current.legs.flatMap((leg) => leg.maneuvers).map((maneuver) => h('li', {}, maneuver.instruction, h('span', { className: 'muted' }, ` ${formatNumber(maneuver.length * 1000)} m`))),
      ),
      h('p', { className: 'attribution' }, s.attributionNote),
    );
  };

  const route = async () => {
    if (!trip.from || !trip.to) return;
    drawEndpoints();
    if (!currentApiKey()) return fill(out, h('p', { className: 'error' }, t().needKey));
    const answer = await client.api.POST('/api/v1/routing/route', {
      body: {
        payload: {
          locations: [
            { lat: trip.from.lngLat[1], lon: trip.from.lngLat[0] },
            { lat: trip.to.lngLat[1], lon: trip.to.lngLat[0] },
          ],
          costing: 'auto',
          alternates: 2,
          directions_options: { language: language() === 'ar' ? 'ar-EG' : 'en-US', units: 'kilometers' },
        },
      } as never,
    });
    const data = (answer.data as { data?: { trip?: Trip; alternates?: { trip: Trip }[] } } | undefined)?.data;
    if (!data?.trip) return fill(out, h('p', { className: 'error', role: 'alert' }, t().routeFailed, errorText(answer.error)));
    trips = [data.trip, ...(data.alternates ?? []).map((alternate) => alternate.trip)];
    chosen = 0;
    show();
    map.fitTo(trips.flatMap((item) => item.legs.flatMap((leg) => decodePolyline(leg.shape))));
  };

  const set = (end: 'from' | 'to', endpoint: Endpoint) => {
    trip[end] = endpoint;
    fromBox.querySelector('input')!.value = trip.from?.name ?? '';
    toBox.querySelector('input')!.value = trip.to?.name ?? '';
    drawEndpoints();
    void route();
  };
  const coordinateName = (lngLat: LngLat) => `${lngLat[1].toFixed(5)}, ${lngLat[0].toFixed(5)}`;
  const near = (): LngLat => [map.map.getCenter().lng, map.map.getCenter().lat];
  const fromBox = searchBox({ label: t().from, near, value: trip.from?.name, onPick: (s) => s.lngLat && set('from', { lngLat: s.lngLat, name: s.name }) });
  const toBox = searchBox({ label: t().to, near, value: trip.to?.name, onPick: (s) => s.lngLat && set('to', { lngLat: s.lngLat, name: s.name }) });
  let detach: (() => void) | undefined;

  return {
    render(panel) {
      panel.append(fromBox, toBox, h('p', { className: 'muted' }, t().clickToSet), h('button', { type: 'button', onclick: () => void route() }, t().route), out);
      detach = map.onClick((lngLat) => {
        set(clickFrom ? 'from' : 'to', { lngLat, name: coordinateName(lngLat) });
        clickFrom = !clickFrom;
      });
      if (trip.from && trip.to) void route();
      else drawEndpoints();
    },
    leave() {
      detach?.();
      for (const overlay of ['route', 'route-alternatives', 'pins'] as const) map.setOverlay(overlay, undefined);
    },
  };
}
