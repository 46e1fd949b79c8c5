// The end checks of a soak or a crash gate, run with every toxic removed (issue 22): every
// acknowledged write is readable with its token on every node; no WAL object was committed
// twice (no key twice in the log, no object twice in a partition's index); offsets are dense;
// pointer versions are dense; GC deleted nothing still referenced.
import { decodeToken, encodeToken, linkPointerKey, mergeTokens, type MetaStore } from '../../src/meta/index.js';
import { openMetastore } from '../../src/node/backends.js';
import { isStoreError, openStore, type Store } from '../../src/store/index.js';
import { LogReader } from '../../src/log/reader.js';
import { Manifests } from '../../src/collection/manifest.js';
import { REQUEST_DEADLINE_MS, type Acked } from './load.js';
import type { World } from './cluster.js';

/** Pages of a query the check follows, at most (every loop a bound). */
const MAX_QUERY_PAGES = 10_000;
const QUERY_PAGE = 1_000;
/** Manifests walked back from the pointer, at most. */
const MAX_MANIFEST_WALK = 10_000;

export interface EndReport {
  /** Acknowledged documents not readable (with their token) on some node, or not in the log. */
  lost: string[];
  /** Keys the log holds more than once: a WAL object committed twice. */
  duplicated: string[];
  /** Any other broken invariant (offsets, pointer versions, a referenced object missing). */
  problems: string[];
  logRecords: number;
  pointerVersion: number;
  /** Objects the current manifest and the partition indexes reference (all present). */
  referenced: number;
  /** Their paths. */
  referencedPaths: Set<string>;
  /** Objects GC deleted during the run (from the nodes' metrics; filled in by the caller). */
  gcDeleted: number;
}

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
  const t = await r.text();
  return { status: r.status, body: t ? JSON.parse(t) : null };
}

async function query(node: string, path: string, token: string): Promise<Map<string, unknown>> {
  const seen = new Map<string, unknown>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_QUERY_PAGES; page++) {
    const r = await fetch(`${node}${path}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ limit: QUERY_PAGE, token, ...(cursor ? { cursor } : {}) }),
      signal: AbortSignal.timeout(REQUEST_DEADLINE_MS * 4),
    });
    const body = (await r.json()) as { documents: { id: string }[]; next_cursor?: string | null; error?: unknown };
    if (r.status !== 200) throw new Error(`query on ${node}: ${r.status} ${JSON.stringify(body)}`);
    for (const d of body.documents) seen.set(d.id, d);
    cursor = body.next_cursor ?? undefined;
    if (!cursor) return seen;
  }
  throw new Error(`query on ${node}: more than ${MAX_QUERY_PAGES} pages`);
}

export async function exists(store: Store, path: string): Promise<boolean> {
  try {
    await store.head(path);
    return true;
  } catch (e) {
    if (isStoreError(e) && e.code === 'NotFound') return false;
    throw e;
  }
}

/** Opens the world's metastore and store directly (not through the proxies). */
export async function openDirect(world: World): Promise<{ meta: MetaStore; store: Store; close(): Promise<void> }> {
  for (const [k, v] of Object.entries(world.env)) process.env[k] ??= v;
  const { meta } = await openMetastore(world.directMetastore);
  const store = openStore(world.directStore, world.env.AWS_ACCESS_KEY_ID ? { s3: { credentials: { accessKeyId: world.env.AWS_ACCESS_KEY_ID, secretAccessKey: world.env.AWS_SECRET_ACCESS_KEY! } } } : {});
  return {
    meta,
    store,
    async close() {
      await store.close();
      await meta.close();
    },
  };
}

export async function endChecks(o: { world: World; nodes: string[]; nsName: string; collName: string; acked: Acked[] }): Promise<EndReport> {
  const path = `/v1/namespaces/${o.nsName}/collections/${o.collName}`;
  const report: EndReport = { lost: [], duplicated: [], problems: [], logRecords: 0, pointerVersion: 0, referenced: 0, referencedPaths: new Set(), gcDeleted: 0 };
  const lost = new Set<string>();

  // 1. Every acknowledged write on every node: a query with the merged token of all writes,
  //    and each batch's last document by a point read with the batch's own token.
  if (o.acked.length > 0) {
    const token = encodeToken(mergeTokens(...o.acked.map((a) => decodeToken(a.token))));
    for (const node of o.nodes) {
      const seen = await query(node, path, token);
      for (const a of o.acked) {
        for (const d of a.docs) {
          if (JSON.stringify(seen.get(d.id)) !== JSON.stringify(d)) lost.add(`${d.id} (query on ${node})`);
        }
        const d = a.docs[a.docs.length - 1]!;
        const r = await getJson(`${node}${path}/documents/${d.id}?token=${encodeURIComponent(a.token)}`);
        if (r.status !== 200 || JSON.stringify(r.body) !== JSON.stringify(d)) lost.add(`${d.id} (GET with its token on ${node}: ${r.status})`);
      }
    }
  }

  // 2. The log, read directly: dense offsets, no object twice in a partition, no key twice.
  const direct = await openDirect(o.world);
  try {
    const { meta, store } = direct;
    const ns = await meta.namespaceByName('default', o.nsName);
    const coll = await meta.collectionByName(ns.id, o.collName);
    const reader = new LogReader(meta, store);
    const counts = new Map<string, number>();
    const referenced = new Set<string>();
    for (let p = 0; p < coll.partitions; p++) {
      const h = (await meta.streamState(ns.id, coll.streamId)).heads[p]!;
      let from = h.logStart;
      const paths = new Set<string>();
      for (let page = 0; page < MAX_QUERY_PAGES && from < h.next; page++) {
        const idx = await meta.partitionIndex(ns.id, coll.streamId, p, { from });
        for (const e of idx.entries) {
          if (e.start !== from) report.problems.push(`partition ${p}: index gap or overlap at ${from} (entry starts at ${e.start})`);
          if (e.end - e.start !== e.records) report.problems.push(`partition ${p}: entry ${e.path} covers ${e.end - e.start} offsets for ${e.records} records`);
          if (paths.has(e.path)) report.problems.push(`partition ${p}: ${e.path} is indexed twice (committed twice)`);
          paths.add(e.path);
          referenced.add(e.path);
          from = e.end;
        }
        if (idx.nextFrom === undefined) break;
      }
      if (from !== h.next) report.problems.push(`partition ${p}: the index ends at ${from}, the head at ${h.next}`);
      const recs = await reader.read(ns.id, coll.streamId, p, h.logStart, h.next);
      if (recs.length !== h.next - h.logStart) report.problems.push(`partition ${p}: ${recs.length} records for offsets ${h.logStart}..${h.next} (not dense)`);
      report.logRecords += recs.length;
      for (const r of recs) counts.set(r.key, (counts.get(r.key) ?? 0) + 1);
    }
    for (const [k, n] of counts) if (n > 1) report.duplicated.push(`${k} ×${n}`);
    for (const a of o.acked) for (const d of a.docs) if (!counts.has(d.id)) lost.add(`${d.id} (not in the log)`);

    // 3. Pointer versions dense along the manifest chain that GC has kept.
    const ptr = await meta.pointer(ns.id, linkPointerKey(coll.linkId));
    if (ptr) {
      report.pointerVersion = ptr.version;
      const manifests = new Manifests(store);
      let m = await manifests.load(ptr.value);
      referenced.add(ptr.value);
      for (const f of m.files) referenced.add(f.path);
      if (m.version !== ptr.version) report.problems.push(`the pointer is at version ${ptr.version}, its manifest says ${m.version}`);
      for (let i = 0; i < MAX_MANIFEST_WALK && m.parent; i++) {
        if (!(await exists(store, m.parent))) break; // collected: older than the floor
        const parent = await manifests.load(m.parent);
        if (parent.version !== m.version - 1) report.problems.push(`manifest version ${m.version}'s parent has version ${parent.version} (not dense)`);
        m = parent;
      }
    }

    // 4. GC deleted nothing still referenced.
    for (const p of referenced) if (!(await exists(store, p))) report.problems.push(`${p} is referenced but was deleted`);
    report.referenced = referenced.size;
    report.referencedPaths = referenced;
  } finally {
    await direct.close();
  }
  report.lost = [...lost];
  return report;
}
