/**
 * The style's symbol layers as text labels: point labels at their point (wrapped at `text-max-width`
 * ems, `text-anchor` top and `text-offset` honoured), line labels (`symbol-placement: line`) along the
 * longest straight run of their line, rotated to it and kept upright, or flat when
 * `text-rotation-alignment` is `viewport` (road shields). Placement follows MapLibre's order: the
 * topmost symbol layer first, and a label whose box meets one already placed is left out; every label
 * lies wholly inside the image. Text is drawn by Skia, which shapes Arabic (HarfBuzz) and orders
 * right-to-left runs, with a halo of the style's colour and width. Icons are not drawn.
 */
import type { SKRSContext2D } from '@napi-rs/canvas';
import { evaluate, evaluateNumber, type CompiledLayer } from './compiled-style.js';
import { canvasFont } from './label-fonts.js';
import type { EvaluationContext } from './style-expressions.js';
import type { ViewFeature } from './view-features.js';

/** Free space kept around every label, CSS pixels. */
const LABEL_PADDING_PX = 2;
/** Directions within this angle of a run's first segment continue the run (radians, about 20°). */
const RUN_BEND_RADIANS = 0.35;
const LINE_HEIGHT_EMS = 1.2;
/** Labels drawn in one image at most: a dense view stays fast and readable. */
const MAX_LABELS = 400;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

interface Label {
  layerIndex: number;
  /** Lower first within a layer. */
  order: number;
  lines: string[];
  font: string;
  sizePx: number;
  color: string;
  haloColor: string | undefined;
  haloWidthPx: number;
  x: number;
  y: number;
  angle: number;
  box: Box;
}

export interface LabelOutcome {
  candidates: number;
  placed: number;
}

/** Places and draws the labels of the symbol layers (`layers` in style order, each with its features). */
export function drawLabels(context: SKRSContext2D, layers: readonly { layer: CompiledLayer; features: readonly ViewFeature[] }[], zoom: number, width: number, height: number): LabelOutcome {
  const candidates: Label[] = [];
  layers.forEach(({ layer, features }, layerIndex) => {
    for (const feature of features) {
      const label = labelOf(context, layer, layerIndex, feature, zoom, width, height);
      if (label) candidates.push(label);
    }
  });
  // the topmost layer places first, as in MapLibre
  candidates.sort((a, b) => b.layerIndex - a.layerIndex || a.order - b.order);
  const placed: Label[] = [];
  for (const label of candidates) {
    if (placed.length >= MAX_LABELS) break;
    if (placed.some((other) => overlaps(other.box, label.box))) continue;
    placed.push(label);
  }
  placed.sort((a, b) => a.layerIndex - b.layerIndex);
  for (const label of placed) drawLabel(context, label);
  return { candidates: candidates.length, placed: placed.length };
}

function labelOf(context: SKRSContext2D, layer: CompiledLayer, layerIndex: number, feature: ViewFeature, zoom: number, width: number, height: number): Label | undefined {
  const evaluation: EvaluationContext = { zoom, properties: feature.properties, geometryType: feature.geometryType };
  if (layer.filter && layer.filter(evaluation) !== true) return undefined;
  let text = String(evaluate<unknown>(layer.layout, 'text-field', evaluation, '')).trim();
  if (!text) return undefined;
  if (evaluate<string>(layer.layout, 'text-transform', evaluation, 'none') === 'uppercase') text = text.toUpperCase();
  const sizePx = evaluateNumber(layer.layout, 'text-size', evaluation, 16);
  const font = canvasFont(evaluate<string[] | undefined>(layer.layout, 'text-font', evaluation, undefined), sizePx);
  context.font = font;
  const style = {
    font,
    sizePx,
    color: evaluate(layer.paint, 'text-color', evaluation, '#000000'),
    haloColor: evaluate<string | undefined>(layer.paint, 'text-halo-color', evaluation, undefined),
    haloWidthPx: evaluateNumber(layer.paint, 'text-halo-width', evaluation, 0),
    layerIndex,
  };
  const placement = evaluate<string>(layer.layout, 'symbol-placement', evaluation, 'point');
  let label: Label | undefined;
  if (placement === 'line' && feature.geometryType !== 'Point' && feature.geometryType !== 'MultiPoint') {
    const textWidth = context.measureText(text).width;
    const run = longestRun(feature.parts);
    if (!run || run.length < textWidth + 2 * LABEL_PADDING_PX) return undefined;
    const flat = evaluate<string>(layer.layout, 'text-rotation-alignment', evaluation, 'map') === 'viewport';
    const angle = flat ? 0 : run.angle;
    label = { ...style, order: -run.length, lines: [text], x: run.x, y: run.y, angle, box: rotatedBox(run.x, run.y, textWidth, sizePx * LINE_HEIGHT_EMS, angle) };
  } else if (feature.geometryType === 'Point' || feature.geometryType === 'MultiPoint') {
    const maxWidthPx = evaluateNumber(layer.layout, 'text-max-width', evaluation, 10) * sizePx;
    const lines = wrap(context, text, maxWidthPx);
    const textWidth = Math.max(...lines.map((line) => context.measureText(line).width));
    const textHeight = lines.length * sizePx * LINE_HEIGHT_EMS;
    const offset = evaluate<unknown>(layer.layout, 'text-offset', evaluation, [0, 0]);
    const [offsetX, offsetY] = Array.isArray(offset) ? offset.map((value) => Number(value) * sizePx) : [0, 0];
    const anchor = evaluate<string>(layer.layout, 'text-anchor', evaluation, 'center');
    const x = feature.parts[0]![0]! + (offsetX ?? 0);
    const y = feature.parts[0]![1]! + (offsetY ?? 0) + (anchor === 'top' ? textHeight / 2 : anchor === 'bottom' ? -textHeight / 2 : 0);
    const rank = Number(feature.properties.rank);
    label = { ...style, order: Number.isFinite(rank) ? rank : 0, lines, x, y, angle: 0, box: rotatedBox(x, y, textWidth, textHeight, 0) };
  }
  if (!label) return undefined;
  const { box } = label;
  return box.left >= 0 && box.top >= 0 && box.right <= width && box.bottom <= height ? label : undefined;
}

/** The longest run of nearly straight segments over the parts: its middle, direction (upright) and length. */
export function longestRun(parts: readonly Float64Array[]): { x: number; y: number; angle: number; length: number } | undefined {
  let best: { x: number; y: number; angle: number; length: number } | undefined;
  for (const part of parts) {
    const points = part.length / 2;
    let start = 0;
    while (start < points - 1) {
      const firstAngle = Math.atan2(part[start * 2 + 3]! - part[start * 2 + 1]!, part[start * 2 + 2]! - part[start * 2]!);
      let end = start + 1;
      while (end < points - 1) {
        const angle = Math.atan2(part[end * 2 + 3]! - part[end * 2 + 1]!, part[end * 2 + 2]! - part[end * 2]!);
        if (Math.abs(angleBetween(angle, firstAngle)) > RUN_BEND_RADIANS) break;
        end++;
      }
      const x0 = part[start * 2]!;
      const y0 = part[start * 2 + 1]!;
      const x1 = part[end * 2]!;
      const y1 = part[end * 2 + 1]!;
      const length = Math.hypot(x1 - x0, y1 - y0);
      if (!best || length > best.length) best = { x: (x0 + x1) / 2, y: (y0 + y1) / 2, angle: upright(Math.atan2(y1 - y0, x1 - x0)), length };
      start = end;
    }
  }
  return best;
}

function angleBetween(a: number, b: number): number {
  let difference = a - b;
  while (difference > Math.PI) difference -= 2 * Math.PI;
  while (difference < -Math.PI) difference += 2 * Math.PI;
  return difference;
}

/** Text never reads upside down: a direction pointing left is turned half a circle. */
function upright(angle: number): number {
  if (angle > Math.PI / 2) return angle - Math.PI;
  if (angle <= -Math.PI / 2) return angle + Math.PI;
  return angle;
}

function rotatedBox(x: number, y: number, width: number, height: number, angle: number): Box {
  const cos = Math.abs(Math.cos(angle));
  const sin = Math.abs(Math.sin(angle));
  const halfWidth = (width * cos + height * sin) / 2 + LABEL_PADDING_PX;
  const halfHeight = (width * sin + height * cos) / 2 + LABEL_PADDING_PX;
  return { left: x - halfWidth, top: y - halfHeight, right: x + halfWidth, bottom: y + halfHeight };
}

function overlaps(a: Box, b: Box): boolean {
  return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/** Words onto lines no wider than `maxWidthPx` (a single longer word keeps its own line). */
function wrap(context: SKRSContext2D, text: string, maxWidthPx: number): string[] {
  const words = text.split(/\s+/);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && context.measureText(candidate).width > maxWidthPx) {
      lines.push(line);
      line = word;
    } else {
      line = candidate;
    }
  }
  if (line) lines.push(line);
  return lines;
}

function drawLabel(context: SKRSContext2D, label: Label): void {
  context.save();
  context.translate(label.x, label.y);
  if (label.angle) context.rotate(label.angle);
  context.font = label.font;
  context.textAlign = 'center';
  context.textBaseline = 'middle';
  context.lineJoin = 'round';
  const lineHeight = label.sizePx * LINE_HEIGHT_EMS;
  const top = -((label.lines.length - 1) * lineHeight) / 2;
  label.lines.forEach((line, index) => {
    const y = top + index * lineHeight;
    if (label.haloColor && label.haloWidthPx > 0) {
      context.strokeStyle = label.haloColor;
      context.lineWidth = label.haloWidthPx * 2;
      context.strokeText(line, 0, y);
    }
    context.fillStyle = label.color;
    context.fillText(line, 0, y);
  });
  context.restore();
}
