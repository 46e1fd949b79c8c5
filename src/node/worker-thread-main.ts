// Entry point of the worker thread (see ./worker-thread.ts): its own metastore client and store,
// the Workers scheduler, its own metrics (the node asks for them at every scrape), and
// messages to and from the node's main thread.
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { openStore } from '../store/index.js';
import { LogReader } from '../log/reader.js';
import { DataFiles } from '../collection/datafile.js';
import { Manifests } from '../collection/manifest.js';
import { openMetastore, sizeClassesOf } from './backends.js';
import { openKeyRing } from './keys.js';
import { EncryptingStore } from '../crypto/encrypting-store.js';
import { AggregatorRegistry } from 'prom-client';
import { meteredMeta, metastoreRegistries, NodeMetrics } from './metrics.js';
import { Workers } from '../workers/scheduler.js';
import { PlacementOwnership } from './ownership.js';
import type { FromThread, ThreadConfig, ToThread } from './worker-thread.js';
import { startIdleCollector } from './idle-memory.js';
import { startBufferBound } from './buffer-bound.js';

const cfg = workerData as ThreadConfig;
lowerPriority(cfg.nice);
// Its own isolate: it returns its idle memory itself (./idle-memory.ts).
const idle = startIdleCollector();
// …and bounds what it keeps while busy (./buffer-bound.ts).
const buffers = startBufferBound({ maxBytes: cfg.bufferBytes });
const port = parentPort!;
const send = (m: FromThread) => port.postMessage(m);

const metrics = new NodeMetrics({ process: false });
metrics.watchThreadMemory(buffers);
const { meta: raw, backend } = await openMetastore(cfg.metastore);
const meta = meteredMeta(raw, backend, metrics);
// Encryption: this thread's own key ring (the node's settings, its own ControlStore handle).
const keyed = cfg.keys ? await openKeyRing(cfg.keys.settings, cfg.keys.masterKey, raw) : null;
const plainStore = openStore(cfg.store);
const store = keyed ? new EncryptingStore(plainStore, keyed.ring) : plainStore;
const manifests = new Manifests(store);
const files = new DataFiles(store, cfg.cacheBytes);
// A shredded namespace's decoded blocks and manifests leave this thread's caches too (spec §9.8).
keyed?.ring.onShred((ns) => {
  manifests.dropNamespace(ns);
  files.dropNamespace(ns);
});
// What this node's workers own: placement over the worker nodes the main thread sends (spec §5.3).
const ownership = new PlacementOwnership(cfg.owner, sizeClassesOf(raw));
const workers = new Workers({
  meta,
  ownership,
  store,
  log: new LogReader(meta, store, cfg.cacheBytes, keyed?.ring),
  manifests,
  files,
  owner: cfg.owner,
  leaseTtlMs: cfg.leaseTtlMs,
  applyPollMs: cfg.applyPollMs,
  applyIntervalMs: cfg.applyIntervalMs,
  segmentMinAgeMs: cfg.segmentMinAgeMs,
  maintenanceMs: cfg.maintenanceMs,
  gcIntervalMs: cfg.gcIntervalMs,
  gcGraceMs: cfg.gcGraceMs,
  onApply: (c, r, ms) => send({ kind: 'apply', ns: c.ns, collection: c.id, lag: r.lag, applied: r.applied, compacted: r.compacted, ms }),
  onGc: (r) => send({ kind: 'gc', deleted: r.deleted.length }),
  onError: (task, e) => send({ kind: 'error', task, message: (e as Error).message, ...((e as { code?: string }).code ? { code: (e as { code: string }).code } : {}) }),
});

port.on('message', (m: ToThread) => {
  if (m.kind === 'committed') workers.committed(m.assigned);
  else if (m.kind === 'evict') workers.evict(new Set(m.paths));
  else if (m.kind === 'placement') ownership.update(m.nodes);
  else if (m.kind === 'shred') keyed?.ring.forget(m.ns);
  else if (m.kind === 'rekey') keyed?.ring.stale(m.ns);
  else if (m.kind === 'metrics') {
    // With a remote metastore, the thread's own client's RPC metrics too (summed with the node's at the scrape).
    void Promise.all([metrics.registry, ...metastoreRegistries(raw)].map((r) => r.getMetricsAsJSON()))
      .then((all) => (all.length === 1 ? all[0]! : AggregatorRegistry.aggregate(all).getMetricsAsJSON()))
      .then(
      (json) => send({ kind: 'metrics', id: m.id, metrics: json }),
      () => undefined, // the node serves the scrape without ours at its deadline
    );
  }
  else if (m.kind === 'stop') {
    void (async () => {
      idle.stop();
      buffers.stop();
      await workers.stop();
      await store.close();
      keyed?.ring.close();
      await keyed?.provider.close().catch(() => undefined);
      await keyed?.control.close().catch(() => undefined);
      await raw.close();
      send({ kind: 'stopped' });
      port.close();
    })();
  }
});

workers.start();
send({ kind: 'started' });

/**
 * Lowers this thread's CPU priority by `nice` (NodeConfig.worker_nice). On Linux a priority
 * is per thread (setpriority on the thread id), so the main thread keeps its own; elsewhere
 * it would be the whole process's, so nothing is changed there.
 */
function lowerPriority(nice: number): void {
  if (nice === 0 || process.platform !== 'linux') return;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    setPriority(tid, nice);
  } catch {
    // Not permitted in this sandbox or container: run at the process's priority.
  }
}
