/**
 * `npm run ingest` as a user runs it (the built CLI in a child process): exit
 * codes, messages, stats, and nothing half-written when the input is bad.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { JORDAN_ADMIN, OSM_FILES } from './support/osm-data.js';

const CLI = fileURLToPath(new URL('../dist/cli/ingest.js', import.meta.url));
const workDir = mkdtempSync(join(tmpdir(), 'ingest-cli-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function runIngest(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as NodeJS.ErrnoException & { code?: number }).code as unknown as number) ?? 1 : 0, stdout, stderr });
    });
  });
}

/** The first `bytes` of a real extract, as an interrupted download leaves it. */
function truncatedCopy(source: string, name: string, bytes: number): string {
  const path = join(workDir, name);
  writeFileSync(path, readFileSync(source).subarray(0, bytes));
  return path;
}

/** A fresh output directory per case, to check that a failure leaves it empty. */
function outDir(name: string): string {
  return mkdtempSync(join(workDir, `${name}-`));
}

describe('npm run ingest', () => {
  it('builds a pack, prints its inventory and the throughput, and --stats reads it back', async () => {
    const out = outDir('ok');
    const run = await runIngest([OSM_FILES.nasrCityPbf, '--out', out, '--admin', JORDAN_ADMIN[0]!]);
    expect(run.code).toBe(0);
    expect(readdirSync(out)).toEqual(['egypt_cairo_nasr-city.svcpack']);
    expect(run.stdout).toMatch(/nodes \d+, edges \d+/);
    expect(run.stdout).toMatch(/entities\/s, peak RSS \d+ MiB/);
    expect(run.stderr).toMatch(/ingest nodes: 100%/); // plain progress lines when not on a terminal

    const stats = await runIngest(['--stats', join(out, 'egypt_cairo_nasr-city.svcpack'), '--json']);
    expect(stats.code).toBe(0);
    const description = JSON.parse(stats.stdout);
    expect(description.source.name).toBe('egypt_cairo_nasr-city.osm.pbf');
    expect(description.counts.ways).toBe(860);
    expect(description.layers.admin_area).toBe(12);
    const [west, south, east, north] = description.bbox;
    // Nasr City / Heliopolis: about 31.3 E, 30.05 N
    expect(west).toBeGreaterThan(31.2);
    expect(east).toBeLessThan(31.5);
    expect(south).toBeGreaterThan(29.9);
    expect(north).toBeLessThan(30.2);
    expect(description.sections.find((section: { name: string }) => section.name === 'graph.edgeTarget').elements).toBe(description.counts.edges);

    // the directory the pack went to names it as well: the one pack in it
    const byDirectory = await runIngest(['--stats', out, '--json']);
    expect(byDirectory.code).toBe(0);
    expect(JSON.parse(byDirectory.stdout)).toEqual(description);

    const two = outDir('two-packs');
    copyFileSync(join(out, 'egypt_cairo_nasr-city.svcpack'), join(two, 'a.svcpack'));
    copyFileSync(join(out, 'egypt_cairo_nasr-city.svcpack'), join(two, 'b.svcpack'));
    const ambiguous = await runIngest(['--stats', two]);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(/2 data packs \(a\.svcpack, b\.svcpack\); give one of them/);
    expect(ambiguous.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  const failures: [string, () => string[], RegExp][] = [
    ['a missing file', () => [join(workDir, 'nope.osm.pbf')], /no such file/],
    [
      'a truncated PBF',
      () => [truncatedCopy(OSM_FILES.monaco, 'truncated.osm.pbf', 600_000)],
      /truncated/,
    ],
    [
      'a truncated gzip XML',
      () => [truncatedCopy(OSM_FILES.nasrCityXmlGz, 'truncated.osm.xml.gz', 100_000)],
      /truncated/,
    ],
    [
      'a truncated XML',
      () => [truncatedCopy(OSM_FILES.anNabkXml, 'truncated.osm', 500_000)],
      /truncated|ends before/,
    ],
    [
      'a file that is not OSM (GeoJSON)',
      () => {
        const path = join(workDir, 'not-osm.pbf');
        copyFileSync(JORDAN_ADMIN[0]!, path);
        return [path];
      },
      /not an OSM file/,
    ],
    [
      'XML that is not OSM',
      () => {
        const path = join(workDir, 'other.xml.gz');
        writeFileSync(path, gzipSync('<?xml version="1.0"?><gpx><trk/></gpx>'));
        return [path];
      },
      /not an OSM XML file/,
    ],
    ['a bbox that selects nothing (open sea off Monaco)', () => [OSM_FILES.monaco, '--bbox', '7.0,43.0,7.1,43.1'], /selects nothing/],
    ['a malformed bbox', () => [OSM_FILES.monaco, '--bbox', '7.5,43.0,7.4'], /--bbox must be/],
    ['an inverted bbox', () => [OSM_FILES.monaco, '--bbox', '7.5,43.0,7.4,43.1'], /west < east/],
  ];

  it.each(failures)('refuses %s with a clear message, a non-zero exit and no pack', async (_name, args, message) => {
    const out = outDir('fail');
    const run = await runIngest([...args(), '--out', out]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/at .*\.js:\d+/); // a message, not a stack trace
    expect(readdirSync(out)).toEqual([]);
  });

  it('refuses --stats on a file that is not a pack', async () => {
    const run = await runIngest(['--stats', OSM_FILES.nasrCityPbf]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not a map data pack/);
  });

  it('refuses --stats on a directory without a pack with one line, not an EISDIR stack trace', async () => {
    const run = await runIngest(['--stats', outDir('empty')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/a directory with no data pack \(\*\.svcpack\) in it/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('prints usage for a call without a file', async () => {
    const run = await runIngest([]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/usage:/);
  });
});
