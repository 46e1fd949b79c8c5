// Tuples follow the ControlStore through its outbox (spec §7). Every key and binding change
// commits an outbox entry in its own transaction (src/control); one drainer per cluster, under
// the cluster lease OUTBOX_LEASE_KEY, reads the entries in seq order, makes each named tuple
// what the ControlStore says now (DesiredState: written if it holds, deleted if not), in one
// idempotent write (duplicates and missing deletes ignored), and only then removes the
// entries: a drainer killed mid-batch leaves them for the next, which writes the same again.
// Failures are retried with backoff. Between drains, reconcile compares the whole store both
// ways, a bounded slice per pass, resuming where the last pass stopped: its position is kept
// in the ControlStore (job RECONCILE_JOB), so a restarted or new lease holder goes on from
// there instead of starting the round again.
import { ClientWriteRequestOnDuplicateWrites, ClientWriteRequestOnMissingDeletes, FgaApiValidationError, type OpenFgaClient, type TupleKey } from '@openfga/sdk';
import type { MetaStore } from '../../meta/contract.js';
import { isMetaError } from '../../meta/errors.js';
import { MAX_OUTBOX_PAGE, type ControlStore } from '../../control/types.js';
import { DesiredState, isBookkeeping, relationOf, tupleId, tupleOf, type KeyRelation } from './tuples.js';

/** The cluster lease the one drainer holds. */
export const OUTBOX_LEASE_KEY = 'authz-openfga-outbox';
/** The drainer's lease lifetime; it renews at a third of it. */
export const OUTBOX_LEASE_TTL_MS = 6_000;
/** How often the lease holder looks at the outbox (a grant reaches OpenFGA within about this). */
export const OUTBOX_POLL_MS = 100;
/** First and longest pause after a failed delivery (doubling in between). */
export const OUTBOX_BACKOFF_MIN_MS = 100;
export const OUTBOX_BACKOFF_MAX_MS = 10_000;
/** Tuples per OpenFGA write: the server's default limit per request. */
export const MAX_TUPLES_PER_WRITE = 100;
/** How often reconcile runs a pass, and the tuples or ControlStore rows one pass looks at, at most. */
export const RECONCILE_INTERVAL_MS = 60_000;
export const RECONCILE_ITEMS_PER_PASS = 1_000;
/** The ControlStore job under which reconcile keeps its position (ControlStore.jobPosition). */
export const RECONCILE_JOB = 'authz-openfga-reconcile';
/** Any OpenFGA or ControlStore call of the drainer has this long. */
export const DELIVERY_DEADLINE_MS = 5_000;

export function withDeadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let t: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
    }),
  ]);
}

/** Makes tuples follow the desired state: one write per MAX_TUPLES_PER_WRITE, idempotent. */
export class TupleSync {
  readonly desired: DesiredState;
  constructor(
    private readonly client: () => OpenFgaClient,
    control: ControlStore,
    meta: MetaStore,
  ) {
    this.desired = new DesiredState(control, meta);
  }

  /** Writes or deletes each named tuple as the ControlStore says now; returns how many of each. */
  async sync(rels: KeyRelation[]): Promise<{ writes: number; deletes: number }> {
    const byId = new Map<string, { t: TupleKey; k: KeyRelation }>();
    for (const k of rels) {
      const t = tupleOf(k);
      if (t) byId.set(tupleId(t), { t, k });
    }
    const writes: TupleKey[] = [];
    const deletes: TupleKey[] = [];
    for (const { t, k } of byId.values()) ((await this.desired.holds(k)) ? writes : deletes).push(t);
    await this.apply(writes, deletes);
    return { writes: writes.length, deletes: deletes.length };
  }

  /** Deletes tuples outright (reconcile: tuples of no relation Loam keeps). */
  async apply(writes: TupleKey[], deletes: TupleKey[]): Promise<void> {
    const all = [...writes.map((t) => ({ t, w: true })), ...deletes.map((t) => ({ t, w: false }))];
    for (let i = 0; i < all.length; i += MAX_TUPLES_PER_WRITE) {
      const chunk = all.slice(i, i + MAX_TUPLES_PER_WRITE);
      const w = chunk.filter((c) => c.w).map((c) => c.t);
      const d = chunk.filter((c) => !c.w).map((c) => ({ user: c.t.user, relation: c.t.relation, object: c.t.object }));
      await withDeadline(
        this.client().write(
          { ...(w.length ? { writes: w } : {}), ...(d.length ? { deletes: d } : {}) },
          { conflict: { onDuplicateWrites: ClientWriteRequestOnDuplicateWrites.Ignore, onMissingDeletes: ClientWriteRequestOnMissingDeletes.Ignore } },
        ),
        DELIVERY_DEADLINE_MS,
        'an OpenFGA write',
      );
    }
  }
}

export interface DrainerHooks {
  /** A delivery or reconcile step failed (it is retried): count it, log it rate-limited. */
  failed(task: 'outbox' | 'reconcile', e: unknown): void;
  /** Entries delivered and acknowledged (progress). */
  delivered?(n: number): void;
  /** Tuples reconcile repaired: written (missing) and deleted (orphaned). */
  repaired?(written: number, deleted: number): void;
  /** Tests: called after a batch is written to OpenFGA and before its entries are removed. */
  afterWrite?(seqs: number[]): Promise<void> | void;
}

/** Where reconcile stopped: in OpenFGA's tuples (a continuation token), or in the ControlStore's orgs, keys and bindings. */
export type ReconcileCursor =
  | { phase: 'tuples'; token?: string }
  /** org undefined: the org after prevOrg is next. */
  | { phase: 'control'; org?: string; prevOrg?: string; stage: 'keys' | 'bindings'; after?: string };

const START: ReconcileCursor = { phase: 'tuples' };

/** A saved position as reconcile reads it back; anything it cannot read starts the round again. */
export function parseCursor(saved: string | null): ReconcileCursor {
  if (saved === null) return START;
  try {
    const c = JSON.parse(saved) as Record<string, unknown>;
    const str = (v: unknown) => v === undefined || typeof v === 'string';
    if (c.phase === 'tuples' && str(c.token)) return c as ReconcileCursor;
    if (c.phase === 'control' && (c.stage === 'keys' || c.stage === 'bindings') && str(c.org) && str(c.prevOrg) && str(c.after)) return c as ReconcileCursor;
  } catch {
    // not JSON: start over
  }
  return START;
}

export class OutboxDrainer {
  private epoch: number | null = null;
  private renewedAt = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private retryAt = 0;
  private backoff = OUTBOX_BACKOFF_MIN_MS;
  private lastReconcile = 0;
  private cursor: ReconcileCursor = START;
  private closed = false;

  constructor(
    private readonly d: {
      sync: TupleSync;
      control: ControlStore;
      meta: MetaStore;
      client: () => OpenFgaClient;
      owner: string;
      now: () => number;
      hooks: DrainerHooks;
      pollMs?: number;
      leaseTtlMs?: number;
      reconcileIntervalMs?: number;
    },
  ) {}

  /** Whether this node holds the drainer's lease (as of its last renewal). */
  get holding(): boolean {
    return this.epoch !== null && this.d.now() - this.renewedAt < (this.d.leaseTtlMs ?? OUTBOX_LEASE_TTL_MS);
  }

  start(): void {
    this.timer = setInterval(() => void this.tick(), this.d.pollMs ?? OUTBOX_POLL_MS);
    this.timer.unref();
    void this.tick();
  }

  /** One step now (tests, and hooks that want their entries delivered sooner). */
  tick(): Promise<void> {
    if (this.running || this.closed) return this.running ?? Promise.resolve();
    this.running = this.step().finally(() => (this.running = null));
    return this.running;
  }

  private async lease(): Promise<boolean> {
    const ttl = this.d.leaseTtlMs ?? OUTBOX_LEASE_TTL_MS;
    const now = this.d.now();
    if (this.epoch !== null && now - this.renewedAt < ttl / 3) return true;
    if (this.epoch === null && now - this.renewedAt < ttl / 2) return false; // another node holds it: ask again later
    try {
      const l = await withDeadline(this.d.meta.acquireLease('cluster', OUTBOX_LEASE_KEY, this.d.owner, ttl), DELIVERY_DEADLINE_MS, 'the outbox lease');
      this.epoch = l.epoch;
      this.renewedAt = now;
      return true;
    } catch (e) {
      this.epoch = null;
      this.renewedAt = now;
      if (!isMetaError(e, 'LeaseHeld')) this.d.hooks.failed('outbox', e);
      return false;
    }
  }

  private async step(): Promise<void> {
    if (this.d.now() < this.retryAt || !(await this.lease())) return;
    try {
      await this.drainOnce();
      if (this.d.now() - this.lastReconcile >= (this.d.reconcileIntervalMs ?? RECONCILE_INTERVAL_MS)) {
        const done = await this.reconcilePass();
        if (done) this.lastReconcile = this.d.now();
      }
      this.backoff = OUTBOX_BACKOFF_MIN_MS;
    } catch (e) {
      this.d.hooks.failed('outbox', e);
      this.retryAt = this.d.now() + this.backoff;
      this.backoff = Math.min(this.backoff * 2, OUTBOX_BACKOFF_MAX_MS);
    }
  }

  /** Delivers the outbox, a page at a time, until it is empty (at most 100 pages a step). Returns entries delivered. */
  async drainOnce(): Promise<number> {
    let n = 0;
    for (let page = 0; page < 100 && !this.closed; page++) {
      const es = await withDeadline(this.d.control.outbox(MAX_OUTBOX_PAGE), DELIVERY_DEADLINE_MS, 'reading the outbox');
      if (es.length === 0) break;
      await this.d.sync.sync(es);
      const seqs = es.map((e) => e.seq);
      await this.d.hooks.afterWrite?.(seqs);
      await withDeadline(this.d.control.ackOutbox(seqs), DELIVERY_DEADLINE_MS, 'acknowledging outbox entries');
      n += es.length;
      this.d.hooks.delivered?.(es.length);
    }
    return n;
  }

  /**
   * One bounded reconcile pass (spec §7): OpenFGA's tuples that no ControlStore relation backs
   * are deleted (a key's tuple in another org, a binding revoked, a namespace dropped, a tuple
   * not of Loam's shape); then the ControlStore's keys and bindings are written (duplicates
   * ignored), so a missing tuple is repaired. Returns whether a whole round finished.
   */
  async reconcilePass(limit = RECONCILE_ITEMS_PER_PASS): Promise<boolean> {
    let seen = 0;
    let written = 0;
    let deleted = 0;
    // Where the last pass stopped, on this node or another (the lease may have moved).
    this.cursor = parseCursor(await withDeadline(this.d.control.jobPosition(RECONCILE_JOB), DELIVERY_DEADLINE_MS, 'reading the reconcile position'));
    while (seen < limit && !this.closed) {
      const c = this.cursor;
      if (c.phase === 'tuples') {
        let r;
        try {
          r = await withDeadline(this.d.client().read({}, { pageSize: 100, ...(c.token ? { continuationToken: c.token } : {}) }), DELIVERY_DEADLINE_MS, 'an OpenFGA read');
        } catch (e) {
          // A continuation token the server no longer takes (another server, a new store):
          // the round starts again rather than stopping for good.
          if (c.token && e instanceof FgaApiValidationError) {
            await this.advance(START);
            continue;
          }
          throw e;
        }
        const orphans: TupleKey[] = [];
        const check: KeyRelation[] = [];
        for (const t of r.tuples) {
          if (isBookkeeping(t.key)) continue;
          const k = relationOf(t.key);
          if (k) check.push(k);
          else orphans.push({ user: t.key.user, relation: t.key.relation, object: t.key.object });
        }
        for (const k of check) if (!(await this.d.sync.desired.holds(k))) orphans.push(tupleOf(k)!);
        await this.d.sync.apply([], orphans);
        deleted += orphans.length;
        seen += r.tuples.length;
        await this.advance(r.continuation_token ? { phase: 'tuples', token: r.continuation_token } : { phase: 'control', stage: 'keys' });
        continue;
      }
      if (c.org === undefined) {
        const orgs = await this.d.control.listOrgs({ limit: 1, ...(c.prevOrg !== undefined ? { after: c.prevOrg } : {}) });
        const next = orgs.items[0]?.id;
        if (next === undefined) {
          await this.advance(START);
          this.d.hooks.repaired?.(written, deleted);
          return true;
        }
        await this.advance({ phase: 'control', org: next, stage: 'keys' });
        continue;
      }
      const org = c.org;
      const rels: KeyRelation[] = [];
      if (c.stage === 'keys') {
        const p = await this.d.control.listKeys(org, { limit: 100, ...(c.after ? { after: c.after } : {}) });
        for (const k of p.items) if (k.revoked === null) rels.push({ org, subject: `key:${k.keyId}`, relation: 'member', target: 'org' });
        seen += p.items.length;
        await this.repair(rels, (r) => ((written += r.writes), (deleted += r.deletes)));
        await this.advance(p.next ? { phase: 'control', org, stage: 'keys', after: p.next } : { phase: 'control', org, stage: 'bindings' });
      } else {
        const p = await this.d.control.listBindings(org, { limit: 100, ...(c.after ? { after: c.after } : {}) });
        for (const b of p.items) rels.push({ org, subject: b.subject, relation: b.role, target: b.target.kind === 'org' ? 'org' : `ns:${b.target.ns}` });
        seen += p.items.length;
        await this.repair(rels, (r) => ((written += r.writes), (deleted += r.deletes)));
        await this.advance(p.next ? { phase: 'control', org, stage: 'bindings', after: p.next } : { phase: 'control', prevOrg: org, stage: 'keys' });
      }
    }
    this.d.hooks.repaired?.(written, deleted);
    return false;
  }

  /** Writes or deletes a page's tuples as the ControlStore says now (before the position moves past them). */
  private async repair(rels: KeyRelation[], count: (r: { writes: number; deletes: number }) => void): Promise<void> {
    count(await this.d.sync.sync(rels));
  }

  /**
   * Moves reconcile's position past a page whose repairs are written, and saves it, so a
   * holder killed after this resumes behind the page and one killed before redoes it (the
   * repairs are idempotent).
   */
  private async advance(next: ReconcileCursor): Promise<void> {
    await withDeadline(
      this.d.control.saveJobPosition(RECONCILE_JOB, next.phase === 'tuples' && next.token === undefined ? null : JSON.stringify(next)),
      DELIVERY_DEADLINE_MS,
      'saving the reconcile position',
    );
    this.cursor = next;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.running;
    if (this.epoch !== null) {
      // Handing the lease back lets another node drain at once.
      await this.d.meta.releaseLease('cluster', OUTBOX_LEASE_KEY, this.d.owner, this.epoch).catch(() => undefined);
      this.epoch = null;
    }
  }
}
