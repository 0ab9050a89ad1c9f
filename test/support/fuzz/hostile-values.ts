/**
 * Values no client should send and every endpoint must refuse with a 4xx (or accept, where they fit): wrong
 * types, NUL and other control characters, unpaired UTF-16 surrogates, numbers at the edge of what JSON and a
 * double can hold, very long strings, deep nesting, the names of `Object.prototype`. Used by the OpenAPI fuzz
 * test (test/openapi-fuzz.int.test.ts) for bodies, query values and path segments.
 */
import fc from 'fast-check';

/**
 * A JSON token written into the body text as it is, where `JSON.stringify` cannot write it: `1e400` (parses to
 * Infinity), `-0`, a 30-digit integer, a string holding bytes that are not UTF-8, and so on.
 */
export class RawJson {
  constructor(readonly text: string | Buffer) {}
  toString(): string {
    return typeof this.text === 'string' ? this.text : `<${this.text.length} raw bytes>`;
  }
}

/** Names an own property or a lookup in a plain object would answer from `Object.prototype`. */
export const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__', 'isPrototypeOf'];

const LONG_LENGTHS = [257, 1_025, 4_097, 10_000, 70_000];

/** Strings no text field may hold or that sit at an edge of what one may hold. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'a\u0000b',
    '\u0000',
    '\ud83d',
    'x\ude00',
    '\ude00\ud83d',
    '\ud83d\ude00',
    '\u0001\u001f\u007f',
    '\u2028\u2029',
    '\u202eevil',
    '\ufeff',
    '\uffff\ufffe',
    '',
    ' ',
    '   \t\n ',
    '../../../../etc/passwd',
    "' OR 1=1 --",
    '"; drop table users; --',
    '%00',
    '%s%n%x',
    '${jndi:ldap://127.0.0.1/a}',
    '<script>alert(1)</script>',
    'مرحبا بالعالم',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '-0',
    '1e308',
    '99999999999999999999999999',
    '0x1F',
    'true',
    '[]',
    '{}',
    '2026-02-30T25:61:61Z',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ...PROTOTYPE_NAMES,
  ),
  fc.constantFrom(...LONG_LENGTHS).chain((length) => fc.constantFrom('a', 'ع', '😀', '\u0000', '\ud83d').map((unit) => unit.repeat(length))),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
);

/** Numbers at the edges: JSON can write all of these (`-0` stringifies as `0`, so it comes raw as well). */
export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    0,
    -1,
    1e308,
    -1e308,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -Number.MIN_VALUE,
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER + 2,
    -Number.MAX_SAFE_INTEGER - 2,
    2 ** 31,
    2 ** 31 - 1,
    -(2 ** 31) - 1,
    2 ** 32,
    2 ** 53,
    2 ** 63,
    2 ** 64,
    -(2 ** 63),
    0.1,
    1.5,
    1e-300,
    180.0000001,
    -90.0000001,
    360.5,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Tokens JSON.stringify cannot produce, written raw into the body text. */
export const rawToken: fc.Arbitrary<RawJson> = fc.oneof(
  fc.constantFrom('1e400', '-1e400', '-0', '-0.0', '1E-400', '123456789012345678901234567890', '0.0000000000000000000000000001e-300', '1.7976931348623157e309').map((text) => new RawJson(text)),
  fc.constantFrom('"\\ud83d"', '"\\ude00a"', '"a\\u0000b"', '"\\u0000"', '"\\udbff\\udfff"', '"\\ud83d\\u0041"').map((text) => new RawJson(text)),
  // a string whose bytes are not UTF-8: a lone surrogate written as CESU bytes, a truncated sequence, overlong NUL
  fc
    .constantFrom([0xed, 0xa0, 0xbd], [0xf0, 0x9f], [0xc0, 0x80], [0xff, 0xfe], [0xe2, 0x28, 0xa1])
    .map((bytes) => new RawJson(Buffer.concat([Buffer.from('"a'), Buffer.from(bytes), Buffer.from('b"')]))),
);

/** An array or object nested `depth` levels around `inner`. */
export function nested(depth: number, inner: unknown, kind: 'array' | 'object' | 'mixed'): unknown {
  let value = inner;
  for (let level = 0; level < depth; level++) {
    const asArray = kind === 'array' || (kind === 'mixed' && level % 2 === 0);
    value = asArray ? [value] : { a: value };
  }
  return value;
}

/** A value of the wrong kind or at an edge, for any place in a JSON document. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  { weight: 2, arbitrary: rawToken },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], [[]], { '': '' }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.integer({ min: 2, max: 200 }), fc.constantFrom<'array' | 'object' | 'mixed'>('array', 'object', 'mixed')).map(([depth, kind]) => nested(depth, 1, kind)),
  },
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_NAMES).map((name) => JSON.parse(`{"${name}":{"polluted":true}}`) as unknown) },
  // long arrays (the body limit, 1 MiB, still holds them)
  { weight: 1, arbitrary: fc.constantFrom(1_000, 20_000).map((length) => Array.from({ length }, (_, index) => index)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);
