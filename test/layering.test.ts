/**
 * The layer rules of src/ (docs/architecture.md, "Layers"), held over the whole import graph:
 * every static, type-only, re-exported and dynamic import of every shipped file. A new
 * arrow in a forbidden direction, or a reach past an area's public face, fails here with
 * the file, the line and the rule it breaks.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

/**
 * What each area may import besides itself, lowest layer first. Areas are the folders
 * under src/; the files at src/'s root (main, application) compose everything.
 */
const MAY_IMPORT: Readonly<Record<string, readonly string[]>> = {
  shared: [],
  domain: ['shared'],
  datapack: ['domain', 'shared'],
  solvers: ['datapack', 'domain', 'shared'],
  ingest: ['solvers', 'datapack', 'domain', 'shared'],
  store: ['solvers', 'domain', 'shared'],
  actors: ['store', 'solvers', 'datapack', 'domain', 'shared'],
  services: ['actors', 'store', 'solvers', 'ingest', 'datapack', 'domain', 'shared'],
  edge: ['services', 'domain', 'shared'],
  wiring: ['edge', 'services', 'actors', 'store', 'solvers', 'ingest', 'datapack', 'domain', 'shared'],
  cli: ['wiring', 'services', 'actors', 'store', 'solvers', 'ingest', 'datapack', 'domain', 'shared'],
  '(root)': ['wiring', 'edge', 'services', 'actors', 'store', 'solvers', 'ingest', 'datapack', 'domain', 'shared'],
};

export interface ImportEdge {
  /** Importing file, relative to src/ with forward slashes. */
  from: string;
  /** Imported file, relative to src/ (with .ts for the .js the source names). */
  to: string;
  line: number;
}

function areaOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? '(root)' : file.slice(0, slash);
}

function sourceFiles(directory: string): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(directory, { withFileTypes: true })) {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** Every relative import of the shipped files (tests are not shipped and may reach anywhere). */
export function importGraph(root: string = SRC): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const path of sourceFiles(root)) {
    const text = readFileSync(path, 'utf8');
    // preProcessFile finds import, import type, export … from, import('…') and require: every arrow a file can draw.
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const imported of importedFiles) {
      if (!imported.fileName.startsWith('.')) continue;
      const target = posix.normalize(posix.join(dirname(relative(root, path)).split('\\').join('/'), imported.fileName)).replace(/\.js$/, '.ts');
      const line = text.slice(0, imported.pos).split('\n').length;
      edges.push({ from: relative(root, path).split('\\').join('/'), to: target, line });
    }
  }
  return edges;
}

/** Folders with an index.ts: outside them, only the index may be imported. */
function publicFaces(root: string = SRC): string[] {
  const folders = new Set<string>();
  for (const path of sourceFiles(root)) {
    const file = relative(root, path).split('\\').join('/');
    if (file.endsWith('/index.ts')) folders.add(file.slice(0, -'index.ts'.length));
  }
  return [...folders];
}

/** The rule each edge breaks, as a readable line, or nothing. */
export function layeringViolations(edges: readonly ImportEdge[], faces: readonly string[]): string[] {
  const violations: string[] = [];
  for (const edge of edges) {
    const from = areaOf(edge.from);
    const to = areaOf(edge.to);
    const allowed = MAY_IMPORT[from];
    const where = `src/${edge.from}:${edge.line} → src/${edge.to}`;
    if (!allowed) violations.push(`${where}: area '${from}' has no layer rule`);
    else if (from !== to && !allowed.includes(to)) violations.push(`${where}: ${from} may not import ${to}`);
    for (const face of faces) {
      if (edge.to.startsWith(face) && !edge.from.startsWith(face) && edge.to !== `${face}index.ts`) {
        violations.push(`${where}: past the public face of src/${face} (import src/${face}index.ts)`);
      }
    }
  }
  return violations;
}

describe('layering', () => {
  const edges = importGraph();

  it('reads the import graph (a parser that found nothing would pass everything)', () => {
    expect(edges.length).toBeGreaterThan(500);
    expect(edges).toContainEqual(expect.objectContaining({ from: 'main.ts', to: 'application.ts' }));
  });

  it('gives every area under src/ a rule', () => {
    const areas = new Set(edges.flatMap((edge) => [areaOf(edge.from), areaOf(edge.to)]));
    expect([...areas].filter((area) => !MAY_IMPORT[area])).toEqual([]);
  });

  it('finds a forbidden arrow and a deep import when there is one', () => {
    const planted: ImportEdge[] = [
      { from: 'services/x/a.ts', to: 'edge/route.ts', line: 1 },
      { from: 'store/pg/b.ts', to: 'actors/fleet/c.ts', line: 2 },
      { from: 'edge/d.ts', to: 'solvers/routing/guidance/trip-builder.ts', line: 3 },
      { from: 'solvers/vrp/e.ts', to: 'solvers/routing/guidance/index.ts', line: 4 },
    ];
    const found = layeringViolations(planted, ['solvers/routing/guidance/']);
    expect(found).toHaveLength(4);
    expect(found[0]).toContain('services may not import edge');
    expect(found[1]).toContain('store may not import actors');
    expect(found.filter((line) => line.includes('public face'))).toHaveLength(1);
  });

  it('has no import against the layer rules', () => {
    expect(layeringViolations(edges, publicFaces())).toEqual([]);
  });
});
