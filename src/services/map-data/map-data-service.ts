import type { MapPack } from '../../datapack/map-pack.js';
import { mapReadiness, type MapReadiness, type MapReadinessOptions } from './map-readiness.js';

/** The map data family's door for the edge: the loaded pack stays behind it. */
export class MapDataService {
  constructor(
    private readonly pack: MapPack,
    private readonly options: MapReadinessOptions,
  ) {}

  readiness(): MapReadiness {
    return mapReadiness(this.pack, this.options);
  }
}
