/**
 * The MapLibre style expressions our styles use, compiled once to closures: `get`, `has`, `!has`,
 * `literal`, `geometry-type`, `zoom`, `==`, `!=`, `<`, `<=`, `>`, `>=`, `!`, `all`, `any`, `case`,
 * `match`, `coalesce`, `to-string`, `to-number`, `step`, `interpolate` (linear, exponential). The
 * static map renderer runs in the solver workers, where the style-spec package (a development
 * dependency, 1 MB of evaluator) is not shipped; style-expressions.test.ts holds these closures to the
 * style-spec's own evaluation over every layer of every style. An operator outside the list throws
 * UnsupportedExpression when the layer is compiled, and the renderer skips that layer.
 */

/** What an expression reads: the zoom, the feature's fields and its geometry type. */
export interface EvaluationContext {
  zoom: number;
  properties: Readonly<Record<string, unknown>>;
  /** `Point`, `LineString`, `Polygon` or their Multi forms. */
  geometryType: string;
}

export type Evaluator = (context: EvaluationContext) => unknown;

export class UnsupportedExpression extends Error {}

const constant =
  (value: unknown): Evaluator =>
  () =>
    value;

/**
 * A property value or expression. An array is an expression when it starts with an operator name;
 * otherwise it is a value of an array property (a font stack, a dash array, an offset).
 */
export function compileValue(value: unknown): Evaluator {
  if (Array.isArray(value) && typeof value[0] === 'string' && OPERATORS.has(value[0])) return compileExpression(value);
  return constant(value);
}

const OPERATORS = new Set([
  'literal', 'get', 'has', '!has', 'geometry-type', 'zoom', '==', '!=', '<', '<=', '>', '>=', '!', 'all', 'any', 'case', 'match',
  'coalesce', 'to-string', 'to-number', 'step', 'interpolate',
  // known to the style specification though not to this renderer: compiling them says so
  'format', 'image', 'number-format', 'concat', 'let', 'var', 'feature-state', 'id', 'properties', 'at', 'in', 'index-of', 'length',
  'slice', 'upcase', 'downcase', 'to-boolean', 'to-color', 'rgb', 'rgba', 'interpolate-hcl', 'interpolate-lab', 'within', 'distance',
  'heatmap-density', 'line-progress', 'accumulated', 'global-state', 'resolved-locale', 'collator', 'typeof', 'string', 'number',
  'boolean', 'object', 'array', '+', '-', '*', '/', '%', '^', 'sqrt', 'log10', 'ln', 'log2', 'sin', 'cos', 'tan', 'asin', 'acos', 'atan',
  'min', 'max', 'round', 'abs', 'ceil', 'floor', 'e', 'pi', 'ln2', 'is-supported-script', 'sprite',
]);

export function compileExpression(expression: unknown): Evaluator {
  if (!Array.isArray(expression)) return constant(expression);
  const [operator, ...args] = expression as [unknown, ...unknown[]];
  switch (operator) {
    case 'literal':
      return constant(args[0]);
    case 'get': {
      const key = String(args[0]);
      return (context) => context.properties[key] ?? null;
    }
    case 'has': {
      const key = String(args[0]);
      return (context) => context.properties[key] !== undefined;
    }
    case '!has': {
      const key = String(args[0]);
      return (context) => context.properties[key] === undefined;
    }
    case 'geometry-type':
      return (context) => context.geometryType;
    case 'zoom':
      return (context) => context.zoom;
    case '==':
    case '!=': {
      const [left, right] = args.map(compileExpression) as [Evaluator, Evaluator];
      return operator === '==' ? (context) => left(context) === right(context) : (context) => left(context) !== right(context);
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const [left, right] = args.map(compileExpression) as [Evaluator, Evaluator];
      const compare = COMPARISONS[operator];
      return (context) => {
        const a = left(context);
        const b = right(context);
        // the style-spec refuses to order values of different types: in a filter that is false
        if (typeof a !== typeof b || (typeof a !== 'number' && typeof a !== 'string')) return false;
        return compare(a as number, b as number);
      };
    }
    case '!': {
      const inner = compileExpression(args[0]);
      return (context) => !inner(context);
    }
    case 'all': {
      const parts = args.map(compileExpression);
      return (context) => parts.every((part) => part(context) === true);
    }
    case 'any': {
      const parts = args.map(compileExpression);
      return (context) => parts.some((part) => part(context) === true);
    }
    case 'case': {
      const branches: [Evaluator, Evaluator][] = [];
      for (let at = 0; at + 1 < args.length; at += 2) branches.push([compileExpression(args[at]), compileExpression(args[at + 1])]);
      const otherwise = compileExpression(args[args.length - 1]);
      return (context) => {
        for (const [test, value] of branches) if (test(context) === true) return value(context);
        return otherwise(context);
      };
    }
    case 'match': {
      const input = compileExpression(args[0]);
      const table = new Map<unknown, Evaluator>();
      for (let at = 1; at + 1 < args.length; at += 2) {
        const labels = Array.isArray(args[at]) ? (args[at] as unknown[]) : [args[at]];
        const output = compileExpression(args[at + 1]);
        for (const label of labels) if (!table.has(label)) table.set(label, output);
      }
      const otherwise = compileExpression(args[args.length - 1]);
      return (context) => (table.get(input(context)) ?? otherwise)(context);
    }
    case 'coalesce': {
      const parts = args.map(compileExpression);
      return (context) => {
        for (const part of parts) {
          const value = part(context);
          if (value !== null && value !== undefined) return value;
        }
        return null;
      };
    }
    case 'to-string': {
      const inner = compileExpression(args[0]);
      return (context) => {
        const value = inner(context);
        return value === null || value === undefined ? '' : String(value);
      };
    }
    case 'to-number': {
      const parts = args.map(compileExpression);
      return (context) => {
        for (const part of parts) {
          const value = Number(part(context));
          if (Number.isFinite(value)) return value;
        }
        return 0;
      };
    }
    case 'step':
      return compileStep(args);
    case 'interpolate':
      return compileInterpolate(args);
    default:
      throw new UnsupportedExpression(`unsupported expression operator ${JSON.stringify(operator)}`);
  }
}

const COMPARISONS: Record<'<' | '<=' | '>' | '>=', (a: number, b: number) => boolean> = {
  '<': (a, b) => a < b,
  '<=': (a, b) => a <= b,
  '>': (a, b) => a > b,
  '>=': (a, b) => a >= b,
};

function compileStep(args: unknown[]): Evaluator {
  const input = compileExpression(args[0]);
  const first = compileExpression(args[1]);
  const stops: [number, Evaluator][] = [];
  for (let at = 2; at + 1 < args.length; at += 2) stops.push([Number(args[at]), compileExpression(args[at + 1])]);
  return (context) => {
    const value = Number(input(context));
    let output = first;
    for (const [stop, evaluator] of stops) if (value >= stop) output = evaluator;
    return output(context);
  };
}

function compileInterpolate(args: unknown[]): Evaluator {
  const kind = args[0] as unknown[];
  const base = kind[0] === 'linear' ? 1 : kind[0] === 'exponential' ? Number(kind[1]) : undefined;
  if (base === undefined) throw new UnsupportedExpression(`unsupported interpolation ${JSON.stringify(kind)}`);
  const input = compileExpression(args[1]);
  const stops: [number, Evaluator][] = [];
  for (let at = 2; at + 1 < args.length; at += 2) stops.push([Number(args[at]), compileExpression(args[at + 1])]);
  return (context) => {
    const value = Number(input(context));
    const first = stops[0]!;
    if (value <= first[0]) return first[1](context);
    for (let index = 1; index < stops.length; index++) {
      const [upper, upperValue] = stops[index]!;
      if (value > upper) continue;
      const [lower, lowerValue] = stops[index - 1]!;
      const t = interpolationFactor(value, lower, upper, base);
      const from = Number(lowerValue(context));
      const to = Number(upperValue(context));
      return from + (to - from) * t;
    }
    return stops[stops.length - 1]![1](context);
  };
}

/** The style-spec's interpolation factor: linear for base 1, else exponential of the given base. */
function interpolationFactor(value: number, lower: number, upper: number, base: number): number {
  const range = upper - lower;
  const progress = value - lower;
  if (range === 0) return 0;
  if (base === 1) return progress / range;
  return (base ** progress - 1) / (base ** range - 1);
}
