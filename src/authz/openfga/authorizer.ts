// The Authorizer on OpenFGA (spec §7; docs/openfga.md). The rules before any binding (the
// tenant fence, the operator's org, scopes) are the built-in authorizer's own
// (decideBeforeBindings); what a key's roles allow is asked of OpenFGA, whose model adds its
// own fence (model.fga). Bindings stay in the ControlStore, the source of truth; their tuples
// follow it through the outbox (outbox.ts). Decisions are cached per (principal, action,
// object) for at most DECISION_TTL_MS; checks read with MinimizeLatency, and with
// HigherConsistency for a subject or org changed within the TTL. Any failure to decide is a
// refusal (503 with Retry-After), never an allow.
import { ConsistencyPreference, OpenFgaClient, type ClientBatchCheckItem, type TupleKey } from '@openfga/sdk';
import type { Logger } from 'pino';
import type { MetaStore } from '../../meta/contract.js';
import type { ControlStore } from '../../control/types.js';
import { CLASS, decideBeforeBindings, openToEveryMember, type Action, type Authorizer, type LifecycleEvent, type Principal, type Resource } from '../authorizer.js';
import { AuthzError } from '../errors.js';
import { redactUrl } from '../../meta/url.js';
import { TaskFailures } from '../task-failures.js';
import { ensureModel } from './model.js';
import { OutboxDrainer, TupleSync, withDeadline } from './outbox.js';
import { EFFECTIVE, namespaceObject, orgObject, parentTuple, userOf, type KeyRelation } from './tuples.js';

/** Spec §7: a gateway's decision cache keeps an answer at most 5 s. */
export const DECISION_TTL_MS = 5_000;
export const DECISION_CACHE_ENTRIES = 100_000;
/** A check (or batch) has this long before it is a refusal. */
export const CHECK_DEADLINE_MS = 2_000;
/** Checks per server batch-check request: the server's default limit. */
export const MAX_CHECKS_PER_BATCH = 50;
/** What a refusal for an unreachable server tells the client to wait. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;
/** Stores listed while looking for ours by name, at most (pages of 100). */
export const MAX_STORE_PAGES = 100;
/** A key's namespace tuples read for "any role in the org" (namespace.list, org.read), at most. */
export const MAX_MEMBER_TUPLES = 100;

export interface OpenFgaAuthorizerOptions {
  url: string;
  store: string;
  control: ControlStore;
  meta: MetaStore;
  logger: Logger;
  /** This node's id: the drainer's lease owner. */
  owner: string;
  /** Run the outbox drainer and reconcile here (under the cluster lease); default true. */
  drainer?: boolean;
  observe?: {
    /** A check, write or drain failed, by operation (the loam_openfga_failures_total metric). */
    failed?(op: string): void;
    /** An uncached check's latency. */
    checked?(ms: number): void;
  };
  now?: () => number;
  /** Tests: the drainer's timings and hooks. */
  drain?: Partial<Pick<ConstructorParameters<typeof OutboxDrainer>[0], 'pollMs' | 'leaseTtlMs' | 'reconcileIntervalMs'>> & {
    afterWrite?: (seqs: number[]) => Promise<void> | void;
  };
}

interface Ask {
  user: string;
  relation: string;
  object: string;
  contextual: TupleKey[];
}

export class OpenFgaAuthorizer implements Authorizer {
  private client!: OpenFgaClient;
  private modelId = '';
  private storeId = '';
  private readonly cache = new Map<string, number>();
  /** Subjects and orgs changed lately (until when): read with HigherConsistency, cache nothing. */
  private readonly recent = new Map<string, number>();
  private readonly now: () => number;
  private readonly failures: TaskFailures;
  private sync!: TupleSync;
  drainer: OutboxDrainer | null = null;

  constructor(private readonly o: OpenFgaAuthorizerOptions) {
    this.now = o.now ?? Date.now;
    this.failures = new TaskFailures(o.logger, this.now);
  }

  get store(): { id: string; modelId: string; client: OpenFgaClient } {
    return { id: this.storeId, modelId: this.modelId, client: this.client };
  }

  /** Connects: finds or creates the store, makes sure of the model version, starts the drainer. */
  async start(): Promise<void> {
    const { url, store } = this.o;
    const probe = new OpenFgaClient({ apiUrl: url, retryParams: { maxRetry: 1, minWaitInMs: 50 } });
    let id: string | undefined;
    try {
      let token: string | undefined;
      for (let page = 0; page < MAX_STORE_PAGES && id === undefined; page++) {
        const r = await withDeadline(probe.listStores({ pageSize: 100, name: store, ...(token ? { continuationToken: token } : {}) }), CHECK_DEADLINE_MS * 5, `the OpenFGA server at ${redactUrl(url)}`);
        id = r.stores.find((s) => s.name === store)?.id;
        token = r.continuation_token || undefined;
        if (!token) break;
      }
    } catch (e) {
      throw new Error(`openfga: cannot reach the OpenFGA server at ${redactUrl(url)} (openfga_url): ${redactUrl((e as Error).message)}`);
    }
    id ??= (await probe.createStore({ name: store })).id;
    this.storeId = id;
    const client = new OpenFgaClient({ apiUrl: url, storeId: id, retryParams: { maxRetry: 1, minWaitInMs: 50 } });
    this.modelId = await ensureModel(client, store);
    this.client = new OpenFgaClient({ apiUrl: url, storeId: id, authorizationModelId: this.modelId, retryParams: { maxRetry: 1, minWaitInMs: 50 } });
    this.sync = new TupleSync(() => this.client, this.o.control, this.o.meta);
    if (this.o.drainer !== false) {
      this.drainer = new OutboxDrainer({
        sync: this.sync,
        control: this.o.control,
        meta: this.o.meta,
        client: () => this.client,
        owner: this.o.owner,
        now: this.now,
        ...(this.o.drain ?? {}),
        hooks: {
          failed: (task, e) => this.failed(task, e),
          ...(this.o.drain?.afterWrite ? { afterWrite: this.o.drain.afterWrite } : {}),
        },
      });
      this.drainer.start();
    }
    this.o.logger.info({ openfga: redactUrl(url), store, store_id: id, model_id: this.modelId }, 'authorizer: openfga');
  }

  async close(): Promise<void> {
    await this.drainer?.close();
  }

  private failed(op: string, e: unknown): void {
    this.o.observe?.failed?.(op);
    this.failures.failed(`openfga_${op}`, `openfga: ${op} failed (the server at ${redactUrl(this.o.url)}); refusing what it cannot decide`, e);
  }

  private isRecent(p: Principal): boolean {
    const now = this.now();
    for (const k of [p.subject ?? '', `org:${p.org}`]) {
      const until = this.recent.get(k);
      if (until !== undefined) {
        if (until > now) return true;
        this.recent.delete(k);
      }
    }
    return false;
  }

  private touch(key: string): void {
    if (this.recent.size >= DECISION_CACHE_ENTRIES) this.recent.clear();
    this.recent.set(key, this.now() + DECISION_TTL_MS);
  }

  invalidate(org: string, subject: string | null): void {
    if (subject === null) {
      this.cache.clear();
      this.touch(`org:${org}`);
      return;
    }
    const prefix = `${subject}\u0000`;
    for (const k of this.cache.keys()) if (k.startsWith(prefix)) this.cache.delete(k);
    this.touch(subject);
  }

  /** The question a check asks OpenFGA (the org's or the namespace's effective relation). */
  private ask(p: Principal, action: Action, r: Resource): Ask | null {
    const user = userOf(p.subject ?? '');
    if (!user) return null;
    const cls = CLASS[action];
    const relation = EFFECTIVE[cls];
    // Collections hold no grants of their own: a collection's rights are its namespace's.
    if (r.kind === 'org' || r.ns === null || cls === 'org_admin' || cls === 'operator') return { user, relation, object: orgObject(r.org), contextual: [] };
    return { user, relation, object: namespaceObject(r.org, r.ns), contextual: [parentTuple(r.org, r.ns)] };
  }

  private unavailable(op: string, e: unknown): never {
    this.failed(op, e);
    throw new AuthzError('unavailable', 'authorization is unavailable for now (the OpenFGA server did not answer); retry', {
      retryAfterS: UNAVAILABLE_RETRY_AFTER_S,
      reason: 'openfga',
    });
  }

  /** Asks OpenFGA, in server batches; any error or missing answer is a refusal by exception. */
  private async askAll(p: Principal, asks: Ask[]): Promise<boolean[]> {
    if (asks.length === 0) return [];
    const fresh = this.isRecent(p);
    const consistency = fresh ? ConsistencyPreference.HigherConsistency : ConsistencyPreference.MinimizeLatency;
    const out = new Array<boolean>(asks.length).fill(false);
    const todo: number[] = [];
    const now = this.now();
    asks.forEach((a, i) => {
      const at = fresh ? undefined : this.cache.get(cacheKey(p, a));
      if (at !== undefined && now - at < DECISION_TTL_MS) out[i] = true;
      else todo.push(i);
    });
    if (todo.length === 0) return out;
    const t0 = performance.now();
    try {
      if (todo.length === 1) {
        const a = asks[todo[0]!]!;
        const r = await withDeadline(
          this.client.check({ user: a.user, relation: a.relation, object: a.object, ...(a.contextual.length ? { contextualTuples: a.contextual } : {}) }, { consistency }),
          CHECK_DEADLINE_MS,
          'an OpenFGA check',
        );
        out[todo[0]!] = r.allowed === true;
      } else {
        const checks: ClientBatchCheckItem[] = todo.map((i) => {
          const a = asks[i]!;
          return { user: a.user, relation: a.relation, object: a.object, correlationId: String(i), ...(a.contextual.length ? { contextualTuples: { tuple_keys: a.contextual } } : {}) };
        });
        const r = await withDeadline(this.client.batchCheck({ checks }, { consistency, maxBatchSize: MAX_CHECKS_PER_BATCH }), CHECK_DEADLINE_MS * 2, 'an OpenFGA batch check');
        const got = new Map(r.result.map((x) => [x.correlationId, x]));
        for (const i of todo) {
          const x = got.get(String(i));
          if (!x || x.error) throw new Error(`batch check item ${i}: ${x?.error?.message ?? 'no answer'}`);
          out[i] = x.allowed === true;
        }
      }
    } catch (e) {
      this.unavailable('check', e);
    }
    this.o.observe?.checked?.(performance.now() - t0);
    if (!fresh) {
      if (this.cache.size >= DECISION_CACHE_ENTRIES) this.cache.clear();
      // Only allows are kept: a refusal is asked again, so a grant counts at once.
      for (const i of todo) if (out[i]) this.cache.set(cacheKey(p, asks[i]!), this.now());
    }
    return out;
  }

  /** namespace.list and org.read: any role in the org, on the org or on one of its namespaces. */
  private async anyRole(p: Principal): Promise<boolean> {
    const ask = this.ask(p, 'org.read', { kind: 'org', org: p.org })!;
    if ((await this.askAll(p, [ask]))[0]) return true;
    const nss = [...(await this.namespacesHeld(p))].filter(Number.isSafeInteger);
    if (nss.length === 0) return false;
    const asks = nss.slice(0, MAX_CHECKS_PER_BATCH).map((ns) => this.ask(p, 'namespace.read', { kind: 'namespace', org: p.org, ns, name: '' })!);
    return (await this.askAll(p, asks)).some(Boolean);
  }

  async check(p: Principal, action: Action, r: Resource): Promise<boolean> {
    return (await this.batchCheck(p, [{ action, resource: r }]))[0]!;
  }

  async batchCheck(p: Principal, checks: { action: Action; resource: Resource }[]): Promise<boolean[]> {
    const out = new Array<boolean>(checks.length).fill(false);
    const asks: Ask[] = [];
    const at: number[] = [];
    for (const [i, c] of checks.entries()) {
      const pre = decideBeforeBindings(p, c.action, c.resource);
      if (pre !== 'bindings') out[i] = pre;
      else if (openToEveryMember(c.action, c.resource)) out[i] = await this.anyRole(p);
      else {
        const a = this.ask(p, c.action, c.resource);
        if (a) {
          asks.push(a);
          at.push(i);
        }
      }
    }
    const got = await this.askAll(p, asks);
    got.forEach((ok, j) => (out[at[j]!] = ok));
    return out;
  }

  /**
   * A list page (bench gateway --authorizer openfga measured the ways): a check per namespace
   * costs about 0.75 ms each even in server batches, and listObjects needs the namespaces' org
   * tuples stored and stops at the server's result limit. So: one check on the org (its grant
   * reaches every namespace of it), and otherwise only the namespaces the key holds a tuple
   * on (its own tuples, read) are checked; every other one is invisible to it.
   */
  async filterVisible<R extends Resource>(p: Principal, action: Action, rs: R[]): Promise<R[]> {
    const cls = CLASS[action];
    const simple = p.subject !== null && cls !== 'org_admin' && cls !== 'operator' && rs.length > 1 && rs.every((r) => r.kind !== 'org' && r.org === p.org);
    if (!simple) {
      const ok = await this.batchCheck(p, rs.map((resource) => ({ action, resource })));
      return rs.filter((_, i) => ok[i]);
    }
    // The rules in code first (scopes may narrow to some namespaces).
    const allowedByRules = rs.filter((r) => decideBeforeBindings(p, action, r) === 'bindings');
    if (allowedByRules.length === 0) return [];
    const user = userOf(p.subject!)!;
    const [orgWide] = await this.askAll(p, [{ user, relation: EFFECTIVE[cls], object: orgObject(p.org), contextual: [] }]);
    if (orgWide) return allowedByRules;
    const held = await this.namespacesHeld(p);
    const candidates = allowedByRules.filter((r) => r.kind !== 'org' && r.ns !== null && held.has(r.ns));
    const ok = await this.batchCheck(p, candidates.map((resource) => ({ action, resource })));
    const visible = new Set(candidates.filter((_, i) => ok[i]));
    return rs.filter((r) => visible.has(r));
  }

  /** The namespaces of p's org the key holds any tuple on (its bindings there), at most MAX_MEMBER_TUPLES × 10. */
  private async namespacesHeld(p: Principal): Promise<Set<number>> {
    const user = userOf(p.subject!)!;
    const prefix = `namespace:${p.org}/`;
    const out = new Set<number>();
    let token: string | undefined;
    try {
      for (let page = 0; page < 10; page++) {
        const r = await withDeadline(
          this.client.read({ user, object: 'namespace:' }, { pageSize: MAX_MEMBER_TUPLES, ...(token ? { continuationToken: token } : {}) }),
          CHECK_DEADLINE_MS,
          'an OpenFGA read',
        );
        for (const t of r.tuples) if (t.key.object.startsWith(prefix)) out.add(Number(t.key.object.slice(prefix.length)));
        token = r.continuation_token || undefined;
        if (!token) break;
      }
    } catch (e) {
      this.unavailable('check', e);
    }
    return out;
  }

  /**
   * The tuples of relations this node just changed, written now rather than at the drainer's
   * next pass (a key is usable the moment its creation is answered). They are decided from
   * the ControlStore like the drainer's, and the outbox still delivers them: a failure here
   * only delays them.
   */
  private async deliverNow(rels: KeyRelation[]): Promise<void> {
    for (const k of rels) this.touch(k.subject);
    try {
      await this.sync.sync(rels);
    } catch (e) {
      this.failed('write', e);
    }
  }

  async onCreated(e: LifecycleEvent): Promise<void> {
    if (e.kind === 'key') {
      const subject = `key:${e.keyId}`;
      const rels: KeyRelation[] = [{ org: e.org, subject, relation: 'member', target: 'org' }];
      if (e.role) {
        const target = e.ns === undefined ? ({ kind: 'org' } as const) : ({ kind: 'namespace', ns: e.ns } as const);
        await this.o.control.grant({ org: e.org, subject, role: e.role, target });
        rels.push({ org: e.org, subject, relation: e.role, target: e.ns === undefined ? 'org' : `ns:${e.ns}` });
      }
      await this.deliverNow(rels);
    } else {
      // Namespaces and collections write no tuple (their org is in their id); answers about the org read fresh.
      this.touch(`org:${e.org}`);
    }
  }

  async onDeleted(e: LifecycleEvent): Promise<void> {
    if (e.kind === 'namespace') {
      await this.o.control.dropNamespaceBindings(e.org, e.ns);
      this.touch(`org:${e.org}`);
      void this.drainer?.tick();
    } else if (e.kind === 'key') {
      await this.deliverNow([{ org: e.org, subject: `key:${e.keyId}`, relation: 'member', target: 'org' }]);
    }
  }

  async bootstrap(org: string, subject: string): Promise<void> {
    await this.o.control.grant({ org, subject, role: 'org_admin', target: { kind: 'org' } });
    await this.deliverNow([
      { org, subject, relation: 'member', target: 'org' },
      { org, subject, relation: 'org_admin', target: 'org' },
    ]);
  }
}

function cacheKey(p: Principal, a: Ask): string {
  // (principal, action, object): the action as its effective relation, which is what was asked.
  return `${p.subject}\u0000${a.relation}\u0000${a.object}`;
}
