/**
 * Place entrances from the map data pack (Nasr City): every mapped place a
 * slug can name resolves, in either slug form, to its road access; a place no
 * road reaches is its own arrival point; unknown and malformed slugs resolve
 * to nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../src/datapack/map-pack.js';
import { MapPackPlaceEntrances } from '../src/services/navigation/place-entrances.js';
import { parsePlaceSlug, placeSlugOf } from '../src/services/navigation/place-slug.js';
import type { RoutingService } from '../src/services/routing/routing-service.js';
import { routingPack } from './support/routing-packs.js';

let pack: MapPack;

beforeAll(async () => {
  pack = await routingPack('nasrCityPbf');
}, 60_000);

type Roads = Pick<RoutingService, 'nearestRoad'>;
/** A road 0.0003° (about 33 m) north of every place, named after the costing it was asked for. */
const roadsNorth: Roads = {
  nearestRoad: async (metric, location) => ({ lat: location.lat + 0.0003, lon: location.lon, distanceMeters: 33.4, streetName: `${metric.costing} road` }),
};
const noRoads: Roads = { nearestRoad: async () => undefined };

describe('place slugs', () => {
  it('read both forms and write the dashed one', () => {
    expect(parsePlaceSlug('way-31820663')).toEqual({ osmType: 'way', osmId: 31820663 });
    expect(parsePlaceSlug('node/431441077')).toEqual({ osmType: 'node', osmId: 431441077 });
    expect(placeSlugOf({ osmType: 'relation', osmId: 42 })).toBe('relation-42');
    for (const bad of ['way-', 'way-0', 'way-01', 'street-12', 'way 12', 'way-1234567890123456']) expect(parsePlaceSlug(bad)).toBeUndefined();
  });
});

describe('MapPackPlaceEntrances', () => {
  it('resolves every named point of interest and building of the pack to its road access', async () => {
    const entrances = new MapPackPlaceEntrances(pack, roadsNorth);
    const named = [...pack.findFeatures('poi', (tags) => Boolean(tags.name)), ...pack.findFeatures('building', (tags) => Boolean(tags.name))];
    expect(named.length).toBeGreaterThan(100);
    const kinds = ['node', 'way', 'relation'] as const;
    for (const feature of named) {
      const slug = `${kinds[pack.sections['features.sourceKind'][feature]!]}-${pack.sections['features.osmId'][feature]}`;
      const [lng, lat] = pack.featurePosition(feature);
      const resolved = await entrances.resolve(slug.replace('-', '/'), { costing: 'pedestrian' });
      expect(resolved).toMatchObject({ placeSlug: slug, type: 'road_access', place: { lat, lng }, streetName: 'pedestrian road' });
      expect(resolved!.lat).toBeCloseTo(lat + 0.0003, 6);
      expect(resolved!.distanceFromPlaceMeters).toBeCloseTo(33.4, 0);
    }
  });

  it('names the place in the language asked for', async () => {
    const entrances = new MapPackPlaceEntrances(pack, roadsNorth);
    expect((await entrances.resolve('way-31820663', { language: 'ar-EG' }))!.name).toBe('مستشفى تبارك للولادة والأطفال');
    expect((await entrances.resolve('way-31820663'))!.name).toBe('Tabarak for Children');
  });

  it('makes a place no road reaches its own arrival point, and resolves unknown slugs to nothing', async () => {
    const entrances = new MapPackPlaceEntrances(pack, noRoads);
    expect(await entrances.resolve('way-31820663')).toMatchObject({ type: 'place', lat: 30.0667208, lng: 31.3340724, distanceFromPlaceMeters: 0, streetName: null });
    expect(await entrances.resolve('way-1')).toBeUndefined();
    expect(await entrances.resolve('relation-31820663')).toBeUndefined();
    expect(await entrances.resolve('not a slug')).toBeUndefined();
  });
});
