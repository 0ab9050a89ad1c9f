import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { overlayVectorTileTask } from '../../solvers/tiles/overlay-tile.js';
import type { SolverPool } from '../../solvers/solver-pool.js';
import type { TrafficService } from '../traffic/traffic-service.js';
import { MapOverlays } from './map-overlays.js';
import type { PackOverlays } from './pack-overlays.js';

const SEGMENT = 'w1:10-11';
const SHAPE: [number, number][] = [
  [31.33, 30.06],
  [31.331, 30.061],
];

/** A pack with one road segment and no point layers. */
const pack = { features: () => [], segmentShape: (key: string) => (key === SEGMENT ? SHAPE : undefined) } as unknown as PackOverlays;
const solvers = { run: async (_name: string, input: Parameters<typeof overlayVectorTileTask>[0]) => overlayVectorTileTask(input) } as unknown as Pick<SolverPool, 'run'>;

function label(segmentKey: string, congestion: string, simulated: boolean) {
  return { segmentKey, label: 'Heavy', congestion, speedRatio: 0.4, profileType: 'weekday', reason: '', sampleCount: 12, lat: 30.0605, lng: 31.3305, simulated };
}

function trafficWith(labels: ReturnType<typeof label>[]) {
  return {
    labels: async () => ({ provider: 'svc-traffic-model', count: labels.length, at: '', truncated: false, labels, attribution: '' }),
    status: async () => ({ profiles: { rows: labels.length } }),
  } as unknown as Pick<TrafficService, 'labels' | 'status'>;
}

describe('MapOverlays traffic', () => {
  it('draws each learned label on its segment shape, coloured by congestion, and says when trips were simulated', async () => {
    const overlays = new MapOverlays({ pack, solvers, traffic: trafficWith([label(SEGMENT, 'heavy', false), label('w2:1-2', 'light', true)]) });
    const { features, metadata } = await overlays.collection('traffic', { bbox: '31.3,30.0,31.4,30.1' });
    expect(metadata).toMatchObject({ layerType: 'traffic', hasData: true, simulated: true, count: 2 });
    const [onShape, unplaced] = features;
    expect(onShape!.geometry).toEqual({ type: 'LineString', coordinates: SHAPE });
    expect(onShape!.properties).toMatchObject({ id: SEGMENT, layerType: 'traffic', congestion: 'heavy' });
    // a segment the loaded pack does not hold stays a point where the label is
    expect(unplaced!.geometry).toEqual({ type: 'Point', coordinates: [31.3305, 30.0605] });
    expect(onShape!.properties.color).not.toBe(unplaced!.properties.color);
    expect((await overlays.hasData()).traffic).toBe(true);
  });

  it('without learned traffic: hasData false, and a traffic request without bbox is an empty answer', async () => {
    const overlays = new MapOverlays({ pack, solvers, traffic: trafficWith([]) });
    expect((await overlays.hasData()).traffic).toBe(false);
    const { features, metadata } = await overlays.collection('traffic', {});
    expect(features).toEqual([]);
    expect(metadata.error).toContain('bbox');
  });

  it('a vector tile holds the segment in layer svc with its properties, nulls left out', async () => {
    const overlays = new MapOverlays({ pack, solvers, traffic: trafficWith([label(SEGMENT, 'severe', false)]) });
    const z = 16;
    const n = 2 ** z;
    const x = Math.floor(((SHAPE[0]![0] + 180) / 360) * n);
    const rad = (SHAPE[0]![1] * Math.PI) / 180;
    const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
    const tile = await overlays.vectorTile('traffic', String(z), String(x), String(y));
    expect(tile.count).toBe(1);
    const decoded = new VectorTile(new PbfReader(tile.bytes));
    const feature = decoded.layers.svc!.feature(0);
    expect(feature.properties).toMatchObject({ id: SEGMENT, layerType: 'traffic', congestion: 'severe', simulated: false });
    expect(feature.type).toBe(2);
  });
});
