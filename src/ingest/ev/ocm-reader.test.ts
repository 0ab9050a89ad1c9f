import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ocmStatus, readOcmExport } from './ocm-reader.js';
import { parseOutputKw, socketConnectors } from './osm-chargers.js';

// the five real Jordan POIs of ../shared/data (CC BY 4.0, Open Charge Map)
const JORDAN = fileURLToPath(new URL('../../../../shared/data/ev/openchargemap-JO', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'ocm-reader-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('readOcmExport', () => {
  it('reads a folder of OCM POIs: connectors, kW, status, network, address', () => {
    const stations = readOcmExport(JORDAN);
    expect(stations.map((station) => station.sourceId)).toEqual(['188265', '188402', '313364', '462346', '85356']);
    const addustour = stations[0]!;
    expect(addustour).toMatchObject({ source: 'ocm', name: 'JoPetrol Addustour station', status: 'operational', pricing: '1.5', lat: 31.9990008, lng: 35.8795644 });
    expect(addustour.connectors).toEqual([
      { type: 'CHAdeMO', kw: 50, count: 1 },
      { type: 'CCS', kw: 50, count: 1 },
      { type: 'Type2', kw: 22, count: 1 },
    ]);
    expect(addustour.address).toBe('Queen Rania Al-Abdullah Street, منطقة تلاع العلي, Amman, 23324');
    // OCM "Unknown" connection type with a "GB/T DC" comment; no PowerKW given
    expect(stations[2]!.connectors).toContainEqual({ type: 'GB/T', kw: null, count: 1 });
    // 16-point hub: GB/T DC ×6 at 250 kW
    expect(stations[3]!.connectors).toContainEqual({ type: 'GB/T', kw: 250, count: 6 });
    // OperatorID 23 is Tesla; 3458 has no name in the compact export
    expect(stations[4]!.network).toBe('Tesla Motors (Worldwide)');
    expect(addustour.network).toBeNull();
  });

  it('takes the operator title of a full export and reads an array file', () => {
    const file = join(scratch, 'array.json');
    writeFileSync(file, JSON.stringify([{ ID: 7, OperatorID: 999, OperatorInfo: { Title: 'Example Network' }, StatusTypeID: 100, AddressInfo: { Title: 'X', Latitude: 30, Longitude: 31 }, Connections: [] }]));
    expect(readOcmExport(file)).toEqual([expect.objectContaining({ sourceId: '7', network: 'Example Network', status: 'offline', connectors: [] })]);
  });

  it('names the file of a POI without a position', () => {
    const file = join(scratch, 'bad.json');
    writeFileSync(file, JSON.stringify({ ID: 8, AddressInfo: { Title: 'X' } }));
    expect(() => readOcmExport(file)).toThrow(`${file}: POI 8 has no valid AddressInfo.Latitude/Longitude`);
  });

  it('maps OCM status types to operational, offline or unknown', () => {
    expect([10, 20, 50, 75].map(ocmStatus)).toEqual(['operational', 'operational', 'operational', 'operational']);
    expect([30, 100, 150, 200, 210].map(ocmStatus)).toEqual(['offline', 'offline', 'offline', 'offline', 'offline']);
    expect([0, undefined, 999].map(ocmStatus)).toEqual(['unknown', 'unknown', 'unknown']);
  });
});

describe('OSM socket tags', () => {
  it('reads counts and outputs per socket', () => {
    expect(socketConnectors({ 'socket:type2_combo': '2', 'socket:type2_combo:output': '150 kW', 'socket:type2': '4', 'socket:type2:output': '22kW', 'socket:chademo': 'yes' })).toEqual([
      { type: 'CCS', kw: 150, count: 2 },
      { type: 'CHAdeMO', kw: null, count: 1 },
      { type: 'Type2', kw: 22, count: 4 },
    ]);
    expect(socketConnectors({ 'socket:type2': 'no' })).toEqual([]);
  });

  it('parses power values with units', () => {
    expect(parseOutputKw('7400 W')).toBe(7.4);
    expect(parseOutputKw('11;22 kW')).toBe(22);
    expect(parseOutputKw('3.7 kVA')).toBe(3.7);
    expect(parseOutputKw('fast')).toBeNull();
  });
});
