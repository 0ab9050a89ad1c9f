/**
 * Builds the pack's feature sections (geocoding sources, POIs, tile layers,
 * chargers, stops, cameras) from kept ways, assembled multipolygons and admin
 * GeoJSON, on top of the point features the node pass staged already.
 */
import { FEATURE_LAYERS, GeometryKind, SourceKind, type FeatureLayer } from '../datapack/pack-layout.js';
import type { AdminArea } from './admin-areas.js';
import { areaOrLineLayers } from './feature-tags.js';
import type { BuiltFeatures, FeatureStage } from './feature-stage.js';
import { MATCH_GEOMETRY_SHIFT } from './kept-ways.js';
import type { Bbox, CollectedOsm } from './osm-collector.js';
import { assembleRings } from './ring-assembler.js';
import type { StringTableBuilder } from './string-table-builder.js';
import { stageEnforcementCameras } from './enforcement-cameras.js';
import { stageTransitRoutes, type TransitRouteSections } from './transit-routes.js';

const POINT = GeometryKind.point;
const POLYGON = GeometryKind.polygon;
const layerIndex = (layer: FeatureLayer) => FEATURE_LAYERS.indexOf(layer);

export function buildFeatures(
  collected: CollectedOsm,
  stage: FeatureStage,
  adminAreas: AdminArea[],
  strings: StringTableBuilder,
  bbox?: Bbox,
): BuiltFeatures & { transitRoutes: TransitRouteSections } {
  const { wayRefIndex, coordinates, featureWays, wayTags } = collected;
  const inside = (lon: number, lat: number) => !bbox || (lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3]);

  for (let way = 0; way < featureWays.count; way++) {
    stage.clearGeometry();
    const refStart = featureWays.refStart.array[way]!;
    const refEnd = refStart + featureWays.refCount.array[way]!;
    const lon = stage.lon.reserve(refEnd - refStart);
    const lat = stage.lat.reserve(refEnd - refStart);
    let points = 0;
    for (let index = refStart; index < refEnd; index++) {
      const slot = wayRefIndex[index]!;
      if (slot < 0) continue;
      lon[points] = coordinates.lon(slot);
      lat[points++] = coordinates.lat(slot);
    }
    if (points < 2) continue;
    stage.lon.length = stage.lat.length = points;
    stage.endPart(false);
    const complete = points === refEnd - refStart;
    const closed = points >= 4 && lon[0] === lon[points - 1] && lat[0] === lat[points - 1];
    const matchStart = featureWays.matchStart.array[way]!;
    const matchEnd = matchStart + featureWays.matchCount.array[way]!;
    let anyPolygon = false;
    for (let index = matchStart; index < matchEnd; index++) anyPolygon ||= featureWays.matches.array[index]! >> MATCH_GEOMETRY_SHIFT === POLYGON;
    const id = featureWays.osmId.array[way]!;
    const tagStart = featureWays.tagStart.array[way]!;
    const tagCount = featureWays.tagCount.array[way]!;
    for (let index = matchStart; index < matchEnd; index++) {
      const code = featureWays.matches.array[index]!;
      const layer = code & ((1 << MATCH_GEOMETRY_SHIFT) - 1);
      const geometry = code >> MATCH_GEOMETRY_SHIFT;
      if (geometry === POLYGON && (!complete || points < 4)) continue;
      if (geometry === POINT) {
        stage.representative(anyPolygon || closed);
        // with a bbox, lines and areas touching it stay whole, but a point (a building's POI) must lie inside it
        if (inside(stage.repLon, stage.repLat)) stage.addPoint(layer, SourceKind.way, id, stage.repLon, stage.repLat, wayTags, tagStart, tagCount);
      } else stage.addShape(layer, geometry, SourceKind.way, id, wayTags, tagStart, tagCount);
    }
  }

  // multipolygon and boundary relations
  let unclosedRelations = 0;
  const chainsOf = (ids: number[]) =>
    ids.flatMap((id) => {
      const refs = collected.memberWayRefs.get(id);
      return refs ? [Array.from(refs)] : [];
    });
  for (const relation of collected.relations) {
    stage.clearGeometry();
    const outer = assembleRings(chainsOf(relation.outer));
    const inner = assembleRings(chainsOf(relation.inner));
    let outerParts = 0;
    for (const [rings, isInner] of [[outer, false], [inner, true]] as const) {
      for (const chain of rings) if (stageRing(collected, stage, chain, isInner) && !isInner) outerParts++;
    }
    if (!outerParts) {
      unclosedRelations++;
      continue;
    }
    if (bbox && !intersects(stage, bbox)) continue;
    const tags = stage.stageKeptTags(relation.tags, 'type');
    for (const match of areaOrLineLayers(relation.tags, true)) {
      if (match.geometry === 'point') {
        stage.representative(true);
        if (inside(stage.repLon, stage.repLat)) stage.addPoint(layerIndex(match.layer), SourceKind.relation, relation.id, stage.repLon, stage.repLat, tags);
      } else stage.addShape(layerIndex(match.layer), POLYGON, SourceKind.relation, relation.id, tags);
    }
  }

  const transitRoutes = stageTransitRoutes(
    {
      routes: collected.transitRoutes,
      memberWayRefs: collected.memberWayRefs,
      memberNodes: collected.memberNodes,
      nodePosition: (id) => {
        const slot = collected.slotOfId(id);
        return slot < 0 ? undefined : [collected.coordinates.lon(slot), collected.coordinates.lat(slot)];
      },
    },
    stage,
    bbox,
  );

  stageEnforcementCameras(collected.enforcements, collected.memberNodes, stage, bbox);

  adminAreas.forEach((area, position) => {
    stage.clearGeometry();
    area.rings.forEach((ring, index) => {
      for (const [lon, lat] of ring) stage.lon.push(lon), stage.lat.push(lat);
      stage.endPart(area.inner[index]!);
    });
    if (bbox && !intersects(stage, bbox)) return;
    stage.addShape(layerIndex('admin_area'), POLYGON, SourceKind.external, position, stage.stageTags(Object.entries(area.tags)), undefined, undefined, area.point);
  });

  return { ...stage.build(strings, unclosedRelations), transitRoutes };
}

/** Adds a ring of node ids as a part; false (and nothing added) when one of its nodes is missing. */
function stageRing(collected: CollectedOsm, stage: FeatureStage, chain: number[], inner: boolean): boolean {
  const start = stage.lon.length;
  for (const id of chain) {
    const slot = collected.slotOfId(id);
    if (slot < 0) {
      stage.lon.length = stage.lat.length = start;
      return false;
    }
    stage.lon.push(collected.coordinates.lon(slot));
    stage.lat.push(collected.coordinates.lat(slot));
  }
  stage.endPart(inner);
  return true;
}

/** Whether the staged geometry's bounds intersect the bbox. */
function intersects(stage: FeatureStage, bbox: Bbox): boolean {
  let west = Infinity;
  let south = Infinity;
  let east = -Infinity;
  let north = -Infinity;
  for (let index = 0; index < stage.lon.length; index++) {
    west = Math.min(west, stage.lon.array[index]!);
    east = Math.max(east, stage.lon.array[index]!);
    south = Math.min(south, stage.lat.array[index]!);
    north = Math.max(north, stage.lat.array[index]!);
  }
  return west <= bbox[2] && east >= bbox[0] && south <= bbox[3] && north >= bbox[1];
}
