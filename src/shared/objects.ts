/**
 * `base` with `extra`'s fields added: what `{ ...base, ...extra }` means for plain data objects (own
 * enumerable fields copied, `extra` winning), for hot paths that add fields the base object lacks.
 *
 * Why not the spread: on Node 20 (V8 11.3) an object made by spreading another gets a copy of its map that
 * sits outside any transition tree, so adding a field the source lacks (`{ ...candidate, distanceKm }`)
 * creates a new map for every object made there once the site is hot: 995 distinct maps in 999 pairs in a
 * micro-benchmark. Each map and its descriptor array outlive the object, are promoted at the next scavenge
 * and stay until a mark-compact: /search at 100 000 places promoted 0.4–1.1 MB per scavenge through three
 * such sites (docs/benchmarks.md, "Session 22"), and every reader of those objects went megamorphic.
 * `Object.assign` onto a fresh object follows the ordinary transitions, so the objects share one map.
 * (Unlike a spread it would run a `__proto__` setter: the data objects passed here have no such field.)
 */
export function withFields<Base extends object, Extra extends object>(base: Base, extra: Extra): Omit<Base, keyof Extra> & Extra {
  return Object.assign({}, base, extra) as Omit<Base, keyof Extra> & Extra;
}
