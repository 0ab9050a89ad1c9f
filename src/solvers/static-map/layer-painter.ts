/**
 * Draws the style's background, fill, line and (flattened) fill-extrusion layers on a Skia canvas,
 * as MapLibre would at the view's zoom: colours, opacities and widths evaluated per feature, line
 * dashes in line widths, caps and joins from the layout, fill outlines one pixel wide.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { evaluate, evaluateNumber, type CompiledLayer } from './compiled-style.js';
import type { EvaluationContext } from './style-expressions.js';
import { featurePath, type ViewFeature } from './view-features.js';

const LINE_CAPS = new Set(['butt', 'round', 'square']);
const LINE_JOINS = new Set(['bevel', 'round', 'miter']);

export function paintBackground(context: SKRSContext2D, layer: CompiledLayer, zoom: number, width: number, height: number): void {
  const evaluation: EvaluationContext = { zoom, properties: {}, geometryType: 'Polygon' };
  context.globalAlpha = evaluateNumber(layer.paint, 'background-opacity', evaluation, 1);
  context.fillStyle = evaluate(layer.paint, 'background-color', evaluation, '#000000');
  context.fillRect(0, 0, width, height);
  context.globalAlpha = 1;
}

/** Draws the features the layer's filter keeps; answers how many. */
export function paintFeatureLayer(context: SKRSContext2D, layer: CompiledLayer, features: readonly ViewFeature[], zoom: number): number {
  let drawn = 0;
  for (const feature of features) {
    const evaluation: EvaluationContext = { zoom, properties: feature.properties, geometryType: feature.geometryType };
    if (layer.filter && layer.filter(evaluation) !== true) continue;
    const polygon = feature.geometryType === 'Polygon' || feature.geometryType === 'MultiPolygon';
    if (layer.type === 'line') {
      if (feature.geometryType === 'Point' || feature.geometryType === 'MultiPoint') continue;
      if (paintLine(context, layer, feature, evaluation)) drawn++;
    } else if (polygon && (layer.type === 'fill' || layer.type === 'fill-extrusion')) {
      if (paintFill(context, layer, feature, evaluation)) drawn++;
    }
  }
  context.globalAlpha = 1;
  context.setLineDash([]);
  return drawn;
}

function paintFill(context: SKRSContext2D, layer: CompiledLayer, feature: ViewFeature, evaluation: EvaluationContext): boolean {
  // a static image has no pitch: the 3d style's extrusions are drawn as their footprints
  const prefix = layer.type === 'fill-extrusion' ? 'fill-extrusion' : 'fill';
  const opacity = evaluateNumber(layer.paint, `${prefix}-opacity`, evaluation, 1);
  if (opacity <= 0) return false;
  const path = featurePath(feature);
  context.globalAlpha = Math.min(1, opacity);
  context.fillStyle = evaluate(layer.paint, `${prefix}-color`, evaluation, '#000000');
  context.fill(path, 'evenodd');
  const outline = prefix === 'fill' ? evaluate<string | undefined>(layer.paint, 'fill-outline-color', evaluation, undefined) : undefined;
  if (outline) {
    context.strokeStyle = outline;
    context.lineWidth = 1;
    context.setLineDash([]);
    context.stroke(path);
  }
  return true;
}

function paintLine(context: SKRSContext2D, layer: CompiledLayer, feature: ViewFeature, evaluation: EvaluationContext): boolean {
  const width = evaluateNumber(layer.paint, 'line-width', evaluation, 1);
  const opacity = evaluateNumber(layer.paint, 'line-opacity', evaluation, 1);
  if (width <= 0 || opacity <= 0) return false;
  context.globalAlpha = Math.min(1, opacity);
  context.strokeStyle = evaluate(layer.paint, 'line-color', evaluation, '#000000');
  context.lineWidth = width;
  const cap = evaluate(layer.layout, 'line-cap', evaluation, 'butt');
  const join = evaluate(layer.layout, 'line-join', evaluation, 'miter');
  context.lineCap = LINE_CAPS.has(cap) ? (cap as SKRSContext2D['lineCap']) : 'butt';
  context.lineJoin = LINE_JOINS.has(join) ? (join as SKRSContext2D['lineJoin']) : 'miter';
  const dashes = evaluate<unknown>(layer.paint, 'line-dasharray', evaluation, undefined);
  // MapLibre's dash lengths are in line widths
  context.setLineDash(Array.isArray(dashes) ? dashes.map((dash) => Math.max(0, Number(dash)) * Math.max(1, width)) : []);
  context.stroke(featurePath(feature));
  return true;
}
