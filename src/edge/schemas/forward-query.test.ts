import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/errors.js';
import { parseQueryString, validate } from '../input.js';
import { forwardQuery, forwardQueryCheck } from './forward-query.js';

const NAMES = ['q', 'locale', 'limit', 'bbox', 'lat', 'lon', 'lng', 'other'];
/** Values that sit on the schema's edges: blanks, spaces, number spellings, ranges, lists, long and odd text. */
const VALUES = [
  '', ' ', '%20', '+', 'a', ' cairo ', 'مدينة نصر', 'nasr+city', '0', '-0', '1', '8', '15', '16', '2.5', '-3', '1e3', '1e400', '0x10', ' 7 ',
  'Infinity', 'NaN', 'abc', '90', '90.0001', '-90', '-180', '180.5', '30.05', '31.33', '9007199254740993', '1,2', '1,2,3,4', ' 31.2 , 30 , 31.4 , 30.1 ',
  '31.4,30,31.2,30.1', '200,0,0,0', ',,,', 'x'.repeat(101), 'y'.repeat(257), `${'z'.repeat(255)} `, 'ar,en', 'EN-us;q=0.8', '%00', '%ED%A0%80', '%E0%A4%A',
];

const queryString = fc
  .array(fc.tuple(fc.constantFrom(...NAMES), fc.oneof(fc.constantFrom(...VALUES), fc.string({ maxLength: 12 }).map(encodeURIComponent))), { maxLength: 7 })
  .map((pairs) => pairs.map(([name, value]) => `${name}=${value}`).join('&'));

/** The hot shape: a text and a bias point, sometimes a limit and a locale. */
const hotQueryString = fc
  .record({
    q: fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.trim().length > 0 && !text.includes('\u0000')),
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
    limit: fc.option(fc.integer({ min: 1, max: 40 })),
    locale: fc.option(fc.constantFrom('ar', 'en', 'ar,en')),
    alias: fc.boolean(),
  })
  .map(({ q, lat, lon, limit, locale, alias }) => {
    let text = `q=${encodeURIComponent(q)}&lat=${lat}&${alias ? 'lng' : 'lon'}=${lon}`;
    if (limit !== null) text += `&limit=${limit}`;
    if (locale !== null) text += `&locale=${locale}`;
    return text;
  });

type Outcome = { value: unknown; keys?: string[] } | { error: { code: string; message: unknown; details: unknown } };

function outcome(run: () => unknown): Outcome {
  try {
    const value = run();
    return { value, keys: Object.keys(value as object) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error: { code: error.code, message: error.message, details: error.details } };
  }
}

describe('forwardQueryCheck', () => {
  const schema = forwardQuery(8, 15);
  const check = forwardQueryCheck(8, 15);

  function compare(text: string): boolean {
    const raw = parseQueryString(text);
    const withCheck = outcome(() => validate('query', schema, raw, check));
    const schemaOnly = outcome(() => validate('query', schema, raw));
    expect(withCheck, text).toStrictEqual(schemaOnly);
    return check(raw) !== undefined;
  }

  it('gives the schema’s value or the schema’s 400 on random query strings', () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(queryString, (text) => {
        runs++;
        if (compare(text)) answered++;
      }),
      { numRuns: 10_000 },
    );
    // the check must answer a fair share itself, or the comparison says nothing about it
    expect(answered).toBeGreaterThan(runs / 50);
  }, 120_000);

  it('answers the hot shape itself, equal to the schema', () => {
    fc.assert(
      fc.property(hotQueryString, (text) => {
        expect(compare(text), text).toBe(true);
      }),
      { numRuns: 5_000 },
    );
  }, 120_000);

  it('leaves every refusal to the schema', () => {
    for (const text of ['', 'q=', 'q=a&q=b', 'q=a&lat=1', 'q=a&lat=1&lon=2&lng=3', 'q=a&limit=0', 'q=a&bbox=1,2', 'q=a&lat=91&lon=0', `q=a&locale=${'x'.repeat(101)}`, `q=${'y'.repeat(257)}`, 'q=a&limit=1.5']) {
      expect(check(parseQueryString(text)), text).toBeUndefined();
      expect(() => validate('query', schema, parseQueryString(text), check), text).toThrow(ApiError);
    }
    expect(check(parseQueryString('q=%20cafe%20&lat=30.05&lng=31.33&limit=99&locale=en&extra=1&extra=2'))).toStrictEqual({
      q: 'cafe',
      locale: 'en',
      limit: 15,
      point: { lat: 30.05, lon: 31.33 },
    });
  });
});
