/**
 * The whole ingest: OSM file (+ admin GeoJSON) → map data pack on disk.
 * `buildPack` returns the sections in memory; `ingestToFile` writes them
 * atomically. Used by the CLI and by the server's first-start build.
 */
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  COORDINATE_SCALE,
  EdgeFlag,
  FEATURE_LAYERS,
  NodeFlag,
  PACK_ATTRIBUTION,
  PACK_FORMAT_VERSION,
  ROAD_CLASSES,
  TransitStopRole,
  TravelMode,
  type PackHeader,
  type PackSectionChunks,
} from '../datapack/pack-layout.js';
import { writePackFile } from '../datapack/pack-file.js';
import { connectedComponents } from '../solvers/graph/components.js';
import { loadAdminAreas } from './admin-areas.js';
import { buildFeatures } from './feature-builder.js';
import { FeatureStage } from './feature-stage.js';
import { buildGraph, type BuiltGraph } from './graph-builder.js';
import { IngestError } from './ingest-error.js';
import { collectOsm, type Bbox } from './osm-collector.js';
import { openOsmSource } from './osm/osm-source.js';
import { silentProgress, type IngestProgress } from './progress.js';
import { StringTableBuilder } from './string-table-builder.js';

export interface IngestOptions {
  input: string;
  bbox?: Bbox;
  admin?: { path: string; level: number | undefined }[];
  progress?: IngestProgress;
}

export interface BuiltPack {
  header: Omit<PackHeader, 'sections'>;
  /** The feature sections come as chunks (one per layer): see feature-sections.ts. */
  sections: PackSectionChunks;
  /** Input entities read (nodes + ways + relations), for the entities/s figure. */
  entities: number;
}

/**
 * The file's SHA-256, read through one reused 256 KiB buffer: a read stream's
 * fresh chunk per read left a country file's size (26 MiB for 26.6 MB) of new
 * memory to fault in and free again before the first pass began.
 */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(1 << 18);
  const file = await open(path, 'r');
  try {
    for (;;) {
      const { bytesRead } = await file.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

export async function buildPack(options: IngestOptions): Promise<BuiltPack> {
  const progress = options.progress ?? silentProgress;
  if (options.bbox) validateBbox(options.bbox);
  const admin = await loadAdminAreas(options.admin ?? []);
  const source = openOsmSource(options.input);
  // road names get their string ids in the ways pass (road order), feature tags at the end (pack order)
  const strings = new StringTableBuilder();
  const stage = new FeatureStage();
  let collected;
  let sha256;
  try {
    // hashed first, while nothing is kept yet: its read buffers then do not add to the peak memory at the end
    sha256 = await fileSha256(options.input);
    collected = await collectOsm(source, { ...(options.bbox ? { bbox: options.bbox } : {}), progress, strings, features: stage });
  } finally {
    source.close();
  }
  progress.phase('building graph and features', 0);
  const graph = buildGraph(collected);
  const features = buildFeatures(collected, stage, admin.areas, strings, options.bbox);
  if (graph.edgeSource.length === 0 && features.count === 0) {
    throw new IngestError(
      'empty_selection',
      options.bbox
        ? `the bbox ${options.bbox.join(',')} selects nothing from ${options.input} (no roads, areas or points of interest inside it)`
        : `${options.input} holds no roads, areas or points of interest`,
    );
  }
  const table = strings.build();

  const any = connectedComponents(graph.nodeLat.length, graph.edgeSource, graph.edgeTarget);
  const carNodes = new Uint8Array(graph.nodeLat.length);
  for (let edge = 0; edge < graph.edgeSource.length; edge++) {
    if (graph.edgeAccess[edge]! & TravelMode.car) carNodes[graph.edgeSource[edge]!] = carNodes[graph.edgeTarget[edge]!] = 1;
  }
  const car = connectedComponents(graph.nodeLat.length, graph.edgeSource, graph.edgeTarget, (edge) => (graph.edgeAccess[edge]! & TravelMode.car) !== 0);
  const carNodeCount = carNodes.reduce((sum, value) => sum + value, 0);

  const sections: PackSectionChunks = {
    'graph.nodeLat': graph.nodeLat,
    'graph.nodeLon': graph.nodeLon,
    'graph.nodeFlags': graph.nodeFlags,
    'graph.nodeBlockedModes': graph.nodeBlockedModes,
    'graph.nodeOsmId': graph.nodeOsmId,
    'graph.firstEdge': graph.firstEdge,
    'graph.edgeSource': graph.edgeSource,
    'graph.edgeTarget': graph.edgeTarget,
    'graph.edgeTwin': graph.edgeTwin,
    'graph.edgeWay': graph.edgeWay,
    'graph.edgeLength': graph.edgeLength,
    'graph.edgeSpeed': graph.edgeSpeed,
    'graph.edgeAccess': graph.edgeAccess,
    'graph.edgeFlags': graph.edgeFlags,
    'graph.edgeShapeStart': graph.edgeShapeStart,
    'graph.edgeShapeCount': graph.edgeShapeCount,
    'graph.shapeLat': graph.shapeLat,
    'graph.shapeLon': graph.shapeLon,
    'ways.osmId': graph.ways.osmId,
    'ways.class': graph.ways.class,
    'ways.name': graph.ways.name,
    'ways.nameAr': graph.ways.nameAr,
    'ways.nameEn': graph.ways.nameEn,
    'ways.ref': graph.ways.ref,
    'ways.altNames': graph.ways.altNames,
    'ways.destination': graph.ways.destination,
    'ways.surface': graph.ways.surface,
    'ways.maxspeed': graph.ways.maxspeed,
    'ways.lanesForward': graph.ways.lanesForward,
    'ways.lanesBackward': graph.ways.lanesBackward,
    'ways.turnLanesForward': graph.ways.turnLanesForward,
    'ways.turnLanesBackward': graph.ways.turnLanesBackward,
    'ways.maxWeight': graph.ways.maxWeight,
    'ways.maxHeight': graph.ways.maxHeight,
    'ways.maxWidth': graph.ways.maxWidth,
    'ways.maxLength': graph.ways.maxLength,
    'restrictions.osmId': graph.restrictions.osmId,
    'restrictions.kind': graph.restrictions.kind,
    'restrictions.modes': graph.restrictions.modes,
    'restrictions.fromEdge': graph.restrictions.fromEdge,
    'restrictions.toEdge': graph.restrictions.toEdge,
    'restrictions.viaNode': graph.restrictions.viaNode,
    'restrictions.viaStart': graph.restrictions.viaStart,
    'restrictions.viaCount': graph.restrictions.viaCount,
    'restrictions.viaEdges': graph.restrictions.viaEdges,
    ...features.sections,
    'transitRoutes.stopStart': features.transitRoutes.stopStart,
    'transitRoutes.stopCount': features.transitRoutes.stopCount,
    'transitRouteStops.osmId': features.transitRoutes.stopOsmId,
    'transitRouteStops.role': features.transitRoutes.stopRole,
    'transitRouteStops.lat': features.transitRoutes.stopLat,
    'transitRouteStops.lon': features.transitRoutes.stopLon,
    'strings.offsets': table.offsets,
    'strings.bytes': table.bytes,
  };

  const layerCounts = Object.fromEntries(FEATURE_LAYERS.map((layer) => [layer, features.layers[layer]?.[1] ?? 0]));
  const header: Omit<PackHeader, 'sections'> = {
    format: 'svc-map-pack',
    version: PACK_FORMAT_VERSION,
    createdAt: new Date().toISOString(),
    generator: 'svc-location-platform ingest',
    attribution: PACK_ATTRIBUTION,
    source: { name: basename(options.input), format: source.format, bytes: source.size, sha256 },
    adminSources: admin.sources,
    bbox: dataBbox(graph, features.osmBounds),
    selectionBbox: options.bbox ?? null,
    enums: { modes: TravelMode, roadClasses: ROAD_CLASSES, edgeFlags: EdgeFlag, nodeFlags: NodeFlag, layers: FEATURE_LAYERS, transitStopRoles: TransitStopRole },
    layers: features.layers,
    counts: {
      nodes: graph.nodeLat.length,
      edges: graph.edgeSource.length,
      shapePoints: graph.shapeLat.length,
      ways: graph.ways.osmId.length,
      restrictions: graph.restrictions.osmId.length,
      features: features.count,
      transitRouteStops: features.transitRoutes.stopOsmId.length,
      ...layerCounts,
      strings: table.offsets.length - 1,
    },
    stats: {
      inputNodes: collected.entities.nodes,
      inputWays: collected.entities.ways,
      inputRelations: collected.entities.relations,
      components: any.count,
      largestComponentShare: graph.nodeLat.length ? any.largestSize / graph.nodeLat.length : 0,
      carLargestComponentShare: carNodeCount ? Math.min(1, car.largestSize / carNodeCount) : 0,
      truckTaggedWays: graph.truckTaggedWays,
      unresolvedRestrictions: graph.restrictions.unresolved,
      skippedRestrictions: collected.skippedRestrictions,
      unclosedRelations: features.unclosedRelations,
    },
  };
  progress.done();
  return { header, sections, entities: collected.entities.nodes + collected.entities.ways + collected.entities.relations };
}

/** Builds the pack and writes it atomically to `output`; returns the header and the file size. */
export async function ingestToFile(options: IngestOptions, output: string): Promise<{ header: Omit<PackHeader, 'sections'>; bytes: number; entities: number }> {
  const built = await buildPack(options);
  const bytes = writePackFile(output, built.header, built.sections);
  return { header: built.header, bytes, entities: built.entities };
}

function validateBbox(bbox: Bbox): void {
  const [west, south, east, north] = bbox;
  if (![west, south, east, north].every(Number.isFinite) || west < -180 || east > 180 || south < -90 || north > 90 || west >= east || south >= north) {
    throw new IngestError('invalid_argument', `--bbox must be west,south,east,north with west < east and south < north in degrees; got ${bbox.join(',')}`);
  }
}

/** The bbox of the OSM data (graph nodes and OSM features; admin GeoJSON areas may reach far beyond it). */
function dataBbox(graph: BuiltGraph, osmFeatureBounds: [number, number, number, number] | null): [number, number, number, number] | null {
  let [west, south, east, north] = osmFeatureBounds ?? [Infinity, Infinity, -Infinity, -Infinity];
  const lat = graph.nodeLat;
  const lon = graph.nodeLon;
  for (let node = 0; node < lat.length; node++) {
    south = Math.min(south, lat[node]!);
    north = Math.max(north, lat[node]!);
    west = Math.min(west, lon[node]!);
    east = Math.max(east, lon[node]!);
  }
  if (!Number.isFinite(west)) return null;
  return [west / COORDINATE_SCALE, south / COORDINATE_SCALE, east / COORDINATE_SCALE, north / COORDINATE_SCALE];
}
