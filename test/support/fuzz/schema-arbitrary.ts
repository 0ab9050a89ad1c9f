/**
 * fast-check arbitraries from the JSON Schemas of the served OpenAPI document, in two modes: `valid` values
 * that the schema accepts (so requests get past validation into the services) and `mutated` ones, where any
 * node may be replaced by a hostile value, pushed just past a bound, lose a required field or gain unknown
 * ones. Only the keywords the document uses are read (type, properties, required, additionalProperties,
 * items, prefixItems, enum, const, anyOf, oneOf, minimum/maximum and their exclusive forms, min/maxLength,
 * min/maxItems, pattern, format, propertyNames); anything else is generated as free JSON.
 */
import fc from 'fast-check';
import { hostileValue, PROTOTYPE_NAMES } from './hostile-values.js';

export type JsonSchema = boolean | { [keyword: string]: any };
export type Mode = 'valid' | 'mutated';

/** Values that fit known names better than the schema says: coordinates on the loaded map, real ids. */
export interface Hints {
  /** Existing resource ids (uuids) of the fuzzing user, tried for any uuid field. */
  ids: readonly string[];
  /** The same by resource (`organizations`, `projects`, `api-keys`, `saved-lists`, `sessions`, …). */
  byResource: Readonly<Record<string, readonly string[]>>;
}

/** Body fields that name a resource. */
const ID_FIELDS: Record<string, string> = {
  organizationid: 'organizations',
  projectid: 'projects',
  apikeyid: 'api-keys',
  listid: 'saved-lists',
  sessionid: 'sessions',
  fleetid: 'fleets',
  jobid: 'jobs',
  userid: 'users',
};

// The map loaded in tests: Nasr City, Cairo (test data pack). Valid coordinates there reach the engines.
const LAT = fc.double({ min: 30.03, max: 30.1, noNaN: true });
const LNG = fc.double({ min: 31.28, max: 31.38, noNaN: true });

export class SchemaArbitraries {
  private readonly cache = new Map<Mode, WeakMap<object, fc.Arbitrary<unknown>>>([
    ['valid', new WeakMap()],
    ['mutated', new WeakMap()],
  ]);

  constructor(private readonly hints: Hints) {}

  /** A value for `schema`; `name` is the property or parameter it fills (for hints). */
  of(schema: JsonSchema | undefined, mode: Mode, name = ''): fc.Arbitrary<unknown> {
    if (schema === undefined || schema === true) return fc.jsonValue({ maxDepth: 2 });
    if (schema === false) return fc.constant(null);
    const hinted = this.hinted(schema, name, mode);
    if (hinted) return hinted;
    const memo = this.cache.get(mode)!;
    let arbitrary = memo.get(schema);
    if (!arbitrary) {
      const structured = this.structured(schema, mode);
      arbitrary =
        mode === 'valid'
          ? structured
          : fc.oneof({ weight: 10, arbitrary: structured }, { weight: 2, arbitrary: this.boundary(schema) }, { weight: 2, arbitrary: hostileValue });
      memo.set(schema, arbitrary);
    }
    return arbitrary;
  }

  private hinted(schema: Record<string, any>, name: string, mode: Mode): fc.Arbitrary<unknown> | undefined {
    const types = typesOf(schema);
    const numeric = types.includes('number') || types.includes('integer');
    const text = types.includes('string');
    const lower = name.toLowerCase();
    const within = (arbitrary: fc.Arbitrary<unknown>) =>
      mode === 'valid' ? arbitrary : fc.oneof({ weight: 6, arbitrary }, { weight: 1, arbitrary: this.boundary(schema) }, { weight: 1, arbitrary: hostileValue });
    if (lower === 'lat' && (numeric || text)) return within(numeric ? LAT : LAT.map(String));
    if ((lower === 'lng' || lower === 'lon') && (numeric || text)) return within(numeric ? LNG : LNG.map(String));
    if (text && lower === 'email') return within(fc.oneof(fc.stringMatching(/^[a-z][a-z0-9.]{2,20}@example\.(jo|com|eg)$/), fc.emailAddress({ size: 'small' })));
    const resource = this.hints.byResource[ID_FIELDS[lower] ?? ''];
    if (text && resource?.length) return within(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...resource) }, { weight: 1, arbitrary: fc.uuid() }));
    if (text && schema.format === 'uuid' && this.hints.ids.length) return within(fc.oneof(fc.constantFrom(...this.hints.ids), fc.uuid()));
    return undefined;
  }

  private structured(schema: Record<string, any>, mode: Mode): fc.Arbitrary<unknown> {
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum) && schema.enum.length) return fc.constantFrom(...(schema.enum as unknown[]));
    const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
    if (Array.isArray(alternatives) && alternatives.length) return fc.oneof(...alternatives.map((alternative) => this.of(alternative, mode)));
    const types = typesOf(schema);
    if (types.length > 1) return fc.oneof(...types.map((type) => this.structured({ ...schema, type }, mode)));
    switch (types[0]) {
      case 'object':
        return this.object(schema, mode);
      case 'array':
        return this.array(schema, mode);
      case 'string':
        return this.string(schema);
      case 'integer':
        return this.number(schema, true);
      case 'number':
        return this.number(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      default:
        if (schema.properties) return this.object(schema, mode);
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private object(schema: Record<string, any>, mode: Mode): fc.Arbitrary<unknown> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set<string>(schema.required ?? []);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, child] of Object.entries(properties)) model[key] = this.of(child, mode, key);
    const known = fc.record(model, { requiredKeys: Object.keys(properties).filter((key) => required.has(key)) });
    const extra = schema.additionalProperties;
    const extraKeys: fc.Arbitrary<string> =
      schema.propertyNames && typeof schema.propertyNames === 'object' ? (this.of(schema.propertyNames, 'valid') as fc.Arbitrary<string>) : fc.string({ minLength: 1, maxLength: 12 });
    let base: fc.Arbitrary<Record<string, unknown>> = known;
    if (extra && typeof extra === 'object') {
      base = fc
        .tuple(known, fc.dictionary(extraKeys, this.of(extra, mode), { maxKeys: 3 }))
        .map(([fixed, more]) => ({ ...more, ...fixed }));
    }
    if (mode === 'valid') return base;
    // mutated: sometimes unknown fields (prototype names among them), sometimes a required field dropped
    return fc
      .tuple(
        base,
        fc.option(fc.dictionary(fc.oneof(fc.constantFrom(...PROTOTYPE_NAMES), fc.string({ maxLength: 16 })), hostileValue, { minKeys: 1, maxKeys: 4 }), { freq: 4 }),
        fc.option(fc.constantFrom(...(required.size ? [...required] : [''])), { freq: 6 }),
      )
      .map(([value, unknown, drop]) => {
        const out: Record<string, unknown> = { ...value };
        if (unknown) for (const [key, item] of Object.entries(unknown)) Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
        if (drop) delete out[drop];
        return out;
      });
  }

  private array(schema: Record<string, any>, mode: Mode): fc.Arbitrary<unknown> {
    const minLength = schema.minItems ?? 0;
    const maxItems = schema.maxItems ?? minLength + 4;
    if (Array.isArray(schema.prefixItems)) {
      const head = fc.tuple(...(schema.prefixItems as JsonSchema[]).map((item) => this.of(item, mode)));
      return head;
    }
    const item = this.of(schema.items, mode);
    const short = fc.array(item, { minLength, maxLength: Math.min(maxItems, minLength + 4) });
    if (maxItems <= minLength + 4) return short;
    // the longest array the schema allows (10 000 maneuvers, 20 000 pairs): one drawn item repeated, so drawing it stays cheap
    const longest = item.map((value) => Array.from({ length: maxItems }, () => value));
    return fc.oneof({ weight: 8, arbitrary: short }, { weight: 1, arbitrary: longest });
  }

  private string(schema: Record<string, any>): fc.Arbitrary<unknown> {
    const minLength = schema.minLength ?? 0;
    const maxLength = schema.maxLength ?? minLength + 24;
    if (schema.format === 'uuid') return fc.uuid();
    if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((date) => date.toISOString());
    if (schema.format === 'uri') return fc.constantFrom('https://example.com/hook', 'http://127.0.0.1:1/x', 'https://example.jo/a?b=c');
    if (typeof schema.pattern === 'string') {
      try {
        const pattern = new RegExp(schema.pattern);
        return fc.stringMatching(pattern, { size: 'xsmall' }).filter((value) => value.length >= minLength && value.length <= maxLength);
      } catch {
        // a pattern fast-check cannot generate from: free text of the right length
      }
    }
    return fc.oneof(
      { weight: 4, arbitrary: fc.string({ minLength, maxLength: Math.min(maxLength, minLength + 24) }) },
      { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, minLength + 12) }) },
      { weight: 1, arbitrary: fc.constant('x'.repeat(Math.min(maxLength, 100_000))) },
    );
  }

  private number(schema: Record<string, any>, integer: boolean): fc.Arbitrary<unknown> {
    const exclusiveMinimum = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : undefined;
    const exclusiveMaximum = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : undefined;
    const min = schema.minimum ?? exclusiveMinimum ?? (integer ? -1_000_000 : -1e6);
    const max = schema.maximum ?? exclusiveMaximum ?? (integer ? 1_000_000 : 1e6);
    if (integer) {
      const low = Math.ceil(exclusiveMinimum !== undefined ? exclusiveMinimum + 1 : min);
      const high = Math.floor(exclusiveMaximum !== undefined ? exclusiveMaximum - 1 : max);
      return fc.integer({ min: Math.max(low, -(2 ** 31)), max: Math.min(high, 2 ** 31 - 1) });
    }
    return fc.double({ min, max, noNaN: true, noDefaultInfinity: true, minExcluded: exclusiveMinimum !== undefined, maxExcluded: exclusiveMaximum !== undefined });
  }

  /** Values just outside the schema's bounds, or of a neighbouring type. */
  private boundary(schema: Record<string, any>): fc.Arbitrary<unknown> {
    const types = typesOf(schema);
    const options: unknown[] = [];
    if (types.includes('string')) {
      const maxLength = schema.maxLength ?? 1_000;
      options.push('x'.repeat(Math.min(maxLength + 1, 200_000)), '', 1, null);
    }
    if (types.includes('number') || types.includes('integer')) {
      const min = schema.minimum ?? schema.exclusiveMinimum;
      const max = schema.maximum ?? schema.exclusiveMaximum;
      if (typeof min === 'number') options.push(min, min - 1, min - 1e-9);
      if (typeof max === 'number') options.push(max, max + 1, max + 1e-9);
      options.push(0.5, '1', '', null, true);
    }
    if (types.includes('array')) {
      const maxItems = schema.maxItems ?? 10;
      options.push(Array.from({ length: Math.min(maxItems + 1, 5_001) }, () => 0), {}, 'a');
    }
    if (types.includes('object')) options.push([], 'a', 1, null);
    if (types.includes('boolean')) options.push('true', 1, 0, 'yes');
    if (!options.length) options.push(null, {}, []);
    return fc.constantFrom(...options);
  }
}

function typesOf(schema: Record<string, any>): string[] {
  if (Array.isArray(schema.type)) return schema.type as string[];
  if (typeof schema.type === 'string') return [schema.type];
  return [];
}
