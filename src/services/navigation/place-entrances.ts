/**
 * Where a traveller arrives at a mapped place (spec part 3 §4.2 `placeSlug`:
 * "resolves a mapped entrance for arrival").
 *
 * The interface is what arrival checks and navigation sessions call; the place
 * catalogue (a later issue) will answer with the entrances it records. Until
 * then {@link MapPackPlaceEntrances} answers from the loaded map data pack. The
 * pack keeps places, POIs, buildings and address points with their OSM ids,
 * but not OSM `entrance=*` nodes (the ingest puts no layer on them, and the
 * Nasr City extract has none), so the honest arrival point it can give is the
 * place's road access: the nearest point of the road network the costing may
 * use, labelled `road_access`, never passed off as an entrance.
 */
import type { MapPack } from '../../datapack/map-pack.js';
import type { FeatureLayer } from '../../datapack/pack-layout.js';
import { ApiError } from '../../shared/errors.js';
import { haversineMeters } from '../../solvers/graph/geodesy.js';
import { metricOf } from '../routing/engine-request.js';
import type { RoutingService } from '../routing/routing-service.js';
import { roundTo } from '../../shared/rounding.js';
import { parsePlaceSlug, placeSlugOf, type PlaceElementType } from './place-slug.js';
import type { NavigationCosting } from '../../domain/costing.js';

/** `entrance`: a mapped entrance of the place; `road_access`: where the place meets the road network; `place`: the place itself (no road near). */
export type ArrivalPointType = 'entrance' | 'road_access' | 'place';

export interface ResolvedPlaceEntrance {
  /** Canonical slug of the place (`way-123456`). */
  placeSlug: string;
  /** The place's name in the requested language, null when it has none. */
  name: string | null;
  /** The place's representative point (a building's centroid, a POI's node). */
  place: { lat: number; lng: number };
  type: ArrivalPointType;
  /** The arrival point. */
  lat: number;
  lng: number;
  /** The road of a `road_access` point, in the requested language; null when unnamed or not a road access. */
  streetName: string | null;
  /** Metres from the place's point to the arrival point. */
  distanceFromPlaceMeters: number;
}

export interface ResolveEntranceOptions {
  /** Network the traveller arrives on (default `auto`): a footway counts for walkers, not for cars. */
  costing?: NavigationCosting;
  /** BCP 47 tag for names (`ar…` Arabic, else English). */
  language?: string;
  /** Where the traveller is, to choose among several entrances. */
  near?: { lat: number; lng: number };
}

export interface PlaceEntranceResolver {
  /** The arrival point of the place a slug names; undefined when no mapped place has that slug. */
  resolve(slug: string, options?: ResolveEntranceOptions, signal?: AbortSignal): Promise<ResolvedPlaceEntrance | undefined>;
}

/** The 404 of a slug that names no mapped place. */
export function unknownPlace(slug: string): ApiError {
  return new ApiError('NOT_FOUND', {
    message: `No mapped place has the slug ${slug} (place slugs name an OSM element of the map data: node-<id>, way-<id> or relation-<id>)`,
    details: { placeSlug: slug },
  });
}

/** Pack layers whose features are places one can travel to (streets, areas and lines are not). */
const PLACE_LAYERS: readonly FeatureLayer[] = ['poi', 'building', 'address', 'place', 'transit_stop', 'ev_charger'];
/** The pack's `features.sourceKind` codes. */
const SOURCE_KINDS: readonly (PlaceElementType | 'external')[] = ['node', 'way', 'relation', 'external'];
/** A place farther than this from any usable road has no road access (m). */
const ROAD_ACCESS_CUTOFF_METERS = 1_000;

export class MapPackPlaceEntrances implements PlaceEntranceResolver {
  private index?: Map<string, number>;

  constructor(
    private readonly pack: MapPack,
    private readonly roads: Pick<RoutingService, 'nearestRoad'>,
  ) {}

  async resolve(slug: string, options: ResolveEntranceOptions = {}, signal?: AbortSignal): Promise<ResolvedPlaceEntrance | undefined> {
    const ref = parsePlaceSlug(slug);
    if (!ref) return undefined;
    const feature = this.features().get(placeSlugOf(ref));
    if (feature === undefined) return undefined;
    const [lng, lat] = this.pack.featurePosition(feature);
    const language = options.language ?? 'en-US';
    const metric = metricOf(options.costing ?? 'auto', undefined);
    const road = await this.roads.nearestRoad(metric, { lat, lon: lng, searchCutoffMeters: ROAD_ACCESS_CUTOFF_METERS }, language, signal);
    const base = { placeSlug: placeSlugOf(ref), name: this.nameOf(feature, language), place: { lat, lng } };
    if (!road) return { ...base, type: 'place', lat, lng, streetName: null, distanceFromPlaceMeters: 0 };
    return {
      ...base,
      type: 'road_access',
      lat: roundTo(road.lat, 7),
      lng: roundTo(road.lon, 7),
      streetName: road.streetName,
      distanceFromPlaceMeters: roundTo(haversineMeters(lat, lng, road.lat, road.lon), 1),
    };
  }

  /** Slug → feature of every place of the pack, built on first use (one pass over the place layers). */
  private features(): Map<string, number> {
    if (this.index) return this.index;
    const index = new Map<string, number>();
    const s = this.pack.sections;
    for (const layer of PLACE_LAYERS) {
      const [start, end] = this.pack.layerRange(layer);
      for (let feature = start; feature < end; feature++) {
        const osmType = SOURCE_KINDS[s['features.sourceKind'][feature]!];
        if (!osmType || osmType === 'external') continue;
        const slug = placeSlugOf({ osmType, osmId: s['features.osmId'][feature]! });
        // one element can feed several layers (a named building with an address): its first feature stands for it
        if (!index.has(slug)) index.set(slug, feature);
      }
    }
    this.index = index;
    return index;
  }

  private nameOf(feature: number, language: string): string | null {
    const tags = this.pack.featureTags(feature);
    const local = language.toLowerCase().startsWith('ar') ? tags['name:ar'] : tags['name:en'];
    return local ?? tags.name ?? null;
  }
}
