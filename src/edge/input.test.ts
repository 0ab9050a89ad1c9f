import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../shared/errors.js';
import { decodeBody, parseQueryString, queryBoolean, validate } from './input.js';

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
