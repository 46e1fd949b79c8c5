// `npm run bench -- erasure [--bytes N] [--keys N] [--encryption on|off]`
//
// purge_s (issue 19): erasing 1,000 keys from a 1 GiB collection, from the erase request to
// the erasure's `complete` phase (spec §9: purge, trim, collect, evict). One node (`loam dev`:
// embedded metastore, file store) in a child process with short, validated intervals; the
// collection is loaded first over HTTP (1 KiB documents, 8 partitions) and applied, then one
// erase request names keys spread evenly over everything written.
//
// Setup takes most of the run: loading and applying 1 GiB is about 10^6 documents, several
// minutes on the 2-core machine (9.5 min at load 10-27; setup_s says how long it took). --bytes makes it smaller.
//
// Baseline, same run: rewriting the collection's data files once on the same disk (read,
// write a copy, fsync, delete the copy), the least a purge that rewrites every data file
// holding an erased key can cost: ratio = purge_s ÷ that. The erasure also waits out the
// configured grace and pass intervals (fixed_waits_s), which no machine makes shorter.
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync, mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { line, raiseQuotas, request, round, startChildNode } from './ingest.js';

/** The size: a 1 GiB collection, 1,000 keys. */
export const DEFAULT_BYTES = 1024 ** 3;
export const DEFAULT_KEYS = 1_000;
const DOC_BYTES = 1_024;
const BATCH = 100;
const CLIENTS = 16;
const PARTITIONS = 8;
/** Loading and applying may take at most this long (every wait has a deadline). */
export const SETUP_DEADLINE_MS = 3_600_000;
/** The erasure must complete within this (its own deadline is days; the bench's is not). */
export const PURGE_DEADLINE_MS = 3_600_000;
const POLL_MS = 200;
/** Short intervals the erasure waits on (each validated like any setting). */
const FAST_ENV = {
  LOAM_ERASURE_INTERVAL_MS: '200',
  // GC's grace must exceed twice the lease TTL (no slow writer's object collected under it).
  LOAM_LEASE_TTL_MS: '1000',
  LOAM_GC_GRACE_MS: '2500',
  LOAM_GC_INTERVAL_MS: '200',
  LOAM_MAINTENANCE_INTERVAL_MS: '200',
  LOAM_SEGMENT_MIN_AGE_MS: '0',
};
const FIXED_WAITS_S = (Number(FAST_ENV.LOAM_GC_GRACE_MS) + Number(FAST_ENV.LOAM_GC_INTERVAL_MS) + 4 * Number(FAST_ENV.LOAM_ERASURE_INTERVAL_MS)) / 1000;

function metricSum(text: string, name: string): number {
  let v = 0;
  for (const l of text.split('\n')) if (l.startsWith(name + ' ') || l.startsWith(name + '{')) v += Number(l.slice(l.lastIndexOf(' ') + 1));
  return v;
}

/** A document's primary key: client, request counter, index in the batch. */
const idOf = (c: number, i: number, j: number) => `d${c}-${i}-${j}`;

/**
 * A batch of BATCH documents of about DOC_BYTES each, like the ingest bench's (padding that
 * deflates to almost nothing). Documents that do not deflate are not used: with them the
 * applier rewrites the whole data file every round, so loading 16 MiB of random documents
 * took minutes to apply and the setup, not the purge, would be measured (docs/benchmarks.md).
 */
function batchBody(c: number, i: number): string {
  const docs: string[] = [];
  const pad = 'x'.repeat(DOC_BYTES - 64);
  for (let j = 0; j < BATCH; j++) docs.push(`{"id":"${idOf(c, i, j)}","n":${j},"pad":"${pad}"}`);
  return `{"upserts":[${docs.join(',')}]}`;
}

/** Every file under `dir` whose path contains `part`. */
function filesUnder(dir: string, part: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => f.includes(part));
}

/** Seconds to rewrite these files once: read, write a copy, fsync it, delete it. */
function rewriteSeconds(files: string[], scratch: string): number {
  const t0 = performance.now();
  for (const f of files) {
    const bytes = readFileSync(f);
    const copy = join(scratch, 'copy');
    const fd = openSync(copy, 'w');
    writeSync(fd, bytes);
    fsyncSync(fd);
    closeSync(fd);
    rmSync(copy);
  }
  return (performance.now() - t0) / 1000;
}

async function until<T>(what: string, deadlineMs: number, fn: () => Promise<T | null>): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await fn();
    if (v !== null) return v;
    if (Date.now() > end) throw new Error(`${what}: not done within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

export async function main(argv: string[]): Promise<void> {
  const o = new Command()
    .name('bench erasure')
    .description('purge_s: erase --keys keys from a --bytes collection, request to complete (issue 19). Setup (load and apply) takes minutes per GiB.')
    .option('--bytes <n>', 'bytes of documents to load first (default 1 GiB: the issue\'s size; e.g. 67108864 for a quick run)', String(DEFAULT_BYTES))
    .option('--keys <n>', 'keys erased in the one request (at most 1,000: MAX_ERASE_KEYS)', String(DEFAULT_KEYS))
    .addOption(new Option('--encryption <mode>', "the node's envelope encryption (on: the default)").choices(['on', 'off']).default('on'))
    .parse(['node', 'erasure', ...argv])
    .opts<{ bytes: string; keys: string; encryption: 'on' | 'off' }>();
  const target = Number(o.bytes);
  const keys = Number(o.keys);
  if (!(Number.isInteger(target) && target >= DOC_BYTES * BATCH)) throw new Error(`--bytes: an integer of at least ${DOC_BYTES * BATCH}; got ${o.bytes}`);
  if (!(Number.isInteger(keys) && keys >= 1 && keys <= DEFAULT_KEYS)) throw new Error(`--keys: 1..${DEFAULT_KEYS}; got ${o.keys}`);
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-erasure-'));
  const node = await startChildNode(dir, { ...FAST_ENV, ...(o.encryption === 'off' ? { LOAM_KEY_PROVIDER: 'none', LOAM_ENCRYPTION: 'off' } : {}) });
  try {
    await raiseQuotas(node.port);
    await request(node.port, 'POST', '/v1/namespaces', JSON.stringify({ name: 'bench' }));
    const made = await request(node.port, 'POST', '/v1/namespaces/bench/collections', JSON.stringify({ name: 'docs', primary_key: 'id', partitions: PARTITIONS }));
    if (made.status !== 201) throw new Error(`creating the collection: ${made.status} ${made.body}`);
    const coll = JSON.parse(made.body) as { id: number };
    const ns = (JSON.parse((await request(node.port, 'GET', '/v1/namespaces/bench')).body) as { id: number }).id;
    const path = '/v1/namespaces/bench/collections/docs/documents';

    // Setup: load `target` bytes of documents, then wait until every record is applied.
    const t0 = performance.now();
    const written: [number, number][] = []; // (client, counter) of every acknowledged batch
    let bytes = 0;
    const client = async (c: number) => {
      for (let i = 0; bytes < target; i++) {
        if (performance.now() - t0 > SETUP_DEADLINE_MS) throw new Error(`loading: not done within ${SETUP_DEADLINE_MS} ms`);
        const body = batchBody(c, i);
        const r = await request(node.port, 'POST', path, body);
        if (r.status === 429 || r.status === 503) {
          i--; // the same batch again, after the backlog drains
          await new Promise((res) => setTimeout(res, 100));
          continue;
        }
        if (r.status !== 200) throw new Error(`write failed: ${r.status} ${r.body}`);
        written.push([c, i]);
        bytes += body.length;
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    const loadS = (performance.now() - t0) / 1000;
    // Applied: the last batch reads eventually (from data files), and no partition lags.
    const [lc, li] = written[written.length - 1]!;
    await until('applying', SETUP_DEADLINE_MS, async () => {
      if ((await request(node.port, 'GET', `${path}/${idOf(lc, li, 0)}?consistency=eventual`)).status !== 200) return null;
      return metricSum((await request(node.metricsPort, 'GET', '/metrics')).body, 'loam_worker_lag_records') === 0 ? true : null;
    });
    const setupS = (performance.now() - t0) / 1000;
    const objects = join(dir, 'objects');
    const dataFiles = () => filesUnder(objects, `/ns/${ns}/c/${coll.id}/data/`).filter((f) => f.endsWith('.ldf'));
    const filesBefore = dataFiles();
    const storedBytes = filesBefore.reduce((a, f) => a + statSync(f).size, 0);
    line('erasure', 'setup_s', setupS, 's', {
      load_s: round(loadS), documents: written.length * BATCH, document_bytes: bytes, data_files: filesBefore.length, data_file_bytes: storedBytes,
      encryption: o.encryption, load_average_1m: round(loadavg()[0]!),
    });

    // Erase `keys` keys spread evenly over every batch written (one document of each chosen batch).
    const ids: string[] = [];
    for (let k = 0; k < keys; k++) {
      const [c, i] = written[Math.floor((k * written.length) / keys)]!;
      ids.push(idOf(c, i, k % BATCH));
    }
    const t1 = performance.now();
    const er = await request(node.port, 'POST', '/v1/namespaces/bench/collections/docs/erase', JSON.stringify({ keys: ids }));
    if (er.status !== 202) throw new Error(`erase: ${er.status} ${er.body}`);
    const id = (JSON.parse(er.body) as { erasure: { id: string } }).erasure.id;
    const phases: Record<string, number> = {};
    let last = '';
    const done = await until('the erasure', PURGE_DEADLINE_MS, async () => {
      const r = await request(node.port, 'GET', `/v1/erasures/${id}`);
      if (r.status !== 200) throw new Error(`GET /v1/erasures/${id}: ${r.status} ${r.body}`);
      const e = JSON.parse(r.body) as { phase: string; counts: Record<string, number> };
      if (e.phase !== last) {
        phases[e.phase] = round((performance.now() - t1) / 1000);
        last = e.phase;
      }
      return e.phase === 'complete' ? e : null;
    });
    const purgeS = (performance.now() - t1) / 1000;
    // The erased keys are gone (a strong read of a few), and the rest still reads.
    for (const k of [ids[0]!, ids[ids.length - 1]!]) {
      const g = await request(node.port, 'GET', `${path}/${k}`);
      if (g.status !== 404) throw new Error(`erased key ${k} still answers ${g.status}`);
    }
    const scratch = mkdtempSync(join(tmpdir(), 'loam-bench-erasure-copy-'));
    const baseS = rewriteSeconds(dataFiles(), scratch);
    rmSync(scratch, { recursive: true, force: true });
    line('erasure', 'purge_s', purgeS, 's', {
      keys, document_bytes: bytes, data_file_bytes: storedBytes, encryption: o.encryption,
      phases_reached_at_s: phases, counts: done.counts,
      baseline_s: round(baseS), ratio: round(purgeS / Math.max(baseS, 1e-3)),
      baseline_is: 'rewriting the purged collection\'s data files once on the same disk (read, write, fsync)',
      fixed_waits_s: FIXED_WAITS_S, fixed_waits_are: `gc_grace_ms ${FAST_ENV.LOAM_GC_GRACE_MS} + a GC pass + four erasure passes (${FAST_ENV.LOAM_ERASURE_INTERVAL_MS} ms)`,
      load_average_1m: round(loadavg()[0]!),
    });
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
