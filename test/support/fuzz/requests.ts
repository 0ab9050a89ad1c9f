/**
 * Requests for every operation of the served OpenAPI document: path parameters, query strings, bodies, content
 * types and credentials, each drawn from values that fit the schema, values pushed past it and values no field
 * may hold. See test/openapi-fuzz.int.test.ts for what the answers are held to.
 */
import fc from 'fast-check';
import { EXAMPLES, exampleBodies } from './examples.js';
import { hostileString, hostileValue, nested, PROTOTYPE_NAMES, RawJson } from './hostile-values.js';
import { jsonBytes, type RawRequest } from './raw-http.js';
import { SchemaArbitraries, type JsonSchema } from './schema-arbitrary.js';

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** The OpenAPI path, e.g. /api/v1/me/saved-places/{id}. */
  path: string;
  parameters: Parameter[];
  body?: JsonSchema;
  access: string;
  /** The statuses its `responses` name. */
  documented: string[];
}

/** The credentials the fuzzer holds. */
export interface Credentials {
  /** A super_admin's bearer token: every bearer and admin route gets past the gate with it. */
  token: string;
  /** An unlimited key with every scope (same owner as `token`). */
  key: string;
  keyId: string;
  /** A second account's bearer token: sent where the fuzzer's own would end the test (logout, account deletion). */
  otherToken: string;
}

export interface Pools {
  /**
   * Ids and tokens of resources that exist (the fuzzer's own extra resources and the other account's), by the path
   * segment that names them (`saved-places`, `api-keys`, …; `sessionId` for sign-in sessions); never the
   * fuzzer's own account, first session or key.
   */
  byResource: Record<string, string[]>;
  /** All of them. */
  ids: string[];
}

export interface FuzzInput {
  operation: Operation;
  request: RawRequest;
  /** Which credential went out: for the failure report. */
  credential: string;
}

/**
 * Operations that would end the fuzz run if sent with the fuzzer's own credentials: they are still fuzzed, but
 * with the other account's token, none, or garbage.
 *   DELETE /auth/me     deletes the account behind the token (and its keys)
 *   POST /auth/logout   revokes the session behind the token
 */
export const SELF_DESTRUCTIVE = new Set(['DELETE /api/v1/auth/me', 'POST /api/v1/auth/logout']);

/** Operations whose work is seconds of solver time: a smaller share of the inputs, but every one is fuzzed. */
export function isExpensive(operation: Operation): boolean {
  if (operation.method === 'GET') return false;
  return /^\/api\/v1\/(optimize\/|routing\/(isochrone|matrix|map-match|optimize|plan))/.test(operation.path);
}

/** Reads the operations of an OpenAPI 3.1 document. */
export function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(document.paths)) {
    for (const [method, operation] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const content = operation.requestBody?.content ?? {};
      const mediaType = content['application/json'] ?? Object.values(content)[0];
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: ((operation.parameters ?? []) as any[]).map((parameter) => ({
          name: parameter.name,
          in: parameter.in,
          required: Boolean(parameter.required),
          schema: parameter.schema,
        })),
        body: mediaType ? (mediaType.schema ?? true) : undefined,
        access: operation['x-access'] ?? 'open',
        documented: Object.keys(operation.responses ?? {}),
      });
    }
  }
  return operations;
}

/** Percent-encodes every byte of the UTF-8 text but the unreserved ones (lone surrogates become U+FFFD). */
export function percentEncode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Path segments and query values written as they go on the wire: bytes that are not UTF-8, bare `%`, NUL. */
const RAW_ENCODED = [
  '%00',
  'a%00b',
  '%ED%A0%BD',
  '%ED%B8%80x',
  '%F0%9F',
  '%FF%FE',
  '%C0%80',
  '%',
  '%zz',
  '%2',
  '%2F',
  '..',
  '.',
  '%2e%2e',
  '%2E%2E%2Fadmin',
  '-0',
  '1e308',
  '1e400',
  '99999999999999999999999999999',
  '-1',
  '0',
  'NaN',
  'Infinity',
  '%F0%9F%98%80',
  '%D8%B9%D8%B1%D8%A8%D9%8A',
  '+',
  '%20',
  '%0d%0aSet-Cookie:%20x=1',
  ...PROTOTYPE_NAMES,
];

/** In a URL: long values are drawn on their own, rarely (past 8 KiB the whole request is a 414). */
const shortHostileString = hostileString.filter((text) => text.length <= 256);

const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_ENCODED) },
  { weight: 2, arbitrary: shortHostileString.map(percentEncode) },
  { weight: 1, arbitrary: fc.constantFrom(300, 5_000, 9_000).map((length) => 'x'.repeat(length)) },
);

const SPECIAL_PARAMETERS: Record<string, readonly string[]> = {
  provider: ['google', 'apple', 'microsoft', 'oidc', 'github'],
  country: ['EG', 'SA', 'JO', 'AE', 'eg', 'XX', 'EGY'],
  year: ['1447', '1446', '2026', '0', '99999'],
  month: ['1', '9', '12', '13', '0'],
};

/** Values of the wrong shape in a query string: nested syntax, repeated names, empty names. */
const QUERY_EXTRAS = [
  '__proto__=1',
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'a[b]=c',
  'a[]=1&a[]=2',
  '&&',
  '=x',
  'flag',
  'limit=1&limit=2',
  'x=%00',
  'x=%ED%A0%BD',
  'x=%',
  'api_key=svc_not_a_key',
  'access_token=not.a.jwt',
  '%61pi_key=svc_not_a_key',
];

const CONTENT_TYPES = [
  'text/plain',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/json; charset=utf-8; boundary=x',
  'APPLICATION/JSON',
  'application/json;;;',
  'application/vnd.api+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=----fuzz',
  'multipart/form-data',
  '*/*',
  '',
  'json',
  'application/\u00ff',
];

/** Body texts no JSON parser should turn into a 500. */
const RAW_BODIES: readonly (string | Buffer)[] = [
  '',
  '{',
  '}',
  '{"a":}',
  '{"a" 1}',
  "{'a':1}",
  'nul',
  'tru',
  '[1,]',
  '{"a":1,}',
  '\u0000',
  'NaN',
  'Infinity',
  '"unterminated',
  '01',
  '1.',
  '.5',
  '+1',
  '0x10',
  '{"a":1}{"b":2}',
  '{"a":1} trailing',
  'null',
  '[]',
  '1',
  '"s"',
  'true',
  '\ufeff{}',
  '{"a":1,"a":2}',
  '{"__proto__":{"polluted":1},"__proto__":2}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `{${Array.from({ length: 20_000 }, (_, index) => `"k${index}":${index}`).join(',')}}`,
  `[${'1e308,'.repeat(10_000)}1e400]`,
  Buffer.from([0xff, 0xfe, 0x00]),
  Buffer.from('{}', 'utf16le'),
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0xbd, 0x22, 0x7d]),
];

const DEPTHS = [65, 200, 1_000, 5_000, 100_000];

const rawBody: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RAW_BODIES).map((body) => (typeof body === 'string' ? Buffer.from(body, 'utf8') : body)) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.constantFrom(...DEPTHS), fc.boolean()).map(([depth, asArray]) => Buffer.from(asArray ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)),
  },
  // just over the 1 MiB body limit
  { weight: 1, arbitrary: fc.constant(Buffer.from(`{"a":"${'x'.repeat(1024 * 1024)}"}`)) },
);

const garbageCredentials: fc.Arbitrary<Record<string, string>> = fc.oneof(
  fc.constantFrom<Record<string, string>>(
    { authorization: 'Bearer' },
    { authorization: 'Bearer ' },
    { authorization: 'Bearer x' },
    { authorization: 'bearer x.y.z' },
    { authorization: 'Basic Zm9vOmJhcg==' },
    { authorization: 'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.' },
    { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTAwMDAtMDAwMC0wMDAwMDAwMDAwMDAifQ.c2lnbmF0dXJl' },
    { authorization: `Bearer ${'a'.repeat(8_000)}` },
    { authorization: 'Bearer \u00ff\u00fe' },
    { 'x-api-key': '' },
    { 'x-api-key': 'svc_' },
    { 'x-api-key': 'svc_0000000000000000000000000000000000000000' },
    { 'x-api-key': 'x'.repeat(5_000) },
    { 'x-api-key': '\u00ff' },
    { 'x-api-key': 'constructor' },
    { 'x-api-key': '__proto__' },
    { 'x-api-key': 'svc_x', authorization: 'Bearer y' },
  ),
  fc.record({ 'x-api-key': fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 80 }) }),
  fc.record({ authorization: fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 200 }).map((text) => `Bearer ${text}`) }),
);

// what node:http lets into a header value: tab, printable ASCII and 0x80-0xff (no DEL, no control characters)
const headerText = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).filter((code) => code !== 0x7f).map((code) => String.fromCharCode(code)), maxLength: 60 });

const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({}) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        'x-request-id': fc.oneof(headerText, fc.constant('x'.repeat(2_000)), fc.constant('../../../')),
        'accept-language': fc.oneof(headerText, fc.constantFrom('ar', 'ar-EG,en;q=0.5', '*', 'xx-YY;q=2')),
        origin: fc.constantFrom('null', 'http://evil.example', 'https://example.jo', '\u00ff'),
        referer: fc.constantFrom('http://evil.example/x', 'not a url', ''),
        'x-forwarded-for': fc.constantFrom('1.1.1.1', '::1, 10.0.0.1', 'garbage', '999.999.999.999'),
        accept: fc.constantFrom('*/*', 'text/html', 'application/xml', ''),
        'x-svc-source': headerText,
      },
      { requiredKeys: [] },
    ),
  },
);

const MAX_TARGET = 12_000;

type CredentialKind = 'bearer' | 'key' | 'key-query' | 'none' | 'garbage' | 'other';

export class RequestArbitraries {
  private readonly schemas: SchemaArbitraries;
  /** Operations the developer sandbox may be asked to replay (set by `inputs`). */
  private sandboxTargets: Operation[] = [];

  constructor(
    private readonly credentials: Credentials,
    private readonly pools: Pools,
  ) {
    this.schemas = new SchemaArbitraries({ ids: pools.ids, byResource: pools.byResource });
  }

  /** Inputs over every operation; expensive ones weigh `expensiveWeight` against 4 for the rest. */
  inputs(operations: Operation[], expensiveWeight = 1): fc.Arbitrary<FuzzInput> {
    this.sandboxTargets = operations.filter((operation) => operation.path.startsWith('/api/v1/') && (operation.method === 'GET' || operation.method === 'POST'));
    // the developer sandbox replays any GET (and read-only POST) in process: three times the share of the others
    const weightOf = (operation: Operation) => (isExpensive(operation) ? expensiveWeight : operation.path === '/api/v1/developer/sandbox' ? 12 : 4);
    return fc.oneof(...operations.map((operation) => ({ weight: weightOf(operation), arbitrary: this.input(operation) })));
  }

  input(operation: Operation): fc.Arbitrary<FuzzInput> {
    const credential = fc.constantFrom<CredentialKind>(...(['bearer', 'bearer', 'bearer', 'bearer', 'bearer', 'key', 'key', 'key', 'key-query', 'none', 'garbage', 'other'] as const));
    const method: fc.Arbitrary<string> = fc.oneof({ weight: 30, arbitrary: fc.constant(operation.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS') });
    return fc
      .record({
        method,
        credential,
        garbage: garbageCredentials,
        path: this.path(operation),
        query: this.query(operation),
        body: this.body(operation),
        contentType: fc.oneof({ weight: 12, arbitrary: fc.constant('application/json') }, { weight: 1, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
        extra: extraHeaders,
      })
      .map(({ method, credential: drawn, garbage, path, query, body, contentType, extra }) => {
        const headers: Record<string, string> = { ...extra };
        // checked on the method that goes out (a swapped one included)
        const selfDestructive = SELF_DESTRUCTIVE.has(`${method} ${operation.path}`);
        const credential: CredentialKind = selfDestructive && (drawn === 'bearer' || drawn === 'key' || drawn === 'key-query') ? 'other' : drawn;
        let target = query ? `${path}?${query}` : path;
        // Past about 64 KiB uWS resets a request head before any handler runs (docs/architecture.md, Malformed
        // HTTP): targets stay under 12 000 characters, which still crosses the 8 KiB limit answered with 414.
        if (target.length > MAX_TARGET) target = target.slice(0, MAX_TARGET);
        switch (credential) {
          case 'bearer':
            headers.authorization = `Bearer ${this.credentials.token}`;
            break;
          case 'key':
            headers['x-api-key'] = this.credentials.key;
            break;
          case 'key-query':
            target += `${query ? '&' : '?'}api_key=${this.credentials.key}`;
            break;
          case 'other':
            headers.authorization = `Bearer ${this.credentials.otherToken}`;
            break;
          case 'garbage':
            Object.assign(headers, garbage);
            break;
          case 'none':
            break;
        }
        if (body && contentType) headers['content-type'] = contentType;
        return { operation, credential, request: { method, target, headers, ...(body ? { body } : {}) } };
      });
  }

  private path(operation: Operation): fc.Arbitrary<string> {
    const names = [...operation.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!);
    if (!names.length) return fc.constant(operation.path);
    const existing = this.pools.ids;
    const segment = (name: string): fc.Arbitrary<string> => {
      // the resource a parameter names: the segment before it (/me/saved-places/{id}), or its own name ({sessionId})
      const before = operation.path.split('/')[operation.path.split('/').indexOf(`{${name}}`) - 1] ?? '';
      const own = this.pools.byResource[name] ?? this.pools.byResource[before] ?? [];
      // deleting (or rotating) a resource ends every later input's use of it: those get its id rarely
      const ownWeight = !own.length ? 0 : operation.method === 'DELETE' || operation.path.endsWith('/rotate') ? 1 : 8;
      return fc.oneof(
        { weight: ownWeight, arbitrary: fc.constantFrom(...(own.length ? own : ['x'])) },
        { weight: 2, arbitrary: existing.length ? fc.constantFrom(...existing) : fc.uuid() },
        { weight: 2, arbitrary: fc.uuid() },
        { weight: SPECIAL_PARAMETERS[name] ? 6 : 0, arbitrary: fc.constantFrom(...(SPECIAL_PARAMETERS[name] ?? ['x'])) },
        { weight: 4, arbitrary: hostileSegment },
      );
    };
    return fc.tuple(...names.map(segment)).map((values) => {
      let path = operation.path;
      names.forEach((name, index) => (path = path.replace(`{${name}}`, values[index]!)));
      return path;
    });
  }

  private query(operation: Operation): fc.Arbitrary<string> {
    const parameters = operation.parameters.filter((parameter) => parameter.in === 'query');
    const pairs = parameters.map((parameter) =>
      fc.option(
        fc.oneof(
          { weight: 5, arbitrary: this.schemas.of(parameter.schema, 'valid', parameter.name).map((value) => `${percentEncode(parameter.name)}=${percentEncode(asQueryValue(value))}`) },
          { weight: 3, arbitrary: this.schemas.of(parameter.schema, 'mutated', parameter.name).map((value) => `${percentEncode(parameter.name)}=${percentEncode(asQueryValue(value))}`) },
          { weight: 1, arbitrary: fc.constantFrom(...RAW_ENCODED).map((raw) => `${percentEncode(parameter.name)}=${raw}`) },
        ),
        { freq: parameter.required ? 10 : 2 },
      ),
    );
    const extras = fc.option(fc.array(fc.oneof(fc.constantFrom(...QUERY_EXTRAS), fc.tuple(shortHostileString, shortHostileString).map(([name, value]) => `${percentEncode(name)}=${percentEncode(value)}`)), { minLength: 1, maxLength: 3 }), { freq: 5 });
    return fc.tuple(fc.tuple(...pairs), extras).map(([chosen, more]) => [...chosen.filter((pair): pair is string => pair !== null), ...(more ?? [])].join('&'));
  }

  private body(operation: Operation): fc.Arbitrary<Buffer | undefined> {
    const free = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((value) => jsonBytes(value)),
      hostileValue.map((value) => jsonBytes(value)),
      fc.constantFrom(...DEPTHS.slice(0, 3)).map((depth) => jsonBytes(nested(depth, 1, 'mixed'))),
    );
    if (operation.body === undefined) {
      return fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: free }, { weight: 1, arbitrary: rawBody });
    }
    if (operation.method === 'POST' && operation.path === '/api/v1/developer/sandbox' && this.sandboxTargets.length) {
      // the sandbox replays a request in process as one of the fuzzer's keys: give it the requests the fuzzer makes
      // the fuzzer's own key too: the sandbox only reads as it, so it cannot change the key
      const keys = [this.credentials.keyId, ...(this.pools.byResource['api-keys'] ?? [])];
      const replay = fc.constantFrom(...this.sandboxTargets).chain((target) =>
        fc.record({
          apiKeyId: keys.length ? fc.constantFrom(...keys) : fc.uuid(),
          method: fc.constant(target.method),
          target: fc.tuple(this.path(target), this.query(target)).map(([path, query]) => (query ? `${path}?${query}` : path).slice('/api/v1'.length)),
          body: target.method === 'POST' ? this.body(target) : fc.constant(undefined),
        }),
      );
      // the replayed body goes in as its bytes: valid JSON makes a valid sandbox body, anything else a malformed one
      const sandbox = replay.map(({ apiKeyId, method, target, body }) => jsonBytes({ apiKeyId, method, path: target, ...(body ? { body: new RawJson(body) } : {}) }));
      return fc.oneof({ weight: 3, arbitrary: sandbox }, { weight: 1, arbitrary: this.schemas.of(operation.body, 'mutated').map((value) => jsonBytes(value)) }, { weight: 1, arbitrary: rawBody });
    }
    const examples = EXAMPLES[`${operation.method} ${operation.path}`];
    return fc.oneof(
      { weight: examples ? 10 : 0, arbitrary: exampleBodies(examples ?? [{}]).map((value) => jsonBytes(value)) },
      { weight: 8, arbitrary: this.schemas.of(operation.body, 'valid').map((value) => jsonBytes(value)) },
      { weight: 8, arbitrary: this.schemas.of(operation.body, 'mutated').map((value) => jsonBytes(value)) },
      { weight: 2, arbitrary: free },
      { weight: 2, arbitrary: rawBody },
      { weight: 1, arbitrary: fc.constant(undefined) },
    );
  }
}

/** A generated value as query text, at most 1 000 characters (long ones would make every such request a 414). */
function asQueryValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (value === undefined) text = '';
  else if (typeof value === 'object' && value !== null) text = jsonBytes(value, 4_000).toString('utf8');
  else text = String(value);
  return text.slice(0, 1_000);
}
