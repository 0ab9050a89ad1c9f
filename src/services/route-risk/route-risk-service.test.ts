import polyline from '@mapbox/polyline';
import { describe, expect, it } from 'vitest';
import type { LogisticsZone } from '../../domain/logistics-zone.js';
import { RouteRiskService, type RouteRiskSources } from './route-risk-service.js';
import { routeRiskRequestSchema } from './route-risk-request.js';

const LINE = [[30.06, 31.33], [30.06, 31.345]] as [number, number][]; // [lat, lng], about 1.45 km east
const SHAPE = polyline.encode(LINE, 6);
const NOW = Date.parse('2026-03-02T06:00:00Z');

function sources(overrides: Partial<RouteRiskSources> = {}): RouteRiskSources {
  return {
    routing: { trip: () => Promise.reject(new Error('not routed in this test')) },
    pack: { features: () => [], segmentShape: () => undefined },
    now: () => NOW,
    ...overrides,
  };
}
const body = (extra: Record<string, unknown> = {}) => routeRiskRequestSchema.parse({ polyline: SHAPE, segmentMeters: 500, ...extra });
const factor = (answer: { factors: { factor: string }[] }, name: string) => answer.factors.find((entry) => entry.factor === name) as any;

describe('RouteRiskService', () => {
  it('reports every source this server lacks as unavailable and scores 0, never assuming weather or traffic', async () => {
    const answer = await new RouteRiskService(sources()).score(body());
    expect(answer.score).toBe(0);
    expect(answer.level).toBe('low');
    expect(answer.segments.length).toBe(3);
    for (const name of ['traffic', 'weather', 'incidents', 'logistics_zones', 'enforcement']) expect(factor(answer, name)).toMatchObject({ available: false, value: 0 });
    expect(factor(answer, 'weather').reasons).toEqual(['no weather provider is configured (WEATHER_URL): weather is not assumed']);
    // a given route is timed at the assumed speed: the third segment is entered 1000 m in
    expect(answer.route.durationSource).toBe('assumed 40 km/h');
    expect(Date.parse(answer.segments[2]!.enteredAt) - NOW).toBe(Math.round((1000 / (40 / 3.6)) * 1000));
  });

  it('reads learned traffic only on the roads the route runs along, at the hour each segment is entered', async () => {
    const asked: string[] = [];
    const along = { segmentKey: 'w1:1-2', congestion: 'heavy', speedRatio: 0.4, reason: 'typical profile at 08:00', lat: 30.06, lng: 31.3325 };
    const across = { segmentKey: 'w2:3-4', congestion: 'severe', speedRatio: 0.1, reason: 'crossing street', lat: 30.0605, lng: 31.34 };
    const shapes: Record<string, [number, number][]> = { 'w1:1-2': [[31.331, 30.06], [31.334, 30.06]], 'w2:3-4': [[31.34, 30.0595], [31.34, 30.062]] };
    const answer = await new RouteRiskService(
      sources({
        traffic: { labels: async (query) => { asked.push(query.at!); return { labels: [along, across] } as never; } },
        pack: { features: () => [], segmentShape: (key) => shapes[key] },
      }),
    ).score(body());
    expect(asked).toEqual(['2026-03-02T06:30:00.000Z']);
    const first = factor(answer.segments[0]!, 'traffic');
    expect(first).toMatchObject({ available: true, value: 0.7 });
    expect(first.reasons[0]).toMatch(/^heavy traffic at 2026-03-02T06:00Z on 1 road section \(mean speed 40% of free flow\): typical profile at 08:00/);
    // the crossing street's severe label is not this route's traffic
    expect(answer.segments.flatMap((segment) => factor(segment, 'traffic').reasons).join(' ')).not.toContain('crossing street');
  });

  it('scores a zone crossed where it is crossed, with its id in the reason', async () => {
    const zone = { id: 'z1', name: 'Port gate', zoneType: 'security', riskScore: 0.5, costMultiplier: 2, routingPolicy: 'avoid', bbox: [31.3405, 30.059, 31.3445, 30.061], geometry: { type: 'Polygon', coordinates: [[[31.3405, 30.059], [31.3445, 30.059], [31.3445, 30.061], [31.3405, 30.061], [31.3405, 30.059]]] } } as unknown as LogisticsZone;
    const answer = await new RouteRiskService(sources({ zones: { activeZones: async () => [zone] } })).score(body());
    const values = answer.segments.map((segment) => factor(segment, 'logistics_zones').value);
    // the zone spans about 31.3405–31.3445: the route's last 500 m only; an avoid zone reads at least 0.75
    expect(values).toEqual([0, 0, 0.75]);
    expect(factor(answer.segments[2]!, 'logistics_zones').reasons[0]).toMatch(/^\d+ m inside security zone "Port gate" .*operators ask routes to avoid it; zone z1\)$/);
    expect(answer.segments[2]!.score).toBe(Math.round(100 * 0.75 * 0.75));
  });
});
