// The S3 fault matrix (spec §4.4): the data plane's store calls — a write's WAL put, a read's
// GET, the applier's manifest put, the segmenter's segment put, GC's delete — crossed with
// FaultyStore's faults (409, 503 SlowDown, 500, timeout, lost acknowledgement, delay) and the
// attempt they hit (the first, or the first and its retry), each run through a real node.
// Each cell's outcome is what a user sees; the same table must come out over every provider
// (memory, MinIO behind Toxiproxy): only timing may differ.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FaultKind, FaultRule, FaultyStore } from '../../src/check/faulty-store.js';
import type { Role } from '../../src/node/config.js';
import { SEGMENT_MIN_ENTRIES } from '../../src/workers/segmenter.js';
import { isStoreError, type Store } from '../../src/store/index.js';
import { http, type TestNode } from '../node/helpers.js';

export const MATRIX_FAULTS: readonly FaultKind[] = ['conflict', 'slowDown', 'serverError', 'timeout', 'lostAck', 'delay'];
export const MATRIX_ATTEMPTS = ['first', 'first and second'] as const;
export type Attempt = (typeof MATRIX_ATTEMPTS)[number];
/** A worker's effect (apply, swap, delete) after a fault shows within this. */
const EFFECT_DEADLINE_MS = 30_000;
const DELAY_MS = 50;

export interface CellCtx {
  node: TestNode;
  faulty: FaultyStore;
  raw: Store;
  /** A fresh collection for this cell: its base path. */
  base: string;
  ns: string;
  coll: string;
}

export interface MatrixGroup {
  name: string;
  /** The node's roles: without workers, no background call can take the scripted fault. */
  roles: Role[];
  rule: Pick<FaultRule, 'method' | 'path'>;
  /** Runs before the rule is armed. */
  prepare?(c: CellCtx): Promise<void>;
  /** Runs the cell with the rule armed; returns the outcome a user sees. */
  run(c: CellCtx): Promise<string>;
}

async function until(fn: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await fn()) return true;
    await sleep(50);
  }
  return false;
}

async function exists(store: Store, path: string): Promise<boolean> {
  try {
    await store.head(path);
    return true;
  } catch (e) {
    if (isStoreError(e, 'NotFound')) return false;
    throw e;
  }
}

const doc = (id: string) => ({ id, v: id });

export const MATRIX_GROUPS: MatrixGroup[] = [
  {
    name: 'write (WAL put)',
    roles: ['log', 'query'],
    rule: { method: 'put', path: /^wal\// },
    async run(c) {
      const w = await http(c.node.url, 'POST', `${c.base}/documents`, { upserts: [doc('a')] });
      c.faulty.clear();
      const r = await http(c.node.url, 'GET', `${c.base}/documents/a`);
      return `write ${w.status}, then read ${r.status}`;
    },
  },
  {
    name: 'read (GET)',
    roles: ['log', 'query'],
    rule: { method: 'get' },
    async prepare(c) {
      await http(c.node.url, 'POST', `${c.base}/documents`, { upserts: [doc('a')] });
    },
    async run(c) {
      const r = await http(c.node.url, 'GET', `${c.base}/documents/a`);
      return `read ${r.status}${r.status === 200 && JSON.stringify(r.body) === JSON.stringify(doc('a')) ? ' (the document)' : ''}`;
    },
  },
  {
    name: 'apply (manifest put)',
    roles: ['log', 'query', 'worker'],
    rule: { method: 'put', path: /\/manifest\// },
    async run(c) {
      const w = await http(c.node.url, 'POST', `${c.base}/documents`, { upserts: [doc('a')] });
      const applied = await until(async () => (await http(c.node.url, 'GET', `${c.base}/documents/a?consistency=eventual`)).status === 200, EFFECT_DEADLINE_MS);
      return `write ${w.status}; ${applied ? 'applied' : 'not applied'}`;
    },
  },
  {
    name: 'segment (segment put)',
    roles: ['log', 'query', 'worker'],
    rule: { method: 'put', path: /\.seg$/ },
    async run(c) {
      // Enough WAL entries in one partition for the segmenter to run.
      for (let i = 0; i < SEGMENT_MIN_ENTRIES + 1; i++) await http(c.node.url, 'POST', `${c.base}/documents`, { upserts: [doc(`s${i}`)] });
      const ns = await c.node.meta.namespaceByName('default', c.ns);
      const coll = await c.node.meta.collectionByName(ns.id, c.coll);
      const swapped = await until(async () => (await c.node.meta.partitionIndex(ns.id, coll.streamId, 0)).entries.some((e) => e.kind === 'segment'), EFFECT_DEADLINE_MS);
      const r = await http(c.node.url, 'GET', `${c.base}/documents/s0`);
      return `${swapped ? 'swapped' : 'not swapped'}; read ${r.status}`;
    },
  },
  {
    name: 'gc (delete)',
    roles: ['log', 'query', 'worker'],
    rule: { method: 'delete' },
    async run(c) {
      const before = c.faulty.injected.length;
      for (let i = 0; i < SEGMENT_MIN_ENTRIES + 1; i++) await http(c.node.url, 'POST', `${c.base}/documents`, { upserts: [doc(`g${i}`)] });
      // The first delete of this cell that took the fault: its object is deleted by a later attempt or pass.
      const hit = await until(async () => c.faulty.injected.length > before, EFFECT_DEADLINE_MS);
      if (!hit) return 'no delete reached the store';
      const path = c.faulty.injected[before]!.path!;
      const gone = await until(async () => !(await exists(c.raw, path)), EFFECT_DEADLINE_MS);
      const r = await http(c.node.url, 'GET', `${c.base}/documents/g0`);
      return `${gone ? 'deleted' : 'not deleted'}; read ${r.status}`;
    },
  },
];

export interface MatrixCell {
  group: string;
  fault: FaultKind;
  attempt: Attempt;
  outcome: string;
  /** How many times the fault fired (not in the table: retries may add calls by timing). */
  fired: number;
}

/** Arms one rule for the cell (on the first call it watches, or the first two). */
export function armRule(faulty: FaultyStore, g: MatrixGroup, fault: FaultKind, attempt: Attempt): void {
  const nth = attempt === 'first' ? [1] : [1, 2];
  faulty.script({ ...g.rule, nth, fault, ...(fault === 'delay' ? { delayMs: DELAY_MS } : {}) });
}

export function renderMatrix(cells: MatrixCell[]): string {
  const lines = [
    '# S3 fault matrix',
    '',
    'One row per data-plane store call and attempt, one column per fault (src/check/faulty-store.ts).',
    'The same table over every provider (test/store/fault-matrix.test.ts); only timing may differ.',
    '',
    `| call | attempt | ${MATRIX_FAULTS.join(' | ')} |`,
    `| --- | --- | ${MATRIX_FAULTS.map(() => '---').join(' | ')} |`,
  ];
  for (const g of MATRIX_GROUPS) {
    for (const a of MATRIX_ATTEMPTS) {
      const row = MATRIX_FAULTS.map((f) => cells.find((c) => c.group === g.name && c.fault === f && c.attempt === a)?.outcome ?? '(not run)');
      lines.push(`| ${g.name} | ${a} | ${row.join(' | ')} |`);
    }
  }
  return lines.join('\n') + '\n';
}
