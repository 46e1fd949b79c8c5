// The house rules on dependencies (DESIGN §7): folders under src/ are components, imports
// point down the layers below, and there is no import cycle — between files or between
// folders. Every import is read with TypeScript's own pre-processor (static, re-export,
// dynamic and type-only imports alike).
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import ts from 'typescript';

/** Top to bottom; a folder may import its own layer's folders (without a cycle) and any layer below. */
const LAYERS: readonly (readonly string[])[] = [
  ['cli'],
  // The HTTP API's TypeScript client: it imports nothing of the server (it is built on its own), and only the CLI uses it.
  ['client'],
  // The composition roots: a data-plane node, and the hosted control plane (spec §8).
  ['node', 'controlplane'],
  // The HTTP surfaces: the API, and the status page (HTML) on the same admission.
  ['gateway', 'ui'],
  // The remote metastore server (spec §8; its client is a metastore backend, meta/backends/remote): it serves the MetaStore and the ControlStore.
  ['remote'],
  // Tenancy and authorization, the data plane, and the checker (a testing tool).
  ['authz', 'quota', 'control', 'router', 'erasure', 'workers', 'gc', 'collection', 'log', 'check'],
  // Envelope encryption and key providers (spec §9.8): the data plane seals with it, the ControlStore holds its records.
  ['crypto'],
  ['meta', 'store', 'metrics'],
];

const SRC = resolve(new URL('../../src', import.meta.url).pathname);
const layerOf = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));

function sourceFiles(): string[] {
  return (readdirSync(SRC, { recursive: true }) as string[])
    .filter((f) => /\.(ts|mts|mjs|js)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(SRC, f))
    .sort();
}

/** The file a relative specifier names (ESM: './x.js' is the source './x.ts'). */
function resolveImport(from: string, spec: string): string {
  const p = resolve(dirname(from), spec);
  for (const c of [p, p.replace(/\.js$/, '.ts'), p.replace(/\.mjs$/, '.mts')]) if (existsSync(c)) return c;
  throw new Error(`${relative(SRC, from)} imports ${spec}, which does not exist`);
}

/** file → the src/ files it imports. */
function importGraph(): Map<string, string[]> {
  const g = new Map<string, string[]>();
  for (const f of sourceFiles()) {
    const info = ts.preProcessFile(readFileSync(f, 'utf8'), true, true);
    const deps = info.importedFiles.map((i) => i.fileName).filter((s) => s.startsWith('.'));
    g.set(f, [...new Set(deps.map((s) => resolveImport(f, s)))].filter((d) => d.startsWith(SRC + '/')));
  }
  return g;
}

const folderOf = (f: string) => relative(SRC, f).split('/')[0]!;
const name = (f: string) => relative(SRC, f);

/** The strongly connected components with more than one member, or a self-loop (Tarjan). */
function cycles<T>(g: Map<T, T[]>): T[][] {
  let next = 0;
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const out: T[][] = [];
  const visit = (v: T) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: T[] = [];
      let w: T;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (g.get(v) ?? []).includes(v)) out.push(scc);
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

const graph = importGraph();

test('every folder under src/ has a layer', () => {
  const unknown = [...new Set([...graph.keys()].map(folderOf))].filter((f) => !layerOf.has(f));
  assert.deepEqual(unknown, [], `add these folders to LAYERS in ${relative(process.cwd(), new URL(import.meta.url).pathname)}`);
});

test('nothing imports a layer above its own', () => {
  const upward: string[] = [];
  for (const [f, deps] of graph) {
    const from = layerOf.get(folderOf(f));
    for (const d of deps) {
      const to = layerOf.get(folderOf(d));
      if (from !== undefined && to !== undefined && to < from) upward.push(`${name(f)} → ${name(d)} (${folderOf(f)} is below ${folderOf(d)})`);
    }
  }
  assert.deepEqual(upward, []);
});

test('no import cycle between files', () => {
  assert.deepEqual(cycles(graph).map((c) => c.map(name).sort().join(' ↔ ')), []);
});

test('no import cycle between folders', () => {
  const folders = new Map<string, string[]>();
  const why = new Map<string, string>();
  for (const [f, deps] of graph) {
    const a = folderOf(f);
    const to = folders.get(a) ?? [];
    folders.set(a, to);
    for (const d of deps) {
      const b = folderOf(d);
      if (b === a) continue;
      if (!to.includes(b)) to.push(b);
      if (!why.has(`${a}→${b}`)) why.set(`${a}→${b}`, `${name(f)} → ${name(d)}`);
    }
  }
  const found = cycles(folders).map((c) => {
    const members = new Set(c);
    const edges = [...why].filter(([k]) => {
      const [a, b] = k.split('→') as [string, string];
      return members.has(a) && members.has(b);
    });
    return `${[...c].sort().join(' ↔ ')}: ${edges.map(([, e]) => e).join('; ')}`;
  });
  assert.deepEqual(found, []);
});
