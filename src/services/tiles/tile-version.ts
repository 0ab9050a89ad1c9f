/**
 * The version token of the vector tiles (`?v=` in the tile template, part of every ETag): a hash of
 * what the tiles are cut from (the pack's sources, build time and format) and of the code that cuts
 * them (the tile solver's own files and the encoding libraries' versions). Either changing gives
 * a new token, so a versioned tile URL can be cached as immutable.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PackHeader } from '../../datapack/pack-layout.js';

const TILE_CODE_DIRECTORY = fileURLToPath(new URL('../../solvers/tiles/', import.meta.url));
const PACKAGE_JSON = fileURLToPath(new URL('../../../package.json', import.meta.url));
/** The libraries whose output is the tile bytes. */
const ENCODING_LIBRARIES = ['@maplibre/geojson-vt', '@maplibre/vt-pbf', 'flatbush'];

/** Hash of the tile solver's source (the .js in dist/, the .ts under vitest) and the encoding libraries' versions. */
export function tileCodeFingerprint(directory = TILE_CODE_DIRECTORY): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(directory).sort()) {
    if (!/\.(js|ts)$/.test(name) || /\.test\.|\.d\.ts$/.test(name)) continue;
    hash.update(name).update(readFileSync(`${directory}${name}`));
  }
  const dependencies = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  for (const library of ENCODING_LIBRARIES) hash.update(`${library}@${dependencies[library] ?? '?'}`);
  return hash.digest('hex');
}

/** The token: 12 hex digits of a hash over the pack's identity and the tile code's fingerprint. */
export function tileVersion(header: Pick<PackHeader, 'version' | 'createdAt' | 'source' | 'adminSources'>, codeFingerprint = tileCodeFingerprint()): string {
  const hash = createHash('sha256');
  hash.update(`pack:${header.version}:${header.createdAt}:${header.source.sha256}`);
  for (const source of header.adminSources) hash.update(`:${source.sha256}`);
  hash.update(`code:${codeFingerprint}`);
  return hash.digest('hex').slice(0, 12);
}
