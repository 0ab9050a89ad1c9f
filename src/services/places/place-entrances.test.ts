/**
 * Entrances from the pack's `entrance` layer on real data: Monaco's extract has ten `entrance=*` nodes;
 * the places whose building outline carries them get them, main entrances first; Nasr City has none.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { MapPack } from '../../datapack/map-pack.js';
import { routingPack } from '../../../test/support/routing-packs.js';
import { seedsOf } from './place-seeder.js';

let monaco: MapPack;
let nasrCity: MapPack;

beforeAll(async () => {
  [monaco, nasrCity] = await Promise.all([routingPack('monaco'), routingPack('nasrCityPbf')]);
}, 120_000);

describe('place entrances', () => {
  it('keeps OSM entrance nodes in the pack and gives them to the places on their building', () => {
    const [start, end] = monaco.layerRange('entrance');
    expect(end - start).toBe(10);
    const seeds = seedsOf(monaco, () => undefined);
    const withEntrances = seeds.filter((seed) => seed.entrances.length > 0);
    expect(withEntrances.length).toBeGreaterThanOrEqual(5);
    // shops of one building share its entrance, numbered 4 (the node's addr:housenumber)
    const pizza = seeds.find((seed) => seed.osmType === 'node' && seed.osmId === 1661139834)!;
    expect(pizza.entrances).toEqual([{ id: 'node-4020124946', type: 'yes', label: '4', lat: 43.7325605, lng: 7.4180184 }]);
    for (const seed of withEntrances) {
      for (const entrance of seed.entrances) {
        // an entrance is on the outline of the place's building: within a few tens of metres of the place's point
        const metres = Math.hypot((entrance.lat - seed.lat) * 111_320, (entrance.lng - seed.lng) * 111_320 * Math.cos((seed.lat * Math.PI) / 180));
        expect(metres).toBeLessThan(150);
      }
    }
  });

  it('gives none where the data maps none', () => {
    expect(nasrCity.layerRange('entrance')).toEqual([nasrCity.layerRange('entrance')[0], nasrCity.layerRange('entrance')[0]]);
    expect(seedsOf(nasrCity, () => 'eg').every((seed) => seed.entrances.length === 0)).toBe(true);
  });
});
