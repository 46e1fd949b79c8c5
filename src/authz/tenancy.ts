// The gateway side of tenancy (spec §6, §7), put together: key authentication
// (key-auth.ts), the change-feed watcher that evicts what changed (change-feed.ts),
// admission with its decision cache (admission.ts, decisions.ts), the quotas and their
// measurements (quota/), gateway membership (quota/membership.ts), usage and last_used
// flushing (here), and the key and org operations (operations.ts).
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { MetaStore } from '../meta/contract.js';
import type { Collection } from '../meta/types.js';
import { isMetaError } from '../meta/errors.js';
import type { Catalog } from '../collection/catalog.js';
import type { ControlChange, ControlStore, QuotaName, RoleBinding } from '../control/types.js';
import { Quotas } from '../quota/quota.js';
import { UsageMeter } from '../quota/usage.js';
import { StorageMeter } from '../quota/storage.js';
import { GatewayMembership } from '../quota/membership.js';
import { BacklogQuota } from '../quota/backlog.js';
import type { Authorizer, Principal } from './authorizer.js';
import { KeyAuthenticator, LAST_USED_FLUSH_MS } from './key-auth.js';
import { ChangeFeedWatcher } from './change-feed.js';
import { Admission } from './admission.js';
import { TenancyOperations, type BootstrapKeys, type BootstrapOptions, type CreatedKey, type GrantRequest, type NewKeyRequest } from './operations.js';
import { TaskFailures } from './task-failures.js';

/** Counted usage is added to the ControlStore this often (with last_used), and at shutdown. */
export const USAGE_FLUSH_MS = LAST_USED_FLUSH_MS;
/** Namespaces checked per readableNamespaces call, at most. */
export const MAX_READABLE_CHECKS = 10_000;

export interface TenancyDeps {
  control: ControlStore;
  authorizer: Authorizer;
  catalog: Catalog;
  meta: MetaStore;
  logger: Logger;
  /** The deployment's quota defaults where they differ from QUOTA_DEFAULTS (the node's backlog_max_* settings). */
  quotaDefaults?: Partial<Record<QuotaName, number>>;
  /** A collection's stored bytes and unapplied records, when this node can read manifests (StorageDeps.measure). */
  measure?: (c: Collection) => Promise<{ bytes: number; unappliedRecords: number }>;
  /** Where the node's metrics learn the gateway count and background failures. */
  observe?: { gateways(n: number): void; taskFailed(task: string): void };
  /** This node's id in the gateway membership (per-gateway quota shares); none: counted as the only gateway. */
  node?: string;
  now?: () => number;
}

export class Tenancy {
  readonly quotas: Quotas;
  /** What this gateway admitted, per namespace (usage rollups). */
  readonly usage: UsageMeter;
  readonly storage: StorageMeter;
  /** The unapplied-backlog limits the collection writer checks writes against. */
  readonly backlog: BacklogQuota;
  readonly keys: KeyAuthenticator;
  readonly ops: TenancyOperations;
  private readonly feed: ChangeFeedWatcher;
  private readonly membership: GatewayMembership | null;
  /** The gateway's admission hook (admission.ts). */
  readonly admit: Admission['admit'];
  /** Before a request's body: refuses it when its cached decision's quota is spent (admission.ts). */
  private readonly refuseSpent: Admission['refuseSpent'];
  private readonly failures: TaskFailures;
  /** Bumped by every change-feed event and local revocation: cached decisions are stale then. */
  private changes = 0;
  private timer: NodeJS.Timeout | null = null;
  private readonly now: () => number;

  constructor(private readonly d: TenancyDeps) {
    const now = (this.now = d.now ?? Date.now);
    this.failures = new TaskFailures(d.logger, now, d.observe ? (task) => d.observe!.taskFailed(task) : undefined);
    const failed = (task: string, what: string) => (e: unknown) => this.failures.failed(task, what, e);
    this.quotas = new Quotas(d.control, 1, now, d.quotaDefaults);
    this.backlog = new BacklogQuota(d.meta, this.quotas);
    this.usage = new UsageMeter(d.control, now, {
      // Decisions hold counters: a dropped one makes them stale.
      dropped: () => void this.changes++,
      failed: failed('usage', 'usage flush failed; the counts are kept for the next one'),
    });
    this.storage = new StorageMeter({
      meta: d.meta,
      control: d.control,
      ...(d.measure ? { measure: d.measure } : {}),
      now,
      failed: failed('storage', 'measuring stored bytes failed; the last measurement stands'),
    });
    this.keys = new KeyAuthenticator(d.control, now, () => void this.changes++);
    this.feed = new ChangeFeedWatcher(d.control, now, { changed: (c) => this.changed(c), failed: failed('feed', 'control change feed poll failed; caches expire on their own') });
    this.membership = d.node
      ? new GatewayMembership(d.control, d.node, this.quotas, now, {
          ...(d.observe ? { gateways: (n: number) => d.observe!.gateways(n) } : {}),
          failed: failed('membership', 'gateway membership heartbeat failed'),
        })
      : null;
    const admission = new Admission({
      keys: this.keys,
      authorizer: d.authorizer,
      catalog: d.catalog,
      quotas: this.quotas,
      usage: this.usage,
      storage: this.storage,
      generation: () => this.changes + this.quotas.generation + this.d.catalog.generation,
      now,
    });
    this.admit = admission.admit;
    this.refuseSpent = admission.refuseSpent;
    this.ops = new TenancyOperations({
      control: d.control,
      authorizer: d.authorizer,
      logger: d.logger,
      now,
      revoked: (id) => this.keys.forget(id),
      rebound: (org, subject) => {
        this.changes++;
        d.authorizer.invalidate(org, subject);
      },
    });
  }


  /** One change-feed entry: drop exactly what it names from the caches. */
  private changed(c: ControlChange): void {
    this.changes++;
    if (c.kind === 'key') this.keys.forget(c.id);
    else if (c.kind === 'binding') this.d.authorizer.invalidate(c.org, c.id);
    else if (c.kind === 'quota') this.quotaChanged(c.org);
  }

  /** Starts the change-feed watcher, the last_used and usage flushes, storage measurement and membership. */
  async start(): Promise<void> {
    await this.feed.start();
    this.timer = setInterval(() => {
      void this.flushTouches().catch((e: unknown) => this.failures.failed('last_used', 'last_used flush failed', e));
      void this.usage.flush();
    }, USAGE_FLUSH_MS);
    this.timer.unref();
    this.storage.start();
    await this.membership?.start();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.feed.close();
    await this.storage.close();
    await this.flushTouches().catch(() => undefined);
    await this.usage.drain();
    await this.membership?.close(); // the others take its share at once
  }

  /** One pass over the change feed (tests; the watcher polls every FEED_POLL_MS). */
  pollFeed(): Promise<void> {
    return this.feed.poll();
  }

  /** Renews this gateway's membership now. */
  beat(): Promise<void> {
    return this.membership?.beat() ?? Promise.resolve();
  }

  flushTouches(): Promise<void> {
    return this.keys.flushTouches();
  }

  /** Re-measures stored bytes now (one round). */
  refreshStorage(): Promise<void> {
    return this.storage.refresh();
  }

  /** Authorization header → principal, or 401. */
  async authenticate(header: string | undefined): Promise<Principal> {
    return (await this.keys.authenticated(header)).principal;
  }

  /** authenticate, answered at once for a cached key (the gateway checks every request's key before its body). */
  authenticateNow(header: string | undefined): Principal | Promise<Principal> {
    const v = this.keys.verifiedNow(header);
    return v instanceof Promise ? v.then((x) => x.principal) : v.principal;
  }

  /**
   * What the gateway asks of a request before its body (onRequest): its key (401 otherwise),
   * and that its quota is not already spent (429, the body unread). At once for a cached key.
   */
  beforeBody(req: FastifyRequest): Principal | Promise<Principal> {
    const route = req.routeOptions.url ?? '';
    const p = this.authenticateNow(req.headers.authorization);
    if (p instanceof Promise) return p.then((x) => (this.refuseSpent(req, route), x));
    this.refuseSpent(req, route);
    return p;
  }

  /** An org's quotas changed: re-read them, and measure storage afresh against the new values. */
  quotaChanged(org: string): void {
    this.quotas.invalidate(org);
    this.storage.clear(org);
  }

  /**
   * The namespaces among `ids` that `p` may read: a namespace-scoped key sees only its own,
   * and nothing of another org's (rows of the org's usage and quotas are filtered by it).
   */
  async readableNamespaces(p: Principal, ids: readonly number[]): Promise<Set<number>> {
    const rs: { kind: 'namespace'; org: string; ns: number; name: string }[] = [];
    for (const id of [...new Set(ids)].slice(0, MAX_READABLE_CHECKS)) {
      try {
        const n = await this.d.meta.namespace(id);
        if (n.org === p.org) rs.push({ kind: 'namespace', org: p.org, ns: id, name: n.name });
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e; // dropped: nobody's to read
      }
    }
    return new Set((await this.d.authorizer.filterVisible(p, 'namespace.read', rs)).map((r) => r.ns));
  }

  createKey(o: NewKeyRequest): Promise<CreatedKey> {
    return this.ops.createKey(o);
  }

  revokeKey(org: string, keyId: string, by: string): Promise<void> {
    return this.ops.revokeKey(org, keyId, by);
  }

  grant(o: GrantRequest): Promise<RoleBinding> {
    return this.ops.grant(o);
  }

  revokeGrant(o: GrantRequest): Promise<void> {
    return this.ops.revokeGrant(o);
  }

  createOrg(org: string): Promise<void> {
    return this.ops.createOrg(org);
  }

  bootstrap(o: BootstrapOptions): Promise<BootstrapKeys> {
    return this.ops.bootstrap(o);
  }
}

export type { CreatedKey, Principal };
