// A running Loam node: wires the roles a config names around one metastore
// client and one store — log (LogWriter + CollectionWriter), query (CollectionReader),
// worker (applier, compaction, segmenter, retention, GC) — the HTTP API and the metrics listener.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { pino, type Logger } from 'pino';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MetaStore } from '../meta/contract.js';
import { openStore, type Store } from '../store/index.js';
import { LogReader } from '../log/reader.js';
import { LogWriter } from '../log/writer.js';
import { Catalog } from '../collection/catalog.js';
import { DataFiles } from '../collection/datafile.js';
import { Manifests } from '../collection/manifest.js';
import { CollectionReader } from '../collection/reader.js';
import { CollectionWriter } from '../collection/writer.js';
import { Workers } from '../workers/scheduler.js';
import { canRunInThread, WorkerThread } from './worker-thread.js';
import { buildApp, type Admit, type NamespaceKeyAdmin } from '../gateway/server.js';
import { WriteBudget } from '../gateway/write-budget.js';
import { MoveHold, type MoveSignals } from '../gateway/move-buffer.js';
import { listenMetrics, type MetricsListener } from '../metrics/listener.js';
import { openMetastore, sizeClassesOf } from './backends.js';
import type { NodeConfig } from './config.js';
import { portInUse } from './config-error.js';
import { meteredMeta, metastoreRegistries, NodeMetrics, nodeMetricsText } from './metrics.js';
import { controlStoreFor } from '../control/index.js';
import type { KeyRing } from '../crypto/keyring.js';
import type { KeyProvider } from '../crypto/provider.js';
import { localMasterKey, openKeyRing } from './keys.js';
import { refuseForeignStore } from './foreign-store.js';
import { EncryptingStore } from '../crypto/encrypting-store.js';
import type { ControlStore } from '../control/types.js';
import { BuiltinAuthorizer, type Authorizer } from '../authz/authorizer.js';
import { Tenancy } from '../authz/tenancy.js';
import { storedBytes } from '../collection/usage.js';
import { TENANCY_ROUTES, tenancyRoutes } from '../gateway/tenancy-routes.js';
import { statusPage, UI_PUBLIC_PATHS, UI_ROOT } from '../ui/routes.js';
import { ErasureLogKeys, parseKek } from '../erasure/keys.js';
import { ErasureService } from '../erasure/service.js';
import { ErasureRunner } from '../erasure/runner.js';
import { replayErasures } from '../erasure/replay.js';
import { Leases } from '../workers/lease.js';
import { erasureBoundMs } from './config.js';
import { ConfigError } from './config-error.js';
import { Membership, type MembershipView, type NodeRole } from '../router/membership.js';
import { RequestRouter } from '../router/requests.js';
import { placementRoute } from '../gateway/placement-route.js';
import { grantRoute } from '../gateway/grant-route.js';
import { GRANT_PATH, OwnerLeases, ownerHooks, type GrantAnswer } from '../quota/owner.js';
import { ownership, PeerCredential, postPeer } from '../router/peers.js';
import { DEFAULT_ORG } from '../collection/catalog.js';
import { PlacementOwnership } from './ownership.js';

/** The caches cache_bytes is split among: log chunks and data blocks, for reads and for workers. */
export const CACHES_PER_NODE = 4;

/** Readiness checks must answer within this. */
export const READY_CHECK_DEADLINE_MS = 2_000;
/** A clean shutdown waits this long for in-flight work before it gives up. */
export const SHUTDOWN_DEADLINE_MS = 10_000;

import { VERSION } from './version.js';
export { VERSION };
export interface NodeOverrides {
  /** Use this store instead of opening config.store (tests: FaultyStore, CountingStore). */
  store?: Store;
  /** Use this (raw) metastore backend instead of opening config.metastore. */
  meta?: MetaStore;
  logger?: Logger;
  admit?: Admit;
  /** With auth api_keys: this authorizer instead of the configured one (spec §7's seam). */
  authorizer?: (control: ControlStore, ctx: AuthorizerContext) => Authorizer | Promise<Authorizer>;
  /**
   * First start with auth api_keys: `org` (default: the bootstrap_org setting; null: none) is
   * created with an admin key when no tenant org exists; the operator's first key is
   * generated, or `operatorKey` (loam_<key_id>_<secret>) is installed as it.
   */
  bootstrap?: { org?: string | null; operatorKey?: string };
  /**
   * With a metastore handed in (`meta`): the node's data directory, where the local key
   * provider's generated master key is kept when no encryption_master_key is set.
   */
  dataDir?: string;
}

/** What an authorizer may use besides the ControlStore. */
export interface AuthorizerContext {
  meta: MetaStore;
  logger: Logger;
  /** This node's id (a lease owner). */
  owner: string;
  config: NodeConfig;
  metrics: NodeMetrics;
}

/** The authorizer the config names (spec §7): the built-in one, or OpenFGA (its SDK loaded only then). */
export async function configuredAuthorizer(control: ControlStore, ctx: AuthorizerContext): Promise<Authorizer> {
  const c = ctx.config;
  if (c.authorizer !== 'openfga') return new BuiltinAuthorizer(control);
  const { OpenFgaAuthorizer } = await import('../authz/openfga/authorizer.js');
  return new OpenFgaAuthorizer({
    url: c.openfga_url!,
    store: c.openfga_store,
    control,
    meta: ctx.meta,
    logger: ctx.logger,
    owner: ctx.owner,
    observe: { failed: (op) => ctx.metrics.openfgaFailures.inc({ op }), checked: (ms) => ctx.metrics.openfgaChecks.observe(ms / 1000) },
  });
}

export interface LoamNode {
  readonly id: string;
  readonly url: string;
  readonly port: number;
  /** Where Prometheus scrapes this node: http://metrics_host:port/metrics (not the API's listener). */
  readonly metricsUrl: string;
  readonly config: NodeConfig;
  readonly app: FastifyInstance;
  /** The metastore client (retry policy, metrics) every part of the node uses. */
  readonly meta: MetaStore;
  readonly store: Store;
  readonly metrics: NodeMetrics;
  readonly logWriter: LogWriter | null;
  readonly writer: CollectionWriter | null;
  readonly reader: CollectionReader | null;
  readonly workers: Workers | null;
  readonly logger: Logger;
  /** auth api_keys: the ControlStore, authorizer and gateway tenancy (else null). */
  readonly control: ControlStore | null;
  /** The key ring with a key provider configured (docs/encryption.md), else null. */
  readonly keys: KeyRing | null;
  readonly authorizer: Authorizer | null;
  readonly tenancy: Tenancy | null;
  /** With erasure_kek: the erasure service, and (every node) the runner that advances erasures and evicts what they retired. */
  readonly erasure: ErasureService | null;
  readonly erasureRunner: ErasureRunner | null;
  /** The bootstrap org's admin key created on this first start (hand it over once; never log it), else null. */
  readonly bootstrapKey: string | null;
  /** The operator key created on this first start (hand it over once; never log it), else null. */
  readonly operatorKey: string | null;
  /** The live nodes with their roles and zones, and placement over them (spec §5.3, docs/placement.md). */
  readonly membership: Membership;
  /** With auth api_keys and routing owner: the leases of request-rate tokens from other nodes' buckets (spec §6). */
  readonly quotaLeases: OwnerLeases | null;
  close(): Promise<void>;
}

/** The key routes' operations: the key ring's, with the worker thread told of each change. */
function keyAdmin(keys: KeyRing, thread: () => WorkerThread | null): NamespaceKeyAdmin {
  return {
    records: (ns) => keys.records(ns),
    async rotate(ns) {
      const v = await keys.rotate(ns);
      thread()?.rekey(ns);
      return v;
    },
    // The ring forgets the namespace, whose listeners drop its caches and tell the thread.
    destroy: (ns) => keys.destroy(ns),
  };
}

function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]);
}

export async function startNode(config: NodeConfig, o: NodeOverrides = {}): Promise<LoamNode> {
  const logger = o.logger ?? pino({ level: config.log_level, base: { node: config.node_id ?? undefined } });
  // A fresh id per process start: a restarted node takes its leases over under new epochs.
  const id = `${config.node_id ?? (hostname().replace(/[^A-Za-z0-9_-]/g, '').slice(0, 16) || 'node')}-${randomBytes(3).toString('hex')}`;
  const metrics = new NodeMetrics();
  let raw: MetaStore;
  let backend: string;
  if (o.meta) {
    raw = o.meta;
    backend = 'custom';
  } else {
    ({ meta: raw, backend } = await openMetastore(config.metastore));
  }
  const meta = meteredMeta(raw, backend, metrics);
  // Size classes (spec §5.3): a sharded metastore's directory view; every namespace small otherwise.
  const sizes = sizeClassesOf(raw);
  // Envelope encryption (spec §9.8, docs/encryption.md): a key ring over the ControlStore, the
  // WAL writer and reader seal and open chunks with it, and the store wrapper seals ns/<id>/.
  let keys: KeyRing | null = null;
  let keyControl: ControlStore | null = null;
  let keyProvider: KeyProvider | null = null;
  // The local provider's master key: the setting, else (the embedded defaults) a key generated
  // once into the data directory; a shared metastore without one runs unencrypted, and says so.
  const plainStore = o.store ?? openStore(config.store);
  let masterKey: string | null;
  try {
    await refuseForeignStore(raw, plainStore, config);
    masterKey = localMasterKey(config, raw, { handedIn: o.meta !== undefined, ...(o.dataDir ? { dataDir: o.dataDir } : {}) }, logger);
  } catch (e) {
    if (!o.meta) await raw.close();
    throw e;
  }
  if (config.key_provider === 'kms' || (config.key_provider === 'local' && masterKey !== null)) {
    ({ ring: keys, control: keyControl, provider: keyProvider } = await openKeyRing(config, masterKey, raw));
  } else if (config.encryption === 'on' && config.key_provider === 'none') {
    logger.warn('encryption is on but key_provider is none: namespaces are written unencrypted (docs/encryption.md)');
  }
  const store = keys ? new EncryptingStore(plainStore, keys) : plainStore;
  const roles = new Set(config.roles);
  const manifests = new Manifests(store);
  // cache_bytes bounds all of a node's caches together (docs/operations.md, sizing): the log
  // chunk cache and the data block cache of the read path and of the workers get a share each.
  const cacheShare = Math.floor(config.cache_bytes / CACHES_PER_NODE);
  const logReader = new LogReader(meta, store, cacheShare, keys ?? undefined);
  const catalog = new Catalog(meta);

  let workers: Workers | null = null;
  let thread: WorkerThread | null = null;
  let workerFiles: DataFiles | null = null;
  let control: ControlStore | null = null;
  let tenancy: Tenancy | null = null;
  const onApply = (c: { ns: number; id: number }, r: { lag: number; applied: number; compacted: boolean }, ms: number) => {
    metrics.lag.set(c.ns, c.id, r.lag);
    if (r.applied > 0 || r.compacted) metrics.applyLatency.observe(ms / 1000);
    metrics.appliedRecords.inc(r.applied);
  };
  const onGc = (deleted: number) => {
    metrics.gcDeleted.inc(deleted);
    if (deleted > 0) logger.info({ deleted }, 'gc pass');
  };
  const onWorkerError = (task: string, message: string, code?: string) => {
    metrics.workerErrors.inc({ task });
    logger.warn({ task, err: { message, code } }, 'worker task failed; it will run again');
  };
  // Which collections this node's workers maintain: placement over the live worker nodes (spec §5.3),
  // followed from the membership once it starts (until then, every collection).
  const workerOwnership = new PlacementOwnership(id, sizes);
  // The worker timings, the same whether workers run in their own thread or in this one.
  const timings = {
    owner: id,
    leaseTtlMs: config.lease_ttl_ms,
    applyPollMs: config.apply_poll_ms,
    applyIntervalMs: config.apply_interval_ms,
    segmentMinAgeMs: config.segment_min_age_ms,
    maintenanceMs: config.maintenance_interval_ms,
    gcIntervalMs: config.gc_interval_ms,
    gcGraceMs: config.gc_grace_ms,
  };
  // With encryption the thread builds its own key ring from the same settings (./keys.ts).
  if (roles.has('worker') && !o.meta && !o.store && canRunInThread(config.metastore, config.store)) {
    // Workers in their own thread, so building data files never stalls acknowledgements.
    thread = new WorkerThread(
      {
        metastore: config.metastore,
        store: config.store,
        cacheBytes: cacheShare,
        bufferBytes: config.worker_buffer_bytes,
        nice: config.worker_nice,
        logLevel: config.log_level,
        ...timings,
        ...(keys ? { keys: { settings: { encryption: config.encryption, key_provider: config.key_provider, encryption_master_key: null, kms_region: config.kms_region, kms_endpoint: config.kms_endpoint, key_refresh_ms: config.key_refresh_ms }, masterKey } } : {}),
      },
      (m) => {
        if (m.kind === 'apply') onApply({ ns: m.ns, id: m.collection }, m, m.ms);
        else if (m.kind === 'gc') onGc(m.deleted);
        else if (m.kind === 'error') onWorkerError(m.task, m.message, m.code);
      },
    );
    await thread.started;
  } else if (roles.has('worker')) {
    workers = new Workers({
      meta,
      ownership: workerOwnership,
      store,
      log: logReader,
      manifests,
      files: (workerFiles = new DataFiles(store, cacheShare)),
      ...timings,
      onApply,
      onGc: (r) => onGc(r.deleted.length),
      onError: (task, e) => onWorkerError(task, (e as Error).message, (e as { code?: string }).code),
    });
  }

  let logWriter: LogWriter | null = null;
  let writer: CollectionWriter | null = null;
  if (roles.has('log')) {
    logWriter = new LogWriter({
      meta,
      store,
      nodeId: id,
      flushIntervalMs: config.flush_interval_ms,
      flushBytes: config.flush_bytes,
      ...(keys ? { keys } : {}),
      onCommitted: (a) => (thread ? thread.committed(a) : workers?.committed(a)),
      onFlush: (r) => {
        metrics.walFlushes.inc({ result: r.ok ? 'ok' : 'failed' });
        if (r.ok) {
          metrics.walFlushBytes.observe(r.bytes);
          metrics.walFlushLatency.observe({ phase: 'put' }, r.putMs / 1000);
          metrics.walFlushLatency.observe({ phase: 'commit' }, r.commitMs / 1000);
        } else logger.warn({ object: r.object, writers: r.writers }, 'WAL flush failed; its writers were not acknowledged');
      },
      onRetry: (what) => metrics.walRetries.inc({ what }),
    });
    // One backlog check, in the writer: with tenancy against the namespace's quotas (whose
    // defaults are these settings), else against the settings themselves.
    const fixed = { records: config.backlog_max_records, bytes: config.backlog_max_bytes };
    writer = new CollectionWriter(meta, logWriter, manifests, config.auth === 'api_keys' ? (c) => (tenancy ? tenancy.backlog.limits(c) : Promise.resolve(fixed)) : fixed);
  }
  const reader = roles.has('query') ? new CollectionReader(meta, store, { cacheBytes: cacheShare, manifests, log: logReader }) : null;
  // A shredded namespace's decoded blocks and manifests leave this node's caches (spec §9.8).
  keys?.onShred((ns) => {
    manifests.dropNamespace(ns);
    reader?.files.dropNamespace(ns);
    workerFiles?.dropNamespace(ns);
    thread?.shred(ns);
  });

  let authorizer: Authorizer | null = null;
  let bootstrapKey: string | null = null;
  let operatorKey: string | null = null;
  if (config.auth === 'api_keys') {
    // The ControlStore lives beside the metastore, on the raw backend's connection (spec §6).
    // With OpenFGA, every key and binding change also records its tuple change (the outbox, spec §7).
    control = await controlStoreFor(raw, { outbox: config.authorizer === 'openfga' });
    const ctx: AuthorizerContext = { meta, logger, owner: id, config, metrics };
    authorizer = await (o.authorizer ?? configuredAuthorizer)(control, ctx);
    try {
      await authorizer.start?.();
    } catch (e) {
      await thread?.stop();
      await workers?.stop();
      await control.close().catch(() => undefined);
      throw e;
    }
    tenancy = new Tenancy({
      control,
      authorizer,
      catalog,
      meta,
      logger,
      measure: async (c) => {
        const s = await storedBytes(meta, manifests, c);
        return { bytes: s.total, unappliedRecords: s.unappliedRecords };
      },
      node: id,
      observe: { gateways: (n) => metrics.gateways.set(n), taskFailed: (task) => metrics.controlTaskFailures.inc({ task }) },
      quotaDefaults: { unapplied_records: config.backlog_max_records, unapplied_bytes: config.backlog_max_bytes },
    });
    const keys = await tenancy.bootstrap({
      org: o.bootstrap?.org === undefined ? config.bootstrap_org : o.bootstrap.org,
      ...(o.bootstrap?.operatorKey ? { operatorKey: o.bootstrap.operatorKey } : {}),
    });
    bootstrapKey = keys.orgAdmin;
    operatorKey = keys.operator;
    await tenancy.start();
  }

  // Erasure (spec §9): on every node with erasure_kek; its ControlStore is the tenancy one, or
  // one of its own beside the metastore (auth none). Erasures newer than the restored data are
  // replayed before the node serves; a node that cannot read either source does not start.
  let erasure: ErasureService | null = null;
  let erasureRunner: ErasureRunner | null = null;
  let erasureControl: ControlStore | null = null;
  let erasureLoop: Promise<void> | null = null;
  let memberControl: ControlStore | null = null;
  const erasureStop = new AbortController();
  if (config.erasure_kek) {
    try {
      erasureControl = control ?? (await controlStoreFor(raw));
      const keys = new ErasureLogKeys(erasureControl, parseKek(config.erasure_kek), store);
      const bad = await keys.kekMismatch();
      if (bad) throw new ConfigError('erasure_kek', `does not unwrap the erasure-log key version ${bad.version} of org "${bad.org}": set the key-encryption key it was made with (loam dev keeps it in erasure.kek in its data dir: restore that file)`);
      erasure = new ErasureService({ control: erasureControl, keys, store, deadlineMs: config.erasure_deadline_ms, boundMs: erasureBoundMs(config) });
      await replayErasures({ meta, store, control: erasureControl, keys, reader, writer });
      const ec = erasureControl;
      erasureRunner = new ErasureRunner({
        meta,
        store,
        control: ec,
        keys,
        manifests,
        files: new DataFiles(store, cacheShare),
        log: logReader,
        leases: new Leases(meta, `${id}-erasure`, config.lease_ttl_ms),
        node: id,
        graceMs: config.gc_grace_ms,
        steps: roles.has('worker'),
        evict: (paths) => {
          const set = new Set(paths);
          reader?.evict(set);
          workers?.evict(set);
          thread?.evict(paths);
        },
        members: async () => {
          const m = tenancy ? await ec.members() : [];
          return m.length > 0 ? m.map((x) => x.node) : [id];
        },
        onError: (e) => onWorkerError('erasure', (e as Error).message, (e as { code?: string }).code),
      });
    } catch (e) {
      await thread?.stop();
      await workers?.stop();
      await tenancy?.close().catch(() => undefined);
      if (erasureControl && erasureControl !== control) await erasureControl.close().catch(() => undefined);
      throw e;
    }
  }

  // The ControlStore membership lives in; none for a metastore handed in that has none (a test's
  // wrapper): then the node is a membership of one.
  memberControl =
    control ??
    erasureControl ??
    (await controlStoreFor(raw).catch((e: unknown) => {
      logger.warn({ err: { message: (e as Error).message } }, 'no ControlStore for membership: this node places on itself alone');
      return null;
    }));

  const peer = new PeerCredential(id);
  const membership = new Membership({
    control: memberControl,
    self: { id, roles: ['gateway', ...config.roles] as NodeRole[], ...(config.zone ? { zone: config.zone } : {}), weight: config.placement_weight, authHash: peer.hash },
    heartbeatMs: config.membership_heartbeat_ms,
    failed: (e) => {
      metrics.controlTaskFailures.inc({ task: 'membership' });
      logger.warn({ err: { message: (e as Error).message } }, 'membership heartbeat failed; the last view stands');
    },
  });
  const requests = config.routing === 'owner' ? new RequestRouter({ membership }) : null;
  // Request-rate buckets at their owners (spec §6): other gateways lease tokens from the owner
  // in batches, with the per-gateway share as the fallback when it does not answer.
  let quotaLeases: OwnerLeases | null = null;
  if (tenancy && requests) {
    const quotas = tenancy.quotas;
    const leases = (quotaLeases = new OwnerLeases((to, items, deadlineMs) => postPeer<{ items: GrantAnswer[] }>(peer, to.url ? to.url + GRANT_PATH : '', { items }, deadlineMs).then((r) => r.items), Date.now));
    quotas.setOwners(ownerHooks(leases, ownership(membership, sizes)));
    membership.subscribe(() => quotas.ownersChanged());
  }

  // A sharded metastore moves namespaces between shards: writes to a moving one are held (spec §5.5).
  const moves = (raw as { moveSignals?: () => MoveSignals }).moveSignals?.();
  const writeBudget = writer ? new WriteBudget(config.write_inflight_bytes, config.write_queue_timeout_ms) : null;
  if (writeBudget) metrics.watchWriteBudget(writeBudget);
  const app = buildApp({
    meta,
    catalog,
    ...(writeBudget ? { writeBudget } : {}),
    ...(moves ? { moveHold: new MoveHold(moves) } : {}),
    ...(erasure ? { erasure } : {}),
    ...(keys ? { keys: keyAdmin(keys, () => thread) } : {}),
    ...(authorizer ? { authorizer } : {}),
    ...(tenancy && control
      ? {
          admit: o.admit ?? tenancy.admit,
          authenticate: (req: FastifyRequest) => tenancy.beforeBody(req),
          routes: (a: FastifyInstance) => {
            tenancyRoutes(tenancy, control, catalog, erasure?.boundMs ?? null)(a);
            statusPage({ meta, catalog, manifests, authorizer: authorizer!, tenancy, control, node: { id, roles: config.roles }, workerRound: (ns, c) => metrics.lag.last(ns, c) })(a);
          },
          // The quota grant route authenticates its caller as a node (peer credential), not by API key.
          publicPaths: [...UI_PUBLIC_PATHS, GRANT_PATH],
          keyFromPlugin: [UI_ROOT],
          routeDefs: TENANCY_ROUTES,
          authenticated: true,
        }
      : {}),
    reader,
    writer,
    metrics,
    logger,
    version: VERSION,
    nodeId: id,
    moreRoutes: [placementRoute({ meta, catalog, membership, sizeClass: async (ns) => sizes.of(ns), ...(requests ? { requests } : {}) }), ...(tenancy ? [grantRoute({ quotas: tenancy.quotas, membership })] : [])],
    ...(requests
      ? {
          router: {
            requests,
            sizeClass: sizes.of,
            // The key's org names the path's namespace; without authentication, the default org.
            orgOf: (req: FastifyRequest) => (tenancy ? tenancy.keys.authenticated(req.headers.authorization).then((v) => v.principal.org) : DEFAULT_ORG),
          },
        }
      : {}),
    ...(o.admit && !tenancy ? { admit: o.admit } : {}),
    ready: async () => {
      await withDeadline(meta.catalogVersion(), READY_CHECK_DEADLINE_MS, 'the metastore');
      await withDeadline(store.list('wal/', { limit: 1 }), READY_CHECK_DEADLINE_MS, 'the object store');
    },
  });
  let metricsListener: MetricsListener | undefined;
  try {
    metricsListener = await listenMetrics({
      host: config.metrics_host,
      port: config.metrics_port,
      contentType: metrics.registry.contentType,
      text: () => nodeMetricsText(metrics, thread ? () => thread!.metrics() : null, metastoreRegistries(raw)),
      failed: (e) => logger.warn({ err: { message: (e as Error).message } }, 'a metrics scrape failed'),
    }).catch(portInUse('metrics_port', 'LOAM_METRICS_PORT', config.metrics_host, config.metrics_port));
    await app.listen({ host: config.host, port: config.port }).catch(portInUse('port', 'LOAM_PORT', config.host, config.port));
  } catch (e) {
    // Nothing listens, so nothing runs: stop what started.
    await metricsListener?.close();
    await thread?.stop();
    await tenancy?.close().catch(() => undefined);
    await authorizer?.close?.().catch(() => undefined);
    throw e;
  }
  const scrape = metricsListener;
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  // Membership (spec §5.3): every node is a gateway; it publishes its roles, zone, weight and
  // where the others reach it, and follows theirs. A ControlStore that does not answer yet
  // leaves the node in a view of its own (it serves; placement is a hint).
  membership.advertise(config.advertise_url ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host === '[::]' ? '[::1]' : host}:${port}`);
  await membership.start();
  // Workers own the keys placement gives them among the worker nodes; a change moves only the
  // keys whose owner changed (their leases are released, the new owner finds their due work).
  const followWorkers = (view: MembershipView) => {
    const nodes = view.withRole('worker').map((n) => ({ id: n.id, ...(n.zone ? { zone: n.zone } : {}), weight: n.weight }));
    workerOwnership.update(nodes);
    thread?.placement(nodes);
  };
  followWorkers(membership.view());
  membership.subscribe((view) => followWorkers(view));
  workers?.start();
  if (erasureRunner) {
    const runner = erasureRunner;
    erasureLoop = (async () => {
      while (!erasureStop.signal.aborted) {
        await runner.pass().catch((e: unknown) => onWorkerError('erasure', (e as Error).message, (e as { code?: string }).code));
        await sleep(config.erasure_interval_ms, undefined, { signal: erasureStop.signal }).catch(() => undefined);
      }
    })();
  }
  logger.info({ id, port, metrics: scrape.url, roles: config.roles, metastore: backend, store: store.capabilities().provider }, 'node started');

  let closing: Promise<void> | undefined;
  return {
    id,
    url: `http://${host}:${port}`,
    port,
    metricsUrl: scrape.url,
    config,
    app,
    meta,
    store,
    keys,
    metrics,
    logWriter,
    writer,
    reader,
    workers,
    logger,
    control,
    authorizer,
    tenancy,
    erasure,
    erasureRunner,
    bootstrapKey,
    operatorKey,
    membership,
    quotaLeases,
    close() {
      closing ??= (async () => {
        await withDeadline(app.close(), SHUTDOWN_DEADLINE_MS, 'closing the HTTP server').catch(() => undefined);
        // Leaves at once, so the others' placement drops this node without waiting for its TTL.
        await membership.close();
        erasureStop.abort();
        await withDeadline(erasureLoop ?? Promise.resolve(), SHUTDOWN_DEADLINE_MS, 'the erasure runner').catch(() => undefined);
        await erasureRunner?.releaseLeases().catch(() => undefined);
        await scrape.close();
        await withDeadline(logWriter?.close() ?? Promise.resolve(), SHUTDOWN_DEADLINE_MS, 'the log writer').catch(() => undefined);
        await withDeadline(workers?.stop() ?? Promise.resolve(), SHUTDOWN_DEADLINE_MS, 'the workers').catch(() => undefined);
        await thread?.stop();
        // Flushes last_used and leaves the gateway membership (the others take its quota share).
        await withDeadline(tenancy?.close() ?? Promise.resolve(), SHUTDOWN_DEADLINE_MS, 'tenancy').catch(() => undefined);
        await withDeadline(authorizer?.close?.() ?? Promise.resolve(), SHUTDOWN_DEADLINE_MS, 'the authorizer').catch(() => undefined);
        keys?.close();
        await keyProvider?.close().catch(() => undefined);
        await keyControl?.close().catch(() => undefined);
        await control?.close().catch(() => undefined);
        if (erasureControl && erasureControl !== control) await erasureControl.close().catch(() => undefined);
        if (memberControl && memberControl !== control && memberControl !== erasureControl) await memberControl.close().catch(() => undefined);
        if (!o.store) await store.close();
        if (!o.meta) await raw.close();
        logger.info({ id }, 'node stopped');
      })();
      return closing;
    },
  };
}
