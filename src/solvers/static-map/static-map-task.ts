/**
 * The static map task run in the solver pool: one PNG drawn from the worker's tile source (the
 * features of our vector tiles) with a style's layers, then the caller's paths and markers, the
 * attribution and, without an API key, the watermark. Each style (with its label languages) is
 * compiled once per worker.
 */
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { MapPack } from '../../datapack/map-pack.js';
import { fail, ok, type NoMapPack, type TaskResult } from '../task-result.js';
import { tileSourceOf } from '../tiles/tile-tasks.js';
import { compileStyle, layerVisibleAt, type CompiledLayer, type CompiledStyle, type StyleLayerJson } from './compiled-style.js';
import { drawLabels } from './label-placer.js';
import { paintBackground, paintFeatureLayer } from './layer-painter.js';
import type { MapView } from './map-view.js';
import { drawAttribution, drawMarkers, drawPaths, drawWatermark, type StaticMarker, type StaticPath } from './overlays.js';
import { viewFeatures, type ViewFeature } from './view-features.js';

export interface StaticMapInput {
  /** Names the layers (style and label languages): a worker compiles each key once. */
  styleKey: string;
  layers: StyleLayerJson[];
  view: MapView;
  /** Device pixels per CSS pixel: the PNG is `view.width × scale` by `view.height × scale`. */
  scale: number;
  markers: StaticMarker[];
  paths: StaticPath[];
  attribution: string;
  /** Lines of the no-key notice; undefined with a key. */
  watermark: readonly string[] | undefined;
}

export interface StaticMapOutput {
  png: Uint8Array;
  /** Drawing time (features, layers, labels, overlays) and PNG encoding time, milliseconds. */
  drawMs: number;
  encodeMs: number;
  /** Features drawn by fill and line layers (a feature counts once per layer), labels placed. */
  drawnFeatures: number;
  labels: number;
  /** Layers of the style not drawn (raster imagery), with why. */
  skippedLayers: { id: string; reason: string }[];
}

/**
 * zlib level of the PNG: measured on a 600 × 400 map, level 3 encodes in about 12 ms and within 10 % of
 * level 6's size (18 ms); Skia's own encoder took 45–80 ms (docs/benchmarks.md, static maps).
 */
const PNG_COMPRESSION_LEVEL = 3;

/** Compiled styles a worker keeps (styles × label languages in use). */
const COMPILED_STYLES = 32;
const compiled = new Map<string, CompiledStyle>();

function compiledStyle(key: string, layers: readonly StyleLayerJson[]): CompiledStyle {
  let style = compiled.get(key);
  if (!style) {
    style = compileStyle(layers);
    if (compiled.size >= COMPILED_STYLES) compiled.delete(compiled.keys().next().value!);
    compiled.set(key, style);
  }
  return style;
}

export async function staticMapTask(pack: MapPack | undefined, input: StaticMapInput): Promise<TaskResult<StaticMapOutput, NoMapPack>> {
  if (!pack) return fail('no_map_pack');
  const started = performance.now();
  const { view, scale } = input;
  const style = compiledStyle(input.styleKey, input.layers);
  const canvas = createCanvas(Math.round(view.width * scale), Math.round(view.height * scale));
  const context = canvas.getContext('2d');
  context.scale(scale, scale);
  const features = viewFeatures(tileSourceOf(pack), view);
  const featuresOf = (layer: CompiledLayer): readonly ViewFeature[] => (layer.sourceLayer ? (features.get(layer.sourceLayer) ?? []) : []);
  const symbolLayers: { layer: CompiledLayer; features: readonly ViewFeature[] }[] = [];
  let drawnFeatures = 0;
  for (const layer of style.layers) {
    if (!layerVisibleAt(layer, view.zoom)) continue;
    if (layer.type === 'background') paintBackground(context, layer, view.zoom, view.width, view.height);
    else if (layer.type === 'symbol') symbolLayers.push({ layer, features: featuresOf(layer) });
    else drawnFeatures += paintFeatureLayer(context, layer, featuresOf(layer), view.zoom);
  }
  const labels = drawLabels(context, symbolLayers, view.zoom, view.width, view.height);
  drawPaths(context, view, input.paths);
  drawMarkers(context, view, input.markers);
  if (input.watermark) drawWatermark(context, input.watermark, view.width, view.height);
  drawAttribution(context, input.attribution, view.width, view.height);
  const drawn = performance.now();
  // an opaque image: Skia's premultiplied pixels are the plain ones; sharp (libvips) encodes off this thread
  const png = await sharp(canvas.data(), { raw: { width: canvas.width, height: canvas.height, channels: 4 } })
    .png({ compressionLevel: PNG_COMPRESSION_LEVEL, adaptiveFiltering: false })
    .toBuffer();
  return ok({
    png: new Uint8Array(png.buffer, png.byteOffset, png.byteLength),
    drawMs: drawn - started,
    encodeMs: performance.now() - drawn,
    drawnFeatures,
    labels: labels.placed,
    skippedLayers: style.skipped,
  });
}
