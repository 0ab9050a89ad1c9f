import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../shared/logger.js';
import { readGbfsDocument } from './gbfs-fetch.js';
import { GbfsService, parseGbfs, vehicleTypeOf } from './gbfs-service.js';

const dir = mkdtempSync(join(tmpdir(), 'gbfs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('GBFS 3.x', () => {
  it('reads localized names, num_vehicles_available and vehicle_status from local files', async () => {
    const write = (name: string, value: unknown) => writeFileSync(join(dir, `${name}.json`), JSON.stringify(value));
    write('gbfs', { ttl: 60, version: '3.0', data: { feeds: [{ name: 'station_information', url: 'station_information.json' }, { name: 'station_status', url: 'station_status.json' }, { name: 'vehicle_status', url: 'vehicle_status.json' }, { name: 'vehicle_types', url: 'vehicle_types.json' }] } });
    write('vehicle_types', { data: { vehicle_types: [{ vehicle_type_id: 'sc', form_factor: 'scooter_standing', propulsion_type: 'electric' }, { vehicle_type_id: 'car', form_factor: 'car', propulsion_type: 'combustion' }] } });
    write('station_information', { data: { stations: [{ station_id: 'a', name: [{ text: 'Abdali', language: 'en' }], lat: 31.96, lon: 35.91 }] } });
    write('station_status', { data: { stations: [{ station_id: 'a', num_vehicles_available: 4, num_docks_available: 6, is_installed: true, is_renting: true, is_returning: true, vehicle_types_available: [{ vehicle_type_id: 'sc', count: 4 }] }] } });
    write('vehicle_status', { data: { vehicles: [{ vehicle_id: 'v1', lat: 31.961, lon: 35.911, vehicle_type_id: 'sc', is_reserved: false, is_disabled: false }, { vehicle_id: 'v2', lat: 31.961, lon: 35.911, vehicle_type_id: 'car' }] } });
    const service = new GbfsService([join(dir, 'gbfs.json')], { allowedHosts: [] }, createLogger({ LOG_LEVEL: 'silent' }));
    await service.start();
    const answer = service.nearby({ lat: 31.96, lng: 35.91, radius: 500 });
    expect(answer.stations).toEqual([
      { id: 'gbfs1:a', name: 'Abdali', vehicleType: 'scooter', lat: 31.96, lng: 35.91, bikesAvailable: 4, docksAvailable: 6, distanceM: 0 },
      expect.objectContaining({ id: 'gbfs1:v1', vehicleType: 'scooter', bikesAvailable: 1, docksAvailable: 0 }),
    ]);
    expect(service.nearby({ lat: 31.96, lng: 35.91, radius: 500, type: 'bike' }).count).toBe(0);
    service.stop();
  });

  it('maps form factor and propulsion to the API types', () => {
    expect(vehicleTypeOf({ form_factor: 'bicycle', propulsion_type: 'human' })).toBe('bike');
    expect(vehicleTypeOf({ form_factor: 'bicycle', propulsion_type: 'electric_assist' })).toBe('ebike');
    expect(vehicleTypeOf({ form_factor: 'scooter_seated', propulsion_type: 'electric' })).toBe('scooter');
    expect(vehicleTypeOf({ form_factor: 'moped' })).toBeUndefined();
    // a station not renting offers nothing, one not returning no docks
    const [closed] = parseGbfs({ stationInformation: { data: { stations: [{ station_id: 'x', name: 'X', lat: 1, lon: 2 }] } }, stationStatus: { data: { stations: [{ station_id: 'x', num_bikes_available: 5, num_docks_available: 3, is_renting: false, is_returning: false }] } } }, 'f');
    expect(closed).toMatchObject({ total: 0, docksAvailable: 0 });
  });
});

describe('readGbfsDocument', () => {
  it('refuses plain http and private addresses unless the host is allowed', async () => {
    await expect(readGbfsDocument('http://127.0.0.1:9/gbfs.json', { allowedHosts: [] })).rejects.toThrow(/only https/);
    await expect(readGbfsDocument('https://127.0.0.1:9/gbfs.json', { allowedHosts: [] })).rejects.toThrow(/private address/);
    await expect(readGbfsDocument('https://localhost:9/gbfs.json', { allowedHosts: [] })).rejects.toThrow(/private address/);
    // allowed: the request is made (and fails on the closed port instead)
    await expect(readGbfsDocument('http://127.0.0.1:9/gbfs.json', { allowedHosts: ['127.0.0.1:9'] })).rejects.toThrow(/ECONNREFUSED/);
  });
});
