/**
 * The ingest on every shipped OSM extract (PBF, XML, gzip XML), asserting on
 * real features looked up in the source data (ids and tags quoted from the
 * files), the graph's connectivity and the binary layout's round trip.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapPack } from '../src/datapack/map-pack.js';
import { writePackFile } from '../src/datapack/pack-file.js';
import { EdgeFlag, NO_INDEX, PACK_SECTIONS, TransitStopRole, TravelMode, type SectionName } from '../src/datapack/pack-layout.js';
import { buildPack, ingestToFile, type BuiltPack } from '../src/ingest/ingest.js';
import { SolverPool } from '../src/solvers/solver-pool.js';
import { writeTiledExtract } from '../bench/tiled-extract.js';
import { JORDAN_ADMIN, OSM_FILES } from './support/osm-data.js';

const workDir = mkdtempSync(join(tmpdir(), 'pack-test-'));
const packs: Record<string, MapPack> = {};
const built: Record<string, BuiltPack> = {};

beforeAll(async () => {
  for (const [name, input] of Object.entries(OSM_FILES)) {
    const result = await ingestToFile({ input }, join(workDir, `${name}.svcpack`));
    expect(result.bytes).toBeGreaterThan(0);
    packs[name] = MapPack.load(join(workDir, `${name}.svcpack`));
  }
  built.nasrCityPbf = await buildPack({ input: OSM_FILES.nasrCityPbf });
}, 120_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Edges of one OSM way, with their access and flags. */
function edgesOfWay(pack: MapPack, osmWayId: number): { edge: number; access: number; flags: number; reversed: boolean }[] {
  const s = pack.sections;
  const row = s['ways.osmId'].indexOf(osmWayId);
  expect(row, `way ${osmWayId} is in the road table`).toBeGreaterThanOrEqual(0);
  const edges = [];
  for (let edge = 0; edge < pack.edgeCount; edge++) {
    if (s['graph.edgeWay'][edge] !== row) continue;
    edges.push({ edge, access: s['graph.edgeAccess'][edge]!, flags: s['graph.edgeFlags'][edge]!, reversed: (s['graph.edgeFlags'][edge]! & EdgeFlag.reversed) !== 0 });
  }
  return edges;
}

describe('Nasr City (the embedded default)', () => {
  it('keeps every highway way with its Arabic and English names (شارع الطيران / Al Tayaran Street, way 24958252)', () => {
    const pack = packs.nasrCityPbf!;
    expect(pack.header.counts.ways).toBe(860); // the README: 860 highway ways
    const s = pack.sections;
    const row = s['ways.osmId'].indexOf(24958252);
    expect(pack.strings.get(s['ways.name'][row]!)).toBe('شارع الطيران');
    expect(pack.strings.get(s['ways.nameAr'][row]!)).toBe('شارع الطيران');
    expect(pack.strings.get(s['ways.nameEn'][row]!)).toBe('Al Tayaran Street');
    expect(pack.strings.get(s['ways.destination'][row]!)).toBe('طريق النصر');
  });

  it('keeps a road\'s alternative names (way 894550195, شارع الطيران, alt_name شارع الشهيد هشام بركات)', () => {
    const pack = packs.nasrCityPbf!;
    const s = pack.sections;
    const row = s['ways.osmId'].indexOf(894550195);
    expect(row).toBeGreaterThanOrEqual(0);
    expect(pack.strings.get(s['ways.altNames'][row]!).split(';')).toEqual(['شارع الشهيد هشام بركات', 'Al Shahid Hesham Barakat Street']);
    // and none for a road tagged with no alternative name (the roundabout, way 947628159)
    expect(s['ways.altNames'][s['ways.osmId'].indexOf(947628159)]).toBe(0);
  });

  it('makes Al Tayaran Street (oneway=yes, secondary) one-way for cars and two-way for pedestrians', () => {
    const edges = edgesOfWay(packs.nasrCityPbf!, 24958252);
    const forward = edges.filter((edge) => !edge.reversed);
    const backward = edges.filter((edge) => edge.reversed);
    expect(forward.length).toBeGreaterThan(0);
    expect(forward.every((edge) => edge.access & TravelMode.car)).toBe(true);
    expect(backward.length).toBe(forward.length);
    expect(backward.every((edge) => !(edge.access & TravelMode.car) && edge.access & TravelMode.foot)).toBe(true);
  });

  it('flags the roundabout (way 947628159, junction=roundabout) and drives it one way', () => {
    const edges = edgesOfWay(packs.nasrCityPbf!, 947628159);
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.every((edge) => edge.flags & EdgeFlag.roundabout)).toBe(true);
    expect(edges.filter((edge) => edge.access & TravelMode.car).every((edge) => !edge.reversed)).toBe(true);
  });

  it('closes the Hesham Barakat bridge (way 656524350, foot=no) to pedestrians', () => {
    const edges = edgesOfWay(packs.nasrCityPbf!, 656524350);
    expect(edges.length).toBeGreaterThan(0);
    expect(edges.some((edge) => edge.access & TravelMode.foot)).toBe(false);
    expect(edges.some((edge) => edge.access & TravelMode.car)).toBe(true);
  });

  it('keeps POIs with opening hours and both names (Sandy pharmacy, node 442337967, 24/7)', () => {
    const pack = packs.nasrCityPbf!;
    const [pharmacy] = pack.findFeatures('poi', (_, feature) => pack.sections['features.osmId'][feature] === 442337967);
    expect(pharmacy).toBeDefined();
    expect(pack.featureTags(pharmacy!)).toMatchObject({ amenity: 'pharmacy', 'name:ar': 'صيدلية ساندي', 'name:en': 'Sandy pharmacy', opening_hours: '24/7' });
    const [lon, lat] = pack.featurePosition(pharmacy!);
    const [west, south, east, north] = pack.header.bbox!;
    expect(lon).toBeGreaterThan(west);
    expect(lon).toBeLessThan(east);
    expect(lat).toBeGreaterThan(south);
    expect(lat).toBeLessThan(north);
  });

  it('keeps named places and buildings for geocoding and tiles', () => {
    const pack = packs.nasrCityPbf!;
    expect(pack.findFeatures('place', (tags) => tags['name:en'] === 'Hisham Barakat Square' && tags.name === 'ميدان هشام بركات')).toHaveLength(1);
    expect(pack.header.counts.building).toBeGreaterThan(1000);
    expect(pack.header.counts.address).toBeGreaterThan(100);
  });

  it('gives the same pack from the PBF and from the gzip-compressed XML export of the same data', () => {
    const pbf = packs.nasrCityPbf!;
    const xml = packs.nasrCityXmlGz!;
    for (const name of Object.keys(PACK_SECTIONS) as SectionName[]) {
      expect(Array.from(xml.sections[name]), name).toEqual(Array.from(pbf.sections[name]));
    }
    expect(xml.header.counts).toEqual(pbf.header.counts);
  });
});

describe('every shipped extract', () => {
  it.each(Object.keys(OSM_FILES))('%s forms one main connected road network (≥ 95 %% of graph nodes)', (name) => {
    const pack = packs[name]!;
    expect(pack.nodeCount).toBeGreaterThan(500);
    expect(pack.header.stats.largestComponentShare).toBeGreaterThanOrEqual(0.95);
    expect(pack.header.attribution).toContain('OpenStreetMap contributors');
  });

  it.each(Object.keys(OSM_FILES))('%s has a consistent CSR graph (edges grouped by source, twins mirrored, shapes joining the nodes)', (name) => {
    const pack = packs[name]!;
    const s = pack.sections;
    expect(s['graph.firstEdge'][pack.nodeCount]).toBe(pack.edgeCount);
    for (let node = 0; node < pack.nodeCount; node++) {
      for (let edge = s['graph.firstEdge'][node]!; edge < s['graph.firstEdge'][node + 1]!; edge++) {
        if (s['graph.edgeSource'][edge] !== node) throw new Error(`edge ${edge} is listed under node ${node} but starts at ${s['graph.edgeSource'][edge]}`);
      }
    }
    for (let edge = 0; edge < pack.edgeCount; edge++) {
      const twin = s['graph.edgeTwin'][edge]!;
      if (twin !== NO_INDEX) {
        expect(s['graph.edgeTwin'][twin]).toBe(edge);
        expect(s['graph.edgeSource'][twin]).toBe(s['graph.edgeTarget'][edge]);
      }
      const shape = pack.edgeShape(edge);
      expect(shape[0]).toEqual(pack.nodePosition(s['graph.edgeSource'][edge]!));
      expect(shape[shape.length - 1]).toEqual(pack.nodePosition(s['graph.edgeTarget'][edge]!));
    }
  });
});

describe('turn restrictions', () => {
  it('resolves Monaco relation 3410831 (only_*: from way 92627431 via node 273244852 to way 254596488) to edges meeting at the via node', () => {
    const pack = packs.monaco!;
    const s = pack.sections;
    const index = s['restrictions.osmId'].indexOf(3410831);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(s['restrictions.kind'][index]).toBe(1);
    const from = s['restrictions.fromEdge'][index]!;
    const to = s['restrictions.toEdge'][index]!;
    const via = s['restrictions.viaNode'][index]!;
    expect(s['graph.nodeOsmId'][via]).toBe(273244852);
    expect(s['ways.osmId'][s['graph.edgeWay'][from]!]).toBe(92627431);
    expect(s['ways.osmId'][s['graph.edgeWay'][to]!]).toBe(254596488);
    expect(s['graph.edgeTarget'][from]).toBe(via);
    expect(s['graph.edgeSource'][to]).toBe(via);
    expect(pack.header.counts.restrictions).toBeGreaterThanOrEqual(20);
  });
});

describe('An-Nabk (OSM XML input, Arabic-only names)', () => {
  it('keeps the town with its Arabic name and roads named only in Arabic', () => {
    const pack = packs.anNabkXml!;
    expect(pack.findFeatures('place', (tags) => tags.name === 'النبك' && tags['name:en'] === 'An-Nabk')).toHaveLength(1);
    const s = pack.sections;
    let arabicOnly = 0;
    for (let way = 0; way < s['ways.name'].length; way++) {
      if (s['ways.name'][way] && !s['ways.nameEn'][way] && /[\u0600-\u06FF]/.test(pack.strings.get(s['ways.name'][way]!))) arabicOnly++;
    }
    expect(arabicOnly).toBeGreaterThan(0);
  });
});

describe('the binary layout', () => {
  it('round-trips: what is read back equals what was built, section by section', () => {
    const pack = packs.nasrCityPbf!;
    for (const name of Object.keys(PACK_SECTIONS) as SectionName[]) {
      const original = built.nasrCityPbf!.sections[name];
      // the feature sections are built as chunks (one per layer), written one after the other
      const chunks: readonly ArrayBufferView[] = ArrayBuffer.isView(original) ? [original] : original;
      const read = pack.sections[name];
      for (const chunk of chunks) expect(read.constructor, name).toBe(chunk.constructor);
      const originalBytes = Buffer.concat(chunks.map((chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)));
      expect(Buffer.from(read.buffer, read.byteOffset, read.byteLength).equals(originalBytes), name).toBe(true);
    }
    expect(pack.header.counts).toEqual(built.nasrCityPbf!.header.counts);
    expect(pack.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('is read by worker threads over the same shared memory', async () => {
    const pack = packs.monaco!;
    const pool = new SolverPool({ threads: 1, shared: { mapPack: pack.buffer as SharedArrayBuffer } });
    try {
      const summary = await pool.run('mapPackSummary', undefined);
      expect(summary).toEqual({ ok: true, value: { source: 'osrm_monaco.osm.pbf', nodes: pack.nodeCount, edges: pack.edgeCount, features: pack.featureCount } });
    } finally {
      await pool.close();
    }
  });

  it('leaves only finished packs in the output directory', () => {
    expect(readdirSync(workDir).filter((file) => !file.endsWith('.svcpack'))).toEqual([]);
  });
});

describe('public transport route relations (format 5)', () => {
  const routeFeature = (pack: MapPack, relationId: number) => {
    const [start, end] = pack.layerRange('transit_route');
    for (let feature = start; feature < end; feature++) if (pack.sections['features.osmId'][feature] === relationId) return { feature, position: feature - start };
    throw new Error(`relation ${relationId} is not in the transit_route layer`);
  };
  const stopsOf = (pack: MapPack, position: number) => {
    const s = pack.sections;
    const start = s['transitRoutes.stopStart'][position]!;
    return Array.from(s['transitRouteStops.osmId'].subarray(start, start + s['transitRoutes.stopCount'][position]!));
  };

  it('keeps Monaco\'s 10 bus and 6 train relations and none of its road, hiking, bicycle or ferry routes', () => {
    const pack = packs.monaco!;
    const [start, end] = pack.layerRange('transit_route');
    const kinds = new Map<string, number>();
    for (let feature = start; feature < end; feature++) kinds.set(pack.featureTags(feature).route!, (kinds.get(pack.featureTags(feature).route!) ?? 0) + 1);
    expect(Object.fromEntries(kinds)).toEqual({ bus: 10, train: 6 });
    expect(pack.sections['transitRoutes.stopStart'].length).toBe(16);
  });

  it('keeps relation 2207095 (Bus 1: Monaco-Ville => Saint-Roman): its tags, its ways as lines, its 11 PTv1 stops in member order', () => {
    const pack = packs.monaco!;
    const { feature, position } = routeFeature(pack, 2207095);
    expect(pack.featureTags(feature)).toMatchObject({ route: 'bus', ref: '1', name: 'Bus 1: Monaco-Ville => Saint-Roman' });
    const geometry = pack.featureGeometry(feature);
    expect(geometry.kind).toBe('line');
    // its first member way, 165636031 (25 nodes), starts the first line
    expect(geometry.parts[0]!.coordinates.length).toBeGreaterThanOrEqual(25);
    const stops = stopsOf(pack, position);
    expect(stops).toHaveLength(11);
    const s = pack.sections;
    expect(Array.from(s['transitRouteStops.role'].subarray(s['transitRoutes.stopStart'][position]!, s['transitRoutes.stopStart'][position]! + 11)).every((role) => role === TransitStopRole.unspecified)).toBe(true);
    // every stop is a transit_stop feature of the pack (an untagged PTv1 stop would be made one)
    const stopNodes = new Set(pack.findFeatures('transit_stop', () => true).filter((f) => s['features.sourceKind'][f] === 0).map((f) => s['features.osmId'][f]!));
    for (const stop of stops) expect(stopNodes.has(stop), `node ${stop}`).toBe(true);
  });

  it('keeps TER 4 (relation 1057560, colour #f2b600) with its stop members that lie in the extract', () => {
    const pack = packs.monaco!;
    const { feature, position } = routeFeature(pack, 1057560);
    expect(pack.featureTags(feature)).toMatchObject({ route: 'train', ref: 'TER 4', colour: '#f2b600' });
    const names = stopsOf(pack, position).map((id) => pack.findFeatures('transit_stop', (_tags, f) => pack.sections['features.osmId'][f] === id).map((f) => pack.featureTags(f).name)[0]);
    expect(names).toContain('Monaco - Monte Carlo');
  });

  it('finds none where the extract has none (Nasr City, An-Nabk, Andorra: hiking routes only)', () => {
    for (const name of ['nasrCityPbf', 'anNabkXml', 'andorra'] as const) expect(packs[name]!.header.counts.transit_route, name).toBe(0);
  });
});

describe('enforcement cameras (format 6)', () => {
  it('places Monaco\'s 3 type=enforcement relations at their device node, with enforcement and maxspeed, and the device not twice', () => {
    const pack = packs.monaco!;
    const s = pack.sections;
    const cameras = pack.findFeatures('traffic_camera', () => true);
    const relations = cameras.filter((f) => s['features.sourceKind'][f] === 2);
    expect(relations.map((f) => s['features.osmId'][f]).sort()).toEqual([1708749, 2256950, 2256952]);
    const moyenneCorniche = relations.find((f) => s['features.osmId'][f] === 1708749)!;
    expect(pack.featureTags(moyenneCorniche)).toMatchObject({ enforcement: 'maxspeed', maxspeed: '70', ref: 'D6007' });
    // relation 1708749's device is node 1396032586 (highway=speed_camera): same position, not a second camera
    const device = pack.findFeatures('speed_camera', (_tags, f) => s['features.osmId'][f] === 1396032586)[0]!;
    expect(pack.featurePosition(moyenneCorniche)).toEqual(pack.featurePosition(device));
    expect(cameras.some((f) => s['features.sourceKind'][f] === 0 && s['features.osmId'][f] === 1396032586)).toBe(false);
    // and the red-light cameras tagged on their own node (enforcement=traffic_signals)
    const nodes = cameras.filter((f) => s['features.sourceKind'][f] === 0);
    expect(nodes.map((f) => pack.featureTags(f).enforcement)).toEqual(['traffic_signals', 'traffic_signals']);
  });

  it('keeps Andorra\'s 7 highway=speed_camera nodes (no enforcement relation there)', () => {
    const pack = packs.andorra!;
    expect(pack.header.counts.traffic_camera).toBe(7);
    expect(pack.findFeatures('traffic_camera', (tags) => tags.highway === 'speed_camera')).toHaveLength(7);
  });
});

describe('inputs beyond OSM', () => {
  it('adds Jordan governorates, districts and sub-districts with levels from their nesting', async () => {
    const result = await buildPack({ input: OSM_FILES.anNabkXml, admin: JORDAN_ADMIN.map((path) => ({ path, level: undefined })) });
    const pack = new MapPack(packBuffer(result));
    const levels: Record<string, number> = {};
    const areas = pack.findFeatures('admin_area', (tags, feature) => pack.sections['features.sourceKind'][feature] === 3);
    for (const feature of areas) {
      const level = pack.featureTags(feature).admin_level!;
      levels[level] = (levels[level] ?? 0) + 1;
    }
    expect(levels).toEqual({ '4': 12, '5': 51, '6': 89 });
    const [balqa] = pack.findFeatures('admin_area', (tags) => tags['name:en'] === 'Balqa' && tags.admin_level === '4');
    expect(pack.featureTags(balqa!)).toMatchObject({ name: 'البلقاء', 'name:ar': 'البلقاء', wikidata: 'Q721431' });
    expect(pack.header.adminSources.map((source) => source.name)).toEqual(['gov.geojson', 'dis.geojson', 'subdis.geojson']);
  });

  it('cuts to a bbox: only nodes of ways touching it, only point features inside it', async () => {
    const bbox: [number, number, number, number] = [7.415, 43.728, 7.425, 43.735];
    const result = await buildPack({ input: OSM_FILES.monaco, bbox });
    const pack = new MapPack(packBuffer(result));
    const full = packs.monaco!;
    expect(pack.nodeCount).toBeGreaterThan(50);
    expect(pack.nodeCount).toBeLessThan(full.nodeCount / 2);
    const [start, end] = pack.layerRange('poi');
    expect(end - start).toBeGreaterThan(0);
    for (let feature = start; feature < end; feature++) {
      const [lon, lat] = pack.featurePosition(feature);
      expect(lon >= bbox[0] && lon <= bbox[2] && lat >= bbox[1] && lat <= bbox[3]).toBe(true);
    }
  });
});

describe('a larger file: the ingest bench\'s tiled extract', () => {
  it('ingests 2 side-by-side copies of Monaco (ids moved past the originals, relations and restrictions included) into 2× its graph and features', async () => {
    const tiled = join(workDir, 'monaco-x2.osm.pbf');
    const entities = await writeTiledExtract(OSM_FILES.monaco, 2, tiled);
    const result = await buildPack({ input: tiled });
    const original = packs.monaco!;
    const header = original.header;
    expect(entities).toBe(2 * (header.stats.inputNodes! + header.stats.inputWays! + header.stats.inputRelations!));
    expect(result.entities).toBe(entities);
    expect(result.header.stats.inputRelations).toBe(2 * header.stats.inputRelations!);
    // ids that collided between copies would merge nodes, ways and relation rings: every count is exactly doubled
    for (const count of ['nodes', 'edges', 'shapePoints', 'ways', 'restrictions', 'features', 'admin_area', 'building'] as const) {
      expect(result.header.counts[count], count).toBe(2 * header.counts[count]!);
    }
    // the same names: the string table does not grow with copies
    expect(result.header.counts.strings).toBe(header.counts.strings);
    // the second copy's nodes lie past every original id, 0.25° further east
    const pack = new MapPack(packBuffer(result));
    const originalMax = Math.max(...original.sections['graph.nodeOsmId']);
    const moved = pack.sections['graph.nodeOsmId'].filter((id) => id > originalMax);
    expect(moved.length).toBe(original.nodeCount);
    expect(result.header.bbox![2] - header.bbox![2]).toBeCloseTo(0.25, 6);
  }, 60_000);
});

let extraPacks = 0;
/** Writes a pack built in a test to the work directory and loads it back. */
function packBuffer(result: BuiltPack): SharedArrayBuffer {
  const path = join(workDir, `extra-${extraPacks++}.svcpack`);
  writePackFile(path, result.header, result.sections);
  return MapPack.load(path).buffer as SharedArrayBuffer;
}
