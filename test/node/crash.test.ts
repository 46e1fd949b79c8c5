// The crash gate (issue 5 §5): a node as a child process takes concurrent writes, is
// killed with SIGKILL mid-load and restarted. Every acknowledged write must be readable
// with its token, no WAL object may be committed twice (no record appears twice in the
// log), and the workers must resume under new lease epochs. Then the same with a
// FaultyStore (503s, lost acknowledgements) and lost metastore acknowledgements.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { errors, decodeToken, encodeToken, mergeTokens, type MetaStore } from '../../src/meta/index.js';
import { FileStore, type Store } from '../../src/store/index.js';
import { FaultyStore } from '../../src/check/faulty-store.js';
import { LogReader } from '../../src/log/reader.js';
import { controlStoreFor } from '../../src/control/index.js';
import { KeyRing } from '../../src/crypto/keyring.js';
import { LocalKeyProvider, parseMasterKey } from '../../src/crypto/local.js';
import { EncryptingStore } from '../../src/crypto/encrypting-store.js';
import { MASTER_KEY_FILE } from '../../src/node/keys.js';
import { http, testNode, until } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const CLIENTS = 8;
const DOCS_PER_BATCH = 20;
/** How long the load runs before the kill. */
const LOAD_MS = 2_500;
/** Generous: at a load of 30 on two cores, a node started through tsx took over 30 s to listen. */
const START_DEADLINE_MS = 90_000;

interface Child {
  proc: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** Every node this file started: a failed assertion must not leave one running (the test would never end). */
const children = new Set<ChildProcess>();

async function startChild(dir: string): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'dev', '--data-dir', dir, '--port', '0', '--log-level', 'warn'], {
    cwd: ROOT,
    env: { ...process.env, LOAM_AUTH: 'none', LOAM_LEASE_TTL_MS: '1000', LOAM_GC_GRACE_MS: '120000', LOAM_MAINTENANCE_INTERVAL_MS: '200', LOAM_APPLY_POLL_MS: '100' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
  children.add(proc);
  void exited.then(() => children.delete(proc));
  let out = '';
  let err = '';
  proc.stderr!.on('data', (b: Buffer) => (err += b.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`node did not start within ${START_DEADLINE_MS} ms: ${err}`)), START_DEADLINE_MS);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve(m[1]!);
      }
    });
    void exited.then((code) => reject(new Error(`node exited with ${code} before listening: ${err}`)));
  });
  return { proc, url, exited };
}

interface Acked {
  token: string;
  docs: { id: string; client: number; seq: number; pad: string }[];
}

/** Concurrent writers until `stop` says so; returns acknowledged batches (errors are unknown outcomes). */
async function load(run: string, url: string, path: string, stop: () => boolean, maxBatches = 1_000_000): Promise<{ acked: Acked[]; failed: number }> {
  const acked: Acked[] = [];
  let failed = 0;
  let batches = 0;
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let seq = 0; !stop() && batches < maxBatches; seq++) {
        batches++;
        const docs = Array.from({ length: DOCS_PER_BATCH }, (_, j) => ({ id: `${run}${client}-${seq}-${j}`, client, seq, pad: 'x'.repeat(200) }));
        try {
          const r = await http(url, 'POST', path, { upserts: docs }, 10_000);
          if (r.status === 200) acked.push({ token: r.body.token, docs });
          else failed++;
        } catch {
          failed++;
        }
      }
    }),
  );
  return { acked, failed };
}

/** Every record of every partition of the stream, via the index: counts per key. */
async function logKeyCounts(meta: MetaStore, store: Store, ns: number, stream: number, partitions: number, keys?: KeyRing): Promise<Map<string, number>> {
  // The node's store and key ring: its log is sealed with encryption on (the default).
  const reader = new LogReader(meta, store, undefined, keys);
  const counts = new Map<string, number>();
  for (let p = 0; p < partitions; p++) {
    const h = (await meta.streamState(ns, stream)).heads[p]!;
    const recs = await reader.read(ns, stream, p, h.logStart, h.next);
    assert.equal(recs.length, h.next - h.logStart, `partition ${p}: dense offsets`);
    for (const r of recs) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
    if (process.env.DBG) {
      const idx = await meta.partitionIndex(ns, stream, p);
      for (const e of idx.entries) {
        const rs = await reader.entryRecords(e);
        if (rs.some((r) => (counts.get(r.key) ?? 0) > 1)) console.log(p, e.kind, e.path, e.start, e.end, e.byteStart, e.byteEnd, rs.filter((r) => (counts.get(r.key) ?? 0) > 1).map((r) => r.key).slice(0, 3));
      }
    }
  }
  return counts;
}

async function verifyAcked(url: string, base: string, acked: Acked[]): Promise<void> {
  // Every acknowledged document, through a query with the merged token of all writes…
  const token = encodeToken(mergeTokens(...acked.map((a) => decodeToken(a.token))));
  const seen = new Map<string, Record<string, unknown>>();
  let cursor: string | undefined;
  for (let page = 0; page < 10_000; page++) {
    const r = await http(url, 'POST', `${base}/query`, { limit: 1000, token, ...(cursor ? { cursor } : {}) });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    for (const d of r.body.documents) seen.set(d.id, d);
    cursor = r.body.next_cursor ?? undefined;
    if (!cursor) break;
  }
  for (const a of acked) for (const d of a.docs) assert.deepEqual(seen.get(d.id), d, `acknowledged ${d.id} is readable`);
  // …and point reads with each write's own token (a sample of every batch).
  for (const a of acked) {
    const d = a.docs[a.docs.length - 1]!;
    const r = await http(url, 'GET', `${base}/documents/${d.id}?token=${a.token}`);
    assert.equal(r.status, 200, `GET ${d.id} with its token`);
    assert.deepEqual(r.body, d);
  }
}

describe('crash gate', () => {
  const dirs: string[] = [];
  after(() => {
    for (const p of children) p.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  test('SIGKILL mid-load: every acknowledged write survives, nothing is committed twice, workers resume under new epochs', async (t) => {
    const dir = mkdtempSync(join(tmpdir(), 'loam-crash-'));
    dirs.push(dir);
    let node = await startChild(dir);
    const base = '/v1/namespaces/crash/collections/docs';
    assert.equal((await http(node.url, 'POST', '/v1/namespaces', { name: 'crash' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/crash/collections', { name: 'docs', primary_key: 'id', partitions: 4 })).status, 201);

    const t0 = Date.now();
    let killed = false;
    const loading = load('a', node.url, `${base}/documents`, () => killed);
    // Let the applier take its lease and run, then kill in the middle of the load.
    await sleep(LOAD_MS);
    node.proc.kill('SIGKILL');
    killed = true;
    const first = await loading;
    await node.exited;
    assert.ok(first.acked.length > 10, `acknowledged batches before the kill: ${first.acked.length}`);
    t.diagnostic(`before SIGKILL: ${first.acked.length} batches acknowledged, ${first.failed} with an unknown outcome`);
    assert.ok(Date.now() - t0 < 60_000);

    // The lease the dead node held.
    const probe = openEmbedded({ path: join(dir, 'meta.db') });
    const ns = await probe.namespaceByName('default', 'crash');
    const coll = await probe.collectionByName(ns.id, 'docs');
    const before = await probe.lease(ns.id, `applier/${coll.id}`);
    assert.ok(before && before.epoch >= 1, 'the applier ran under a lease before the kill');
    await probe.close();

    node = await startChild(dir);
    try {
      // More writes after the restart, then check everything.
      const second = await load('b', node.url, `${base}/documents`, () => false, 40);
      assert.ok(second.acked.length > 0);
      const acked = [...first.acked, ...second.acked];
      await verifyAcked(node.url, base, acked);

      const meta = openEmbedded({ path: join(dir, 'meta.db') });
      // loam dev seals its data (encryption on by default, the master key in its data dir).
      const control = await controlStoreFor(meta);
      const keys = new KeyRing({ control, provider: new LocalKeyProvider(parseMasterKey(readFileSync(join(dir, MASTER_KEY_FILE), 'utf8'), MASTER_KEY_FILE)), encryptNewNamespaces: false });
      const store = new EncryptingStore(new FileStore({ root: join(dir, 'objects') }), keys);
      try {
        const counts = await logKeyCounts(meta, store, ns.id, coll.streamId, coll.partitions, keys);
        for (const [k, n] of counts) assert.equal(n, 1, `${k} appears ${n} times in the log: a WAL object was committed twice`);
        for (const a of acked) for (const d of a.docs) assert.equal(counts.get(d.id), 1, `${d.id} is in the log once`);
        // Workers resume under a new epoch, and catch up (eventual reads see the last write).
        const lease = await until(async () => {
          const l = await meta.lease(ns.id, `applier/${coll.id}`);
          return l && l.epoch > before!.epoch ? l : null;
        }, 20_000);
        assert.notEqual(lease!.owner, before!.owner);
        const last = second.acked[second.acked.length - 1]!.docs[0]!;
        await until(async () => (await http(node.url, 'GET', `${base}/documents/${last.id}?consistency=eventual`)).status === 200, 20_000);
      } finally {
        keys.close();
        await control.close();
        await meta.close();
        await store.close();
      }
    } finally {
      node.proc.kill('SIGTERM');
      assert.equal(await node.exited, 0, 'a clean shutdown on SIGTERM');
    }
  });

  test('with a FaultyStore (503s, lost acks, timeouts) and lost metastore acks: no acknowledged write lost, none duplicated', async (t) => {
    let faultsOn = false;
    let n = 0;
    let faulty: FaultyStore | undefined;
    const node = await testNode({
      wrap: (s) =>
        (faulty = new FaultyStore(s, {
          seed: 42,
          random: { probability: 0.3, faults: ['slowDown', 'lostAck', 'serverError', 'timeout', 'conflict'], methods: ['put', 'get'], maxDelayMs: 20 },
        })),
      meta: {
        faults: (point, op) => {
          // Every 7th commit loses its acknowledgement after it applied.
          if (faultsOn && op === 'commitWal' && point === 'AfterCommit' && ++n % 7 === 0) throw errors.unknown('injected: acknowledgement lost after COMMIT');
        },
      },
    });
    try {
      const base = '/v1/namespaces/f/collections/docs';
      assert.equal((await http(node.url, 'POST', '/v1/namespaces', { name: 'f' })).status, 201);
      assert.equal((await http(node.url, 'POST', '/v1/namespaces/f/collections', { name: 'docs', primary_key: 'id', partitions: 3 })).status, 201);
      faultsOn = true;
      const r = await load('f', node.url, `${base}/documents`, () => false, 120);
      assert.ok(r.acked.length > 0, 'some writes were acknowledged');
      assert.ok(faulty!.injected.length > 0, 'faults were injected');
      t.diagnostic(`${r.acked.length} batches acknowledged, ${r.failed} refused; ${faulty!.injected.length} store faults, ${Math.floor(n / 7)} lost commit acks`);
      await verifyAcked(node.url, base, r.acked);
      faultsOn = false;
      const ns = await node.meta.namespaceByName('default', 'f');
      const coll = await node.meta.collectionByName(ns.id, 'docs');
      const counts = await logKeyCounts(node.meta, node.store, ns.id, coll.streamId, coll.partitions, node.keys ?? undefined);
      for (const [k, c] of counts) assert.equal(c, 1, `${k} appears ${c} times in the log`);
      for (const a of r.acked) for (const d of a.docs) assert.equal(counts.get(d.id), 1);
    } finally {
      await node.cleanup();
    }
  });
});
