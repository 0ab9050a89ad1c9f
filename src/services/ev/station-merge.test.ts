import { describe, expect, it } from 'vitest';
import type { EvSourceStation } from '../../domain/ev-station.js';
import { mergeStations, sameSite } from './station-merge.js';

const METRE = 1 / 111_195;

function record(source: 'ocm' | 'osm', sourceId: string, northMetres: number, network: string | null, extra: Partial<EvSourceStation> = {}): EvSourceStation {
  return { source, sourceId, name: `${source} ${sourceId}`, network, lat: 30 + northMetres * METRE, lng: 31, connectors: [], status: 'unknown', pricing: null, address: null, ...extra };
}

describe('sameSite', () => {
  it('same network within 150 m, any network within 50 m, different networks never', () => {
    expect(sameSite(record('ocm', '1', 0, 'JoPetrol'), record('osm', 'node/1', 140, 'Jo Petrol EV')).same).toBe(true);
    expect(sameSite(record('ocm', '1', 0, 'JoPetrol'), record('osm', 'node/1', 160, 'JoPetrol')).same).toBe(false);
    expect(sameSite(record('ocm', '1', 0, null), record('osm', 'node/1', 45, 'Tesla')).same).toBe(true);
    expect(sameSite(record('ocm', '1', 0, null), record('osm', 'node/1', 60, 'Tesla')).same).toBe(false);
    expect(sameSite(record('ocm', '1', 0, 'Tesla'), record('osm', 'node/1', 5, 'Ionity')).same).toBe(false);
    expect(sameSite(record('osm', 'node/2', 0, null), record('osm', 'node/1', 5, null)).same).toBe(false);
  });
});

describe('mergeStations', () => {
  it('merges one OCM and one OSM record of a site, keeping OCM status and OSM position', () => {
    const ocm = record('ocm', '10', 0, null, { status: 'offline', pricing: '1.5', connectors: [{ type: 'CCS', kw: 60, count: 2 }] });
    const osm = record('osm', 'node/5', 20, 'EVolt', { status: 'operational', connectors: [{ type: 'Type2', kw: 22, count: 1 }] });
    const [station, ...rest] = mergeStations([ocm, osm]);
    expect(rest).toEqual([]);
    expect(station).toMatchObject({ id: 'ocm:10', network: 'EVolt', status: 'offline', pricing: '1.5', lat: osm.lat, maxKw: 60, sources: ['ocm:10', 'osm:node/5'] });
    expect(station!.connectors).toEqual([{ type: 'CCS', kw: 60, count: 2 }]);
  });

  it('pairs closest first, each record at most once', () => {
    const stations = mergeStations([record('ocm', 'a', 0, null), record('ocm', 'b', 30, null), record('osm', 'node/1', 25, null)]);
    expect(stations.map((station) => station.sources)).toEqual([['ocm:a'], ['ocm:b', 'osm:node/1']]);
  });

  it('keeps unmatched records of both sources, OSM status for OSM-only sites', () => {
    const stations = mergeStations([record('ocm', 'a', 0, 'X', { status: 'operational' }), record('osm', 'node/1', 1000, null, { status: 'operational', name: null })]);
    expect(stations).toHaveLength(2);
    expect(stations[1]).toMatchObject({ id: 'osm:node/1', name: 'EV charging station', status: 'operational', maxKw: null });
  });
});
