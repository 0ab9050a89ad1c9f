/**
 * Place slugs: how navigation names a mapped place (spec part 3 §4.2
 * `placeSlug`) until the place catalogue gives places slugs of their own. A
 * slug is the OSM element the place was read from, `way-123456`, `node-123`
 * or `relation-42`; the geocoder's `osm_type/osm_id` (`way/123456`, as its
 * autocomplete ids read) is accepted too.
 */

/** OSM ids stay below 2^53 for a long time yet: 15 digits keep them exact as numbers. */
export const PLACE_SLUG_PATTERN = /^(node|way|relation)[-/]([1-9][0-9]{0,14})$/;

export type PlaceElementType = 'node' | 'way' | 'relation';

export interface PlaceRef {
  osmType: PlaceElementType;
  osmId: number;
}

export function parsePlaceSlug(slug: string): PlaceRef | undefined {
  const match = PLACE_SLUG_PATTERN.exec(slug);
  return match ? { osmType: match[1] as PlaceElementType, osmId: Number(match[2]) } : undefined;
}

/** The canonical slug of a place (`way-123456`). */
export function placeSlugOf(ref: PlaceRef): string {
  return `${ref.osmType}-${ref.osmId}`;
}
