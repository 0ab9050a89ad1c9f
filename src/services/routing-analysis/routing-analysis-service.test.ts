import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { SolverPool } from '../../solvers/solver-pool.js';
import { EngineOutages } from '../routing/engine-envelope.js';
import { RoutingAnalysisService } from './routing-analysis-service.js';

// a pool whose workers have no map data: the engine cannot answer
const pool = new SolverPool({ threads: 1, shared: {} });
const service = new RoutingAnalysisService({ solvers: pool, routing: { assertAvailable: () => {} }, timeoutMs: 10_000, outages: new EngineOutages(pino({ level: 'silent' })) });
afterAll(() => pool.close());

describe('routing analysis without map data', () => {
  it('answers the spec envelope with available: false, the request and the reason, for isochrones', async () => {
    const request = { locations: [{ lat: 30.06, lon: 31.32 }], contours: [{ time: 5 }] };
    const answer = await service.isochrone(
      { locations: request.locations, costing: 'auto', contours: request.contours, polygons: false, denoise: 1, generalize: 0, show_locations: false },
      request,
    );
    expect(answer).toEqual({ provider: 'svc', available: false, path: '/routing/isochrone', request, reason: 'engine_error' });
  });

  it('answers the spec envelope with available: false, the request and the reason, for map matching', async () => {
    const request = { shape: [{ lat: 30.06, lon: 31.32 }, { lat: 30.061, lon: 31.321 }] };
    const answer = await service.mapMatch({ points: request.shape, costing: 'auto' }, request);
    expect(answer).toEqual({ provider: 'svc', available: false, path: '/routing/map-match', request, reason: 'engine_error' });
  });
});
