/**
 * A style's layers compiled once per worker for the static map renderer: the filter and every paint
 * and layout property as closures (style-expressions.ts). Layers the renderer cannot draw (raster
 * sources, which hold imagery fetched by browsers, and any layer using an expression outside the
 * supported set) are listed in `skipped` with the reason.
 */
import { compileExpression, compileValue, UnsupportedExpression, type EvaluationContext, type Evaluator } from './style-expressions.js';

/** A style-spec layer as the style document holds it. */
export type StyleLayerJson = { id: string; type: string } & Record<string, unknown>;

export type DrawnLayerType = 'background' | 'fill' | 'line' | 'fill-extrusion' | 'symbol';
const DRAWN_TYPES = new Set<string>(['background', 'fill', 'line', 'fill-extrusion', 'symbol']);

export interface CompiledLayer {
  id: string;
  type: DrawnLayerType;
  sourceLayer: string | undefined;
  minZoom: number;
  maxZoom: number;
  filter: Evaluator | undefined;
  paint: ReadonlyMap<string, Evaluator>;
  layout: ReadonlyMap<string, Evaluator>;
}

export interface CompiledStyle {
  layers: CompiledLayer[];
  skipped: { id: string; reason: string }[];
}

export function compileStyle(layers: readonly StyleLayerJson[]): CompiledStyle {
  const compiled: CompiledLayer[] = [];
  const skipped: CompiledStyle['skipped'] = [];
  for (const layer of layers) {
    if (!DRAWN_TYPES.has(layer.type)) {
      skipped.push({ id: layer.id, reason: `${layer.type} layers are not drawn` });
      continue;
    }
    if (layer.layout && (layer.layout as Record<string, unknown>).visibility === 'none') continue;
    try {
      compiled.push({
        id: layer.id,
        type: layer.type as DrawnLayerType,
        sourceLayer: typeof layer['source-layer'] === 'string' ? layer['source-layer'] : undefined,
        minZoom: typeof layer.minzoom === 'number' ? layer.minzoom : 0,
        maxZoom: typeof layer.maxzoom === 'number' ? layer.maxzoom : 24,
        filter: layer.filter === undefined ? undefined : compileExpression(layer.filter),
        paint: compileProperties(layer.paint),
        layout: compileProperties(layer.layout),
      });
    } catch (error) {
      if (!(error instanceof UnsupportedExpression)) throw error;
      skipped.push({ id: layer.id, reason: error.message });
    }
  }
  return { layers: compiled, skipped };
}

function compileProperties(value: unknown): Map<string, Evaluator> {
  const properties = new Map<string, Evaluator>();
  if (value && typeof value === 'object') for (const [name, property] of Object.entries(value)) properties.set(name, compileValue(property));
  return properties;
}

/** Whether the layer shows at a zoom (minzoom inclusive, maxzoom exclusive, as MapLibre). */
export function layerVisibleAt(layer: CompiledLayer, zoom: number): boolean {
  return zoom >= layer.minZoom && zoom < layer.maxZoom;
}

/** A property's value for a feature, or `fallback` when the layer does not set it or it evaluates to null. */
export function evaluate<T>(properties: ReadonlyMap<string, Evaluator>, name: string, context: EvaluationContext, fallback: T): T {
  const evaluator = properties.get(name);
  if (!evaluator) return fallback;
  const value = evaluator(context);
  return value === null || value === undefined ? fallback : (value as T);
}

/** A number property (a width, an opacity); a value that is not a finite number falls back. */
export function evaluateNumber(properties: ReadonlyMap<string, Evaluator>, name: string, context: EvaluationContext, fallback: number): number {
  const value = Number(evaluate<unknown>(properties, name, context, fallback));
  return Number.isFinite(value) ? value : fallback;
}
