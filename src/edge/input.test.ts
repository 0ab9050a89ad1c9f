import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../shared/errors.js';
import { decodeBody, MAX_INPUT_DEPTH, parseQueryString, queryBoolean, validate } from './input.js';

describe('parseQueryString', () => {
  it('recovers every name and value URLSearchParams encoded, repeated names as arrays', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.string({ minLength: 1 }), fc.string()), { maxLength: 12 }), (pairs) => {
        const encoded = new URLSearchParams(pairs).toString();
        const parsed = parseQueryString(encoded);
        const expected: Record<string, string[]> = Object.create(null);
        for (const [name, value] of pairs) (expected[name] ??= []).push(value);
        for (const [name, values] of Object.entries(expected)) {
          expect(parsed[name]).toEqual(values.length === 1 ? values[0] : values);
        }
        expect(Object.keys(parsed).sort()).toEqual(Object.keys(expected).sort());
      }),
    );
  });

  it('decodes any query string exactly as URLSearchParams does', () => {
    const reference = (raw: string) => {
      const expected: Record<string, string | string[]> = Object.create(null);
      for (const [name, value] of new URLSearchParams(raw)) {
        const existing = expected[name];
        expected[name] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
      }
      return expected;
    };
    // the pieces of real and hostile queries: escapes good and bad, UTF-8 and not, separators, lone surrogates
    const piece = fc.oneof(
      fc.constantFrom('&', '=', '+', '%', '%2', '%zz', '%41', '%2B', '%26', '%3D', '%20', '%00', '%D8%B9', '%D8', '%B9', '%E2%82%AC', '%F0%9F%98%80', '%ED%A0%80', '%C0%AF', '%FF', '%EF%BB%BF', '\uD800', '\uDC00', '\uD83D\uDE00', 'é', 'عباس', 'q', 'lat', 'lon', '30.0431', '__proto__'),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const raw = pieces.join('');
        expect(parseQueryString(raw), JSON.stringify(raw)).toEqual(reference(raw));
      }),
      { numRuns: 20_000 },
    );
    for (const raw of ['q=%D8%B9%D8%A8%D8%A7%D8%B3+%D8%A7&lat=30.05&lon=31.33', 'a&&b=&=c&d==e&', '%=%&x=%%41', 'q=a%ZZb&q=c', 'q=\uD800']) {
      expect(parseQueryString(raw), raw).toEqual(reference(raw));
    }
  });

  it('cannot be used to pollute prototypes', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(parsed.__proto__).toBe('x');
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('queryBoolean', () => {
  const schema = z.object({ flag: queryBoolean() });
  it('accepts the spec words in any case and refuses anything else', () => {
    fc.assert(
      fc.property(fc.constantFrom('true', '1', 'yes', 'on', 'false', '0', 'no', 'off'), fc.boolean(), (word, upper) => {
        const value = upper ? word.toUpperCase() : word;
        expect(validate('query', schema, { flag: value }).flag).toBe(['true', '1', 'yes', 'on'].includes(word));
      }),
    );
    fc.assert(
      fc.property(fc.string().filter((text) => !['true', '1', 'yes', 'on', 'false', '0', 'no', 'off'].includes(text.trim().toLowerCase())), (text) => {
        expect(() => validate('query', schema, { flag: text })).toThrow(ApiError);
      }),
    );
  });
});

describe('decodeBody', () => {
  it('never throws anything but ApiError on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 256 }), (bytes) => {
        try {
          decodeBody('json', Buffer.from(bytes), 'application/json');
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).statusCode).toBe(400);
        }
      }),
    );
  });

  it('accepts JSON media types with parameters and +json suffixes', () => {
    expect(decodeBody('json', Buffer.from('{"a":1}'), 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(decodeBody('json', Buffer.from('{"a":1}'), 'application/geo+json')).toEqual({ a: 1 });
    expect(() => decodeBody('json', Buffer.from('a=1'), 'application/x-www-form-urlencoded')).toThrow(ApiError);
  });
});

describe('input no field may hold', () => {
  const refusal = (location: 'params' | 'query' | 'body', value: unknown) => {
    try {
      validate(location, undefined, value);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      return { messages: (error as ApiError).messages, issues: (error as ApiError).details!.issues };
    }
    return undefined;
  };
  const nested = (depth: number): unknown => (depth === 0 ? 1 : { a: nested(depth - 1) });

  it('refuses NUL and unpaired surrogates in values and names, naming the field, with or without a schema', () => {
    expect(refusal('body', { place: { names: ['ok', 'a\u0000'] } })).toEqual({
      messages: ['place.names.1: must not contain NUL (U+0000) characters'],
      issues: [{ location: 'body', path: 'place.names.1', message: 'must not contain NUL (U+0000) characters', code: 'invalid_characters' }],
    });
    expect(refusal('query', { q: '\ud83d' })?.messages).toEqual(['query.q: must not contain unpaired UTF-16 surrogates']);
    expect(refusal('params', { id: '\ude00x' })?.messages).toEqual(['params.id: must not contain unpaired UTF-16 surrogates']);
    expect(refusal('body', { ['k\u0000']: 1 })?.messages).toEqual(['k\u0000: must not contain NUL (U+0000) characters']);
    expect(() => validate('body', z.object({ name: z.string() }), { name: 'a\u0000' })).toThrow(ApiError);
  });

  it('accepts surrogate pairs, other controls and file bytes', () => {
    expect(refusal('body', { text: '😀 \t\n\u0001', tags: ['\ud83d\ude00'] })).toBeUndefined();
    expect(refusal('body', { fields: {}, files: [{ field: 'f', filename: 'a.gpx', contentType: 'text/xml', data: Buffer.from([0, 0xd8]) }] })).toBeUndefined();
  });

  it(`refuses objects and arrays nested deeper than ${MAX_INPUT_DEPTH} levels`, () => {
    expect(refusal('body', nested(MAX_INPUT_DEPTH))).toBeUndefined();
    expect(refusal('body', nested(MAX_INPUT_DEPTH + 1))?.issues).toEqual([expect.objectContaining({ code: 'too_deep', path: Array(MAX_INPUT_DEPTH).fill('a').join('.') })]);
    expect(refusal('body', decodeBody('json', Buffer.from(`${'['.repeat(10_000)}${']'.repeat(10_000)}`), 'application/json'))?.issues).toEqual([expect.objectContaining({ code: 'too_deep' })]);
  });
});
