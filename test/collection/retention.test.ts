// A collection's log retention end to end, on real nodes with short, validated timings (one
// gateway node without workers, then a worker node on the same metastore and bucket): the
// log below what every retained manifest applied is trimmed, its segment retired, its WAL
// objects and segment deleted by GC, never more; a retention of null keeps it all; the
// default keeps 24 h. Strong, eventual and query reads, and tokens taken before the trim,
// stay right throughout.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { linkPointerKey, type Collection, type IndexEntry } from '../../src/meta/index.js';
import { DEFAULT_COLLECTION_LOG_RETENTION_MS } from '../../src/meta/limits.js';
import { MemoryStore } from '../../src/store/index.js';
import { LogReader } from '../../src/log/reader.js';
import { retainPartition, SEGMENT_MIN_ENTRIES } from '../../src/workers/segmenter.js';
import { http, testNode, until, type TestNode } from '../node/helpers.js';

const HOUR = 3_600_000;
/** Writes before the workers start: enough WAL chunks for a segment. */
const FIRST = SEGMENT_MIN_ENTRIES + 4;
/** Writes once they run. */
const LATER = 4;
const RETENTION_MS = 1_000;

interface Written {
  /** id → the value a read must see, or null for deleted. */
  expect: Map<string, number | null>;
  /** Tokens of every write, with the id and value it wrote. */
  tokens: { token: string; id: string; value: number | null }[];
}

describe('log retention end to end: trimmed below what every retained manifest applied, retired, collected; reads and tokens stay right', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-retention-'));
  const store = new MemoryStore();
  let gateway: TestNode;
  let worker: TestNode | undefined;
  const colls = new Map<string, Collection>();
  const written = new Map<string, Written>();
  const base = (c: string) => `/v1/namespaces/r/collections/${c}`;

  async function write(c: string, body: { upserts?: { id: string; v: number }[]; deletes?: string[] }): Promise<void> {
    const w = await http(gateway.url, 'POST', `${base(c)}/documents`, body);
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const s: Written = written.get(c) ?? { expect: new Map(), tokens: [] };
    for (const d of body.upserts ?? []) {
      s.expect.set(d.id, d.v);
      s.tokens.push({ token: w.body.token, id: d.id, value: d.v });
    }
    for (const id of body.deletes ?? []) {
      s.expect.set(id, null);
      s.tokens.push({ token: w.body.token, id, value: null });
    }
    written.set(c, s);
  }

  /**
   * Every way of reading agrees with what was written: strong gets, gets with each write's
   * token, queries; and eventual gets and queries once everything is applied.
   */
  async function readsRight(c: string, allApplied = true): Promise<void> {
    const s = written.get(c)!;
    for (const [id, v] of s.expect) {
      for (const q of allApplied ? ['', '?consistency=eventual'] : ['']) {
        const r = await http(gateway.url, 'GET', `${base(c)}/documents/${id}${q}`);
        if (v === null) assert.equal(r.status, 404, `${c}/${id}${q} was deleted`);
        else assert.deepEqual([r.status, r.body.v], [200, v], `${c}/${id}${q}`);
      }
    }
    // Each token (most from writes whose log is trimmed now) still gives a read at least that fresh.
    for (const t of s.tokens) {
      const r = await http(gateway.url, 'GET', `${base(c)}/documents/${t.id}?token=${encodeURIComponent(t.token)}`);
      const now = s.expect.get(t.id)!;
      if (now === null) assert.equal(r.status, 404, `${c}/${t.id} with a token`);
      else assert.deepEqual([r.status, r.body.v], [200, now], `${c}/${t.id} with a token`);
    }
    const live = [...s.expect].filter(([, v]) => v !== null).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const consistency of allApplied ? ['strong', 'eventual'] : ['strong']) {
      const q = await http(gateway.url, 'POST', `${base(c)}/query`, { limit: 1000, consistency, token: s.tokens.at(-1)!.token });
      assert.equal(q.status, 200, JSON.stringify(q.body));
      assert.deepEqual(q.body.documents.map((d: { id: string; v: number }) => [d.id, d.v]), live, `${c}: ${consistency} query`);
    }
    const f = await http(gateway.url, 'POST', `${base(c)}/query`, { filter: { v: { $gte: 100 } }, limit: 1000 });
    assert.deepEqual(f.body.documents.map((d: { id: string }) => d.id), live.filter(([, v]) => v! >= 100).map(([id]) => id), `${c}: filtered query`);
  }

  const index = async (c: string) => {
    const k = colls.get(c)!;
    return gateway.meta.partitionIndex(k.ns, k.streamId, 0);
  };
  /** The manifest the pointer's version `v` names, and what it applied. */
  const applied = async (c: string, v: number) => {
    const k = colls.get(c)!;
    const pv = await gateway.meta.pointerVersion(k.ns, linkPointerKey(k.linkId), v);
    return pv ? (await gateway.reader!.manifests.load(pv.value)).applied[0]! : null;
  };
  const gone = async (path: string) =>
    gateway.rawStore.head(path).then(
      () => false,
      () => true,
    );

  before(async () => {
    // No workers yet: everything written first is applied by one manifest, the first version.
    gateway = await testNode({ dir, store, config: { roles: ['log', 'query'] } });
    assert.equal((await http(gateway.url, 'POST', '/v1/namespaces', { name: 'r' })).status, 201);
    for (const [name, retention] of [
      ['short', { ms: RETENTION_MS, bytes: null }],
      ['forever', undefined],
      ['default', undefined],
    ] as const) {
      const r = await http(gateway.url, 'POST', '/v1/namespaces/r/collections', { name, primary_key: 'id', partitions: 1, ...(retention ? { retention } : {}) });
      assert.equal(r.status, 201, JSON.stringify(r.body));
    }
    const kept = await http(gateway.url, 'PUT', `${base('forever')}/retention`, { ms: null, bytes: null });
    assert.deepEqual(kept.body.retention, { ms: null, bytes: null });
    assert.deepEqual((await http(gateway.url, 'GET', base('default'))).body.retention, { ms: DEFAULT_COLLECTION_LOG_RETENTION_MS, bytes: null });
    const ns = await gateway.meta.namespaceByName('default', 'r');
    for (const name of ['short', 'forever', 'default']) colls.set(name, await gateway.meta.collectionByName(ns.id, name));
  });
  after(async () => {
    await worker?.cleanup();
    await gateway?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the log below the first manifest is trimmed (retention 1 s), its segment retired and collected with its WAL objects; later log stays', async () => {
    // One document per write: one WAL chunk each. d2 is overwritten and d3 deleted.
    for (const c of ['short', 'forever', 'default']) {
      for (let i = 0; i < FIRST; i++) await write(c, { upserts: [{ id: `d${String(i).padStart(2, '0')}`, v: i }] });
      await write(c, { upserts: [{ id: 'd02', v: 102 }] });
      await write(c, { deletes: ['d03'] });
    }
    const walsOf = new Map<string, string[]>();
    for (const c of ['short', 'forever', 'default']) {
      const idx = await index(c);
      assert.equal(idx.logStart, 0);
      assert.ok(idx.entries.length >= SEGMENT_MIN_ENTRIES && idx.entries.every((e) => e.kind === 'wal'));
      walsOf.set(c, [...new Set(idx.entries.map((e) => e.path))]);
      await readsRight(c, false);
    }
    const headShort = (await index('short')).next;

    worker = await testNode({ dir, store, config: { roles: ['worker'] } });
    // The first manifest applies the whole first phase: the retention floor for the next 24 h.
    await until(async () => (await applied('short', 1)) === headShort, 15_000);
    // The segmenter turns the chunks into a segment; after RETENTION_MS the retention trims it
    // (the whole log the first manifest applied), which retires the segment.
    let segments: IndexEntry[] = [];
    await until(async () => {
      const idx = await index('short');
      const s = idx.entries.filter((e) => e.kind === 'segment');
      if (s.length > 0) segments = s;
      return segments.length > 0;
    }, 15_000, 10);
    await until(async () => (await index('short')).logStart === headShort, 15_000);
    const k = colls.get('short')!;
    for (const s of segments) assert.equal(await gateway.meta.segmentReferenced(k.ns, k.streamId, s.path), false, `${s.path} is retired`);
    await readsRight('short');

    // More writes, applied by later manifests and older than the retention soon: the first
    // manifest is still retained (24 h of time travel), so nothing it did not apply is trimmed.
    for (let i = 0; i < LATER; i++) await write('short', { upserts: [{ id: `e${i}`, v: 100 + i }] });
    await write('short', { upserts: [{ id: 'd00', v: 200 }], deletes: ['d01'] });
    const headLater = (await index('short')).next;
    await until(async () => {
      const h = await gateway.meta.collectionHead(k.ns, k.id);
      return h.pointer !== null && (await gateway.reader!.manifests.load(h.pointer.value)).applied[0] === headLater;
    }, 15_000);
    await new Promise((r) => setTimeout(r, 2 * RETENTION_MS + 500));
    const after = await index('short');
    assert.equal(after.logStart, headShort, 'trimmed only below what the oldest retained manifest applied');
    assert.equal(after.entries[0]?.start, headShort);

    // GC (every 200 ms here, after the 2.5 s grace) deletes the segment and every WAL object
    // of the first phase; the later log's objects stay.
    const doomed = [...walsOf.get('short')!, ...segments.map((s) => s.path)];
    await until(async () => (await Promise.all(doomed.map(gone))).every(Boolean), 20_000, 100);
    for (const p of walsOf.get('short')!) assert.equal((await gateway.meta.objectRef(p))?.refs ?? 0, 0, `${p} has no reference left`);
    for (const e of after.entries) assert.equal(await gone(e.path), false, `${e.path} is still in the log and stays`);
    await readsRight('short');
  });

  test('retention null keeps the whole log; the default keeps what is younger than 24 h and trims what is older', async () => {
    const w = worker!;
    const heads = new Map<string, number>();
    for (const c of ['forever', 'default']) {
      heads.set(c, (await index(c)).next);
      await until(async () => (await applied(c, 1)) === heads.get(c), 15_000);
      await until(async () => (await index(c)).entries.some((e) => e.kind === 'segment'), 15_000);
    }
    // The same passes and GC that trimmed `short` ran over these.
    await new Promise((r) => setTimeout(r, 2 * RETENTION_MS + 3_000));
    for (const c of ['forever', 'default']) {
      const idx = await index(c);
      assert.equal(idx.logStart, 0, `${c}: nothing trimmed`);
      for (const e of idx.entries) assert.equal(await gone(e.path), false, `${c}: ${e.path} stays`);
      await readsRight(c);
    }

    // A retention pass 25 h from now, with what the workers pass it (the stream, the floor's
    // applied offset, the stream's lease): the default trims the log the first manifest
    // applied, a retention of null nothing.
    const log = new LogReader(w.meta, w.store);
    for (const c of ['forever', 'default']) {
      const k = colls.get(c)!;
      const fence = (await w.workers!.leases.hold(k.ns, `segmenter/${k.streamId}`))!;
      const stream = await w.meta.stream(k.ns, k.streamId);
      const cut = await retainPartition({ meta: w.meta, store: w.store, log }, stream, 0, (await applied(c, 1))!, fence, Date.now() + 25 * HOUR);
      if (c === 'forever') assert.equal(cut, null, 'retention null: the log is kept for ever');
      else assert.equal(cut, heads.get(c), 'the default retention: after 24 h the applied log is trimmed');
      assert.equal((await index(c)).logStart, c === 'forever' ? 0 : heads.get(c));
      await readsRight(c);
    }
  });
});
