/**
 * Enforcement cameras for the `traffic_camera` layer (format 6): OSM `type=enforcement` relations
 * (`enforcement=maxspeed|traffic_signals|average_speed|…`, `maxspeed`), placed at their `device` member (else
 * their first `from` member), and camera nodes no such relation describes: `highway=speed_camera`, a node's own
 * `enforcement=*`, and `man_made=surveillance` cameras watching traffic (`surveillance:zone=traffic`).
 */
import { FEATURE_LAYERS, SourceKind } from '../datapack/pack-layout.js';
import type { FeatureStage } from './feature-stage.js';
import { MemberType, type OsmMember, type OsmTags } from './osm/osm-visitor.js';

export interface KeptEnforcement {
  id: number;
  tags: OsmTags;
  /** The camera: `device` members first, then `from` members (where the enforcement starts). */
  positionNodes: number[];
}

export function parseEnforcement(id: number, members: readonly OsmMember[], tags: OsmTags): KeptEnforcement | undefined {
  if (tags.type !== 'enforcement' || !tags.enforcement) return undefined;
  const nodesOf = (role: string) => members.filter((member) => member.type === MemberType.Node && member.role === role).map((member) => member.ref);
  const positionNodes = [...nodesOf('device'), ...nodesOf('from')];
  return positionNodes.length ? { id, tags, positionNodes } : undefined;
}

/** Whether a node is a camera by its own tags (a relation's device is staged from the relation instead). */
export function isCameraNode(tags: OsmTags): boolean {
  return (
    tags.highway === 'speed_camera' ||
    (tags.enforcement !== undefined && tags.enforcement !== 'no') ||
    (tags.man_made === 'surveillance' && tags['surveillance:zone'] === 'traffic' && (tags['surveillance:type'] ?? 'camera') === 'camera')
  );
}

/** Stages one point per enforcement relation whose camera position the file holds (inside the bbox if given). */
export function stageEnforcementCameras(
  relations: readonly KeptEnforcement[],
  memberNodes: ReadonlyMap<number, readonly [number, number]>,
  stage: FeatureStage,
  bbox?: readonly [number, number, number, number],
): void {
  const layer = FEATURE_LAYERS.indexOf('traffic_camera');
  for (const relation of relations) {
    const node = relation.positionNodes.find((id) => memberNodes.has(id));
    if (node === undefined) continue;
    const [lon, lat] = memberNodes.get(node)!;
    if (bbox && !(lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3])) continue;
    stage.addPoint(layer, SourceKind.relation, relation.id, lon, lat, stage.stageKeptTags(relation.tags, 'type'));
  }
}
