import { describe, expect, it } from 'vitest';
import { JsonBytes, JsonNumberList, jsonNumber, jsonTenths } from './json-bytes.js';

describe('JsonBytes', () => {
  it('joins text and encoded parts into UTF-8 JSON, growing past its first capacity', () => {
    const parts = Array.from({ length: 200 }, (_, index) => ({ name: index % 3 ? 'مستشفى' : 'a "b"', index }));
    const out = new JsonBytes(16).text('[');
    parts.forEach((part, index) => {
      if (index > 0) out.text(',');
      out.bytes(Buffer.from(JSON.stringify(part).slice(0, -1))).text('}');
    });
    expect(out.text(']').finish().toString('utf8')).toBe(JSON.stringify(parts));
  });

  it('writes numbers as JSON.stringify does, and tenths as their rounded value', () => {
    for (const value of [0, -0, 1.5, -2.25, 1e21, 31.297960531706593, Number.NaN, Number.POSITIVE_INFINITY]) expect(jsonNumber(value)).toBe(JSON.stringify(value));
    const edges = [0, -0, 0.04, 0.05, -0.04, -0.05, -0.06, 0.95, -0.95, 9.96, -9.96, 1_440.04, -11.35, 2 ** 31 / 10 - 0.06, 2 ** 31 / 10 + 0.3, -(2 ** 35), 1e25, Number.NaN, Number.NEGATIVE_INFINITY];
    let seed = 3;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const values = [...edges, ...Array.from({ length: 100_000 }, () => (random() - 0.3) * 10 ** (random() * 8))];
    const wrong = values.filter((value) => jsonTenths(value) !== JSON.stringify(Math.round(value * 10) / 10));
    expect(wrong).toEqual([]);
    const out = new JsonBytes(16);
    const written = values.map((value) => out.tenths(value).finish().toString('latin1'));
    expect(values.filter((value, index) => written[index] !== jsonTenths(value))).toEqual([]);
  });

  it('writes numbers, one at a time or from one list, as JSON.stringify writes them', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    const edges = [0, -0, 1, 7, 2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31, -1, 1.5, -2.25, 1e21, 1e-7, 5e-324, 31.297960531706593, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
    const values = [...edges, ...Array.from({ length: 20_000 }, (_, index) => (index % 2 ? Math.round(random() * 1e6) : 30 + random()))];
    const out = new JsonBytes(16);
    expect(values.filter((value) => out.number(value).finish().toString('latin1') !== JSON.stringify(value))).toEqual([]);
    const list = new JsonNumberList().reset(values);
    for (let index = 0; index < values.length; index++) {
      if (index > 0) out.ascii(',');
      list.writeNext(out);
    }
    expect(out.finish().toString('latin1')).toBe(JSON.stringify(values).slice(1, -1));
    // reused: a second list starts from its own first number
    list.reset([2.5, -0]).writeNext(out);
    list.writeNext(out);
    expect(out.finish().toString('latin1')).toBe('2.50');
  });

  it('starts over after each finish, and hands out answers that later writes do not change', () => {
    const out = new JsonBytes(16);
    const first = out.ascii('{"a":').tenths(1.25).text(',"b":"مستشفى"}').finish();
    const second = out.bytes(Buffer.from('[1,2]')).finish();
    expect(first.toString('utf8')).toBe('{"a":1.3,"b":"مستشفى"}');
    expect(second.toString('utf8')).toBe('[1,2]');
  });
});
