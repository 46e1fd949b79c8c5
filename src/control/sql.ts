// The ControlStore on SQL (embedded SQLite and PostgreSQL share it): its own tables beside
// the metastore's, in the same database. Every write and its change-feed entry commit in one
// transaction, and the feed's version counter is one row updated in that transaction, so
// versions are dense and commit in order (the row lock serializes control writes, which are rare).
import { errors, isMetaError } from '../meta/errors.js';
import { MAX_PAGE_LIMIT } from '../meta/limits.js';
import {
  MAX_CHANGES_PAGE,
  MAX_MEMBERS,
  MAX_NAMESPACE_KEY_VERSIONS,
  MAX_OUTBOX_PAGE,
  MAX_QUOTA_OVERRIDES,
  type ApiKeyInfo,
  type ApiKeyRecord,
  type ControlCapabilities,
  type ControlChange,
  type ControlChangeKind,
  type ControlOptions,
  type ControlStore,
  type ErasureKeyRecord,
  type ErasureRow,
  type Member,
  type NamespaceKeyRecord,
  type Org,
  type OutboxEntry,
  type Page,
  type PageRequest,
  type QuotaName,
  type QuotaOverride,
  type RoleBinding,
  type RoleName,
  type UsageDelta,
  type UsageRollup,
} from './types.js';
import { bindingTuple, changesLimit, checkQuotaRoom, erasureLimit, existingErasure, keyInfo, keyTuple, outboxLimit, pageLimit, parseTarget, parseUsageCursor, targetKey, usageLimit, type OutboxTuple } from './rules.js';
import { checkBatch, checkBinding, checkErasureData, checkErasureKey, checkErasureRow, checkHeartbeat, checkJob, checkJobPosition, checkKey, checkNamespaceKey, checkNode, checkOrg, checkQuota, checkUsageDelta, checkUsageRollup } from './validate.js';

/** Change-feed rows kept; a watcher further behind reloads its caches whole. */
export const MAX_RETAINED_CHANGES = 10_000;

export type Row = Record<string, unknown>;
export type Query = (sql: string, params?: unknown[]) => Promise<Row[]>;

/** What a SQL dialect gives the store: statements with $1… parameters, and transactions. */
export interface SqlDriver {
  readonly dialect: 'sqlite' | 'postgres';
  query: Query;
  /** Runs `fn` in one write transaction (retrying is the driver's business). */
  tx<T>(fn: (q: Query) => Promise<T>): Promise<T>;
  /** Whether an error is a unique-key violation. */
  isUniqueViolation(e: unknown): boolean;
  close(): Promise<void>;
}

/** The tables, for both dialects (types both accept). `win`, not `window`: a keyword in Postgres. */
export const CONTROL_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS control_version (id INTEGER PRIMARY KEY, v BIGINT NOT NULL)`,
  `INSERT INTO control_version (id, v) VALUES (1, 0) ON CONFLICT (id) DO NOTHING`,
  `CREATE TABLE IF NOT EXISTS control_orgs (id TEXT PRIMARY KEY, created BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS control_keys (key_id TEXT PRIMARY KEY, org TEXT NOT NULL, secret_hash TEXT NOT NULL,
     scopes TEXT NOT NULL, expiry BIGINT, created_by TEXT NOT NULL, created BIGINT NOT NULL, last_used BIGINT, revoked BIGINT)`,
  `CREATE INDEX IF NOT EXISTS control_keys_org ON control_keys (org, key_id)`,
  `CREATE TABLE IF NOT EXISTS control_bindings (org TEXT NOT NULL, subject TEXT NOT NULL, target TEXT NOT NULL, role TEXT NOT NULL,
     created BIGINT NOT NULL, PRIMARY KEY (org, subject, target, role))`,
  `CREATE INDEX IF NOT EXISTS control_bindings_target ON control_bindings (org, target)`,
  `CREATE TABLE IF NOT EXISTS control_quotas (org TEXT NOT NULL, ns BIGINT NOT NULL, name TEXT NOT NULL, value DOUBLE PRECISION NOT NULL,
     PRIMARY KEY (org, ns, name))`,
  `CREATE TABLE IF NOT EXISTS control_usage (org TEXT NOT NULL, ns BIGINT NOT NULL, metric TEXT NOT NULL, win BIGINT NOT NULL,
     value DOUBLE PRECISION NOT NULL, updated BIGINT NOT NULL, PRIMARY KEY (org, ns, metric, win))`,
  `CREATE TABLE IF NOT EXISTS control_members (node TEXT PRIMARY KEY, expires BIGINT NOT NULL)`,
  // A member's info (the router's roles, zone, weight, address; spec §5.3): a table of its own,
  // so stores created before it need no column migration.
  `CREATE TABLE IF NOT EXISTS control_member_info (node TEXT PRIMARY KEY, info TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS control_changes (version BIGINT PRIMARY KEY, kind TEXT NOT NULL, org TEXT NOT NULL, id TEXT NOT NULL, at BIGINT NOT NULL)`,
  // The authorization outbox (spec §7); its sequence is row 2 of control_version.
  `INSERT INTO control_version (id, v) VALUES (2, 0) ON CONFLICT (id) DO NOTHING`,
  // Namespace key-encryption keys, wrapped (spec §9.8); a destroyed version keeps its row with wrapped = ''.
  `CREATE TABLE IF NOT EXISTS control_ns_keys (ns BIGINT NOT NULL, version BIGINT NOT NULL, provider TEXT NOT NULL, key_ref TEXT NOT NULL,
     wrapped TEXT NOT NULL, state TEXT NOT NULL, created BIGINT NOT NULL, destroyed BIGINT, PRIMARY KEY (ns, version))`,
  // Erasure (spec §9.6): the per-org erasure-log keys (wrapped) and the erasure requests.
  `CREATE TABLE IF NOT EXISTS control_erasure_keys (org TEXT NOT NULL, version BIGINT NOT NULL, wrapped TEXT NOT NULL, created BIGINT NOT NULL,
     destroyed BIGINT, PRIMARY KEY (org, version))`,
  `CREATE TABLE IF NOT EXISTS control_erasures (id TEXT PRIMARY KEY, org TEXT NOT NULL, ns BIGINT NOT NULL, collection BIGINT NOT NULL,
     phase TEXT NOT NULL, requested BIGINT NOT NULL, completed BIGINT, version BIGINT NOT NULL, data TEXT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS control_erasures_org ON control_erasures (org, id)`,
  `CREATE TABLE IF NOT EXISTS control_outbox (seq BIGINT PRIMARY KEY, org TEXT NOT NULL, subject TEXT NOT NULL, relation TEXT NOT NULL,
     target TEXT NOT NULL, at BIGINT NOT NULL)`,
  // Positions of cluster-wide background jobs (the OpenFGA reconcile's, spec §7).
  `CREATE TABLE IF NOT EXISTS control_jobs (job TEXT PRIMARY KEY, position TEXT NOT NULL, at BIGINT NOT NULL)`,
];

const n = (v: unknown): number => Number(v);
const nn = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
/** Org-wide rows use ns = -1 (a primary key column cannot be null). */
const NS_NONE = -1;

function keyRow(r: Row): ApiKeyRecord {
  return {
    keyId: String(r.key_id),
    org: String(r.org),
    secretHash: String(r.secret_hash),
    scopes: JSON.parse(String(r.scopes)) as string[],
    expiry: nn(r.expiry),
    createdBy: String(r.created_by),
    created: n(r.created),
    lastUsed: nn(r.last_used),
    revoked: nn(r.revoked),
  };
}

function bindingRow(r: Row): RoleBinding {
  return { org: String(r.org), subject: String(r.subject), role: String(r.role) as RoleName, target: parseTarget(String(r.target)), created: n(r.created) };
}

function erasureRow(r: Row): ErasureRow {
  return {
    id: String(r.id),
    org: String(r.org),
    ns: n(r.ns),
    collection: n(r.collection),
    phase: String(r.phase),
    requested: n(r.requested),
    completed: nn(r.completed),
    version: n(r.version),
    data: String(r.data),
  };
}

export class SqlControlStore implements ControlStore {
  constructor(
    private readonly d: SqlDriver,
    private readonly ownsDriver: boolean,
    private readonly opts: ControlOptions = {},
  ) {}

  /** Appends an outbox entry in the caller's transaction (when the outbox is on). */
  private async outboxed(q: Query, e: OutboxTuple): Promise<void> {
    if (!this.opts.outbox) return;
    const [r] = await q(`UPDATE control_version SET v = v + 1 WHERE id = 2 RETURNING v`);
    await q(`INSERT INTO control_outbox (seq, org, subject, relation, target, at) VALUES ($1, $2, $3, $4, $5, $6)`, [n(r!.v), e.org, e.subject, e.relation, e.target, e.at]);
  }

  async outbox(limit = MAX_OUTBOX_PAGE): Promise<OutboxEntry[]> {
    const rows = await this.d.query(`SELECT * FROM control_outbox ORDER BY seq LIMIT $1`, [outboxLimit(limit)]);
    return rows.map((r) => ({ seq: n(r.seq), org: String(r.org), subject: String(r.subject), relation: String(r.relation), target: String(r.target), at: n(r.at) }));
  }

  async ackOutbox(seqs: number[]): Promise<void> {
    checkBatch('MAX_OUTBOX_PAGE', seqs);
    if (seqs.length === 0) return;
    await this.d.tx(async (q) => {
      for (const seq of seqs) await q(`DELETE FROM control_outbox WHERE seq = $1`, [seq]);
    });
  }

  async jobPosition(job: string): Promise<string | null> {
    checkJob(job);
    const [r] = await this.d.query(`SELECT position FROM control_jobs WHERE job = $1`, [job]);
    return r ? String(r.position) : null;
  }

  async saveJobPosition(job: string, position: string | null, at = Date.now()): Promise<void> {
    checkJob(job);
    checkJobPosition(position);
    await this.d.tx(async (q) => {
      if (position === null) await q(`DELETE FROM control_jobs WHERE job = $1`, [job]);
      else {
        await q(
          `INSERT INTO control_jobs (job, position, at) VALUES ($1, $2, $3) ON CONFLICT (job) DO UPDATE SET position = excluded.position, at = excluded.at`,
          [job, position, at],
        );
      }
    });
  }

  capabilities(): ControlCapabilities {
    return { transactions: 'multi-item', feedOrder: 'ordered' };
  }

  async init(): Promise<void> {
    await this.d.tx(async (q) => {
      // Two nodes starting at once must not race CREATE TABLE IF NOT EXISTS (Postgres).
      if (this.d.dialect === 'postgres') await q(`SELECT pg_advisory_xact_lock(hashtext('loam:control-migrate'))`);
      for (const s of CONTROL_DDL) await q(s);
    });
  }

  async close(): Promise<void> {
    if (this.ownsDriver) await this.d.close();
  }

  /** Appends a change-feed entry in the caller's transaction. */
  private async change(q: Query, kind: ControlChangeKind, org: string, id: string, at: number): Promise<void> {
    const [r] = await q(`UPDATE control_version SET v = v + 1 WHERE id = 1 RETURNING v`);
    const v = n(r!.v);
    await q(`INSERT INTO control_changes (version, kind, org, id, at) VALUES ($1, $2, $3, $4, $5)`, [v, kind, org, id, at]);
    if (v % 100 === 0) await q(`DELETE FROM control_changes WHERE version <= $1`, [v - MAX_RETAINED_CHANGES]);
  }

  async createOrg(id: string, at = Date.now()): Promise<Org> {
    checkOrg(id);
    try {
      await this.d.tx(async (q) => {
        await q(`INSERT INTO control_orgs (id, created) VALUES ($1, $2)`, [id, at]);
        await this.change(q, 'org', id, '', at);
      });
    } catch (e) {
      if (this.d.isUniqueViolation(e)) throw errors.alreadyExists(`org "${id}"`, 0);
      throw e;
    }
    return { id, created: at };
  }

  async org(id: string): Promise<Org> {
    const [r] = await this.d.query(`SELECT id, created FROM control_orgs WHERE id = $1`, [id]);
    if (!r) throw errors.notFound(`org "${id}"`);
    return { id: String(r.id), created: n(r.created) };
  }

  async listOrgs(p?: PageRequest): Promise<Page<Org>> {
    const limit = pageLimit(p);
    const rows = await this.d.query(`SELECT id, created FROM control_orgs WHERE id > $1 ORDER BY id LIMIT $2`, [p?.after ?? '', limit + 1]);
    const items = rows.slice(0, limit).map((r) => ({ id: String(r.id), created: n(r.created) }));
    return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  async createKey(rec: Omit<ApiKeyRecord, 'lastUsed' | 'revoked'>): Promise<ApiKeyInfo> {
    checkKey(rec);
    try {
      await this.d.tx(async (q) => {
        const [o] = await q(`SELECT id FROM control_orgs WHERE id = $1`, [rec.org]);
        if (!o) throw errors.notFound(`org "${rec.org}"`);
        await q(
          `INSERT INTO control_keys (key_id, org, secret_hash, scopes, expiry, created_by, created, last_used, revoked)
           VALUES ($1, $2, $3, $4, $5, $6, $7, NULL, NULL)`,
          [rec.keyId, rec.org, rec.secretHash, JSON.stringify(rec.scopes), rec.expiry, rec.createdBy, rec.created],
        );
        await this.change(q, 'key', rec.org, rec.keyId, rec.created);
        await this.outboxed(q, keyTuple(rec.org, rec.keyId, rec.created));
      });
    } catch (e) {
      if (this.d.isUniqueViolation(e)) throw errors.alreadyExists(`key ${rec.keyId}`, 0);
      throw e;
    }
    return keyInfo({ ...rec, lastUsed: null, revoked: null });
  }

  async key(keyId: string): Promise<ApiKeyRecord> {
    const [r] = await this.d.query(`SELECT * FROM control_keys WHERE key_id = $1`, [keyId]);
    if (!r) throw errors.notFound(`key ${keyId}`);
    return keyRow(r);
  }

  async listKeys(org: string, p?: PageRequest): Promise<Page<ApiKeyInfo>> {
    const limit = pageLimit(p);
    const rows = await this.d.query(`SELECT * FROM control_keys WHERE org = $1 AND key_id > $2 ORDER BY key_id LIMIT $3`, [org, p?.after ?? '', limit + 1]);
    const items = rows.slice(0, limit).map((r) => keyInfo(keyRow(r)));
    return rows.length > limit ? { items, next: items[items.length - 1]!.keyId } : { items };
  }

  async revokeKey(org: string, keyId: string, at = Date.now()): Promise<void> {
    await this.d.tx(async (q) => {
      const [r] = await q(`SELECT revoked FROM control_keys WHERE key_id = $1 AND org = $2`, [keyId, org]);
      if (!r) throw errors.notFound(`key ${keyId}`);
      if (r.revoked !== null && r.revoked !== undefined) return;
      await q(`UPDATE control_keys SET revoked = $1 WHERE key_id = $2`, [at, keyId]);
      await this.change(q, 'key', org, keyId, at);
      await this.outboxed(q, keyTuple(org, keyId, at));
    });
  }

  async touchKeys(touches: { keyId: string; at: number }[]): Promise<void> {
    checkBatch('MAX_TOUCH_BATCH', touches);
    if (touches.length === 0) return;
    await this.d.tx(async (q) => {
      for (const t of touches) {
        await q(`UPDATE control_keys SET last_used = $1 WHERE key_id = $2 AND (last_used IS NULL OR last_used < $1)`, [t.at, t.keyId]);
      }
    });
  }

  async grant(b: Omit<RoleBinding, 'created'>): Promise<RoleBinding> {
    checkBinding(b);
    const at = Date.now();
    await this.d.tx(async (q) => {
      const [o] = await q(`SELECT id FROM control_orgs WHERE id = $1`, [b.org]);
      if (!o) throw errors.notFound(`org "${b.org}"`);
      const r = await q(
        `INSERT INTO control_bindings (org, subject, target, role, created) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING created`,
        [b.org, b.subject, targetKey(b.target), b.role, at],
      );
      if (r.length > 0) {
        await this.change(q, 'binding', b.org, b.subject, at);
        await this.outboxed(q, bindingTuple(b, at));
      }
    });
    return { ...b, created: at };
  }

  async revokeGrant(b: Omit<RoleBinding, 'created'>): Promise<void> {
    checkBinding(b);
    await this.d.tx(async (q) => {
      const r = await q(`DELETE FROM control_bindings WHERE org = $1 AND subject = $2 AND target = $3 AND role = $4 RETURNING org`, [
        b.org,
        b.subject,
        targetKey(b.target),
        b.role,
      ]);
      if (r.length > 0) {
        await this.change(q, 'binding', b.org, b.subject, Date.now());
        await this.outboxed(q, bindingTuple(b, Date.now()));
      }
    });
  }

  async bindings(org: string, subject: string): Promise<RoleBinding[]> {
    const rows = await this.d.query(`SELECT * FROM control_bindings WHERE org = $1 AND subject = $2 ORDER BY target, role LIMIT $3`, [org, subject, MAX_PAGE_LIMIT]);
    return rows.map(bindingRow);
  }

  async listBindings(org: string, p?: PageRequest): Promise<Page<RoleBinding>> {
    const limit = pageLimit(p);
    // Cursor: subject, target and role joined by a byte no name contains.
    const [s, t, r] = (p?.after ?? '\u0000\u0000').split('\u0000');
    const rows = await this.d.query(
      `SELECT * FROM control_bindings WHERE org = $1 AND (subject > $2 OR (subject = $2 AND (target > $3 OR (target = $3 AND role > $4))))
       ORDER BY subject, target, role LIMIT $5`,
      [org, s ?? '', t ?? '', r ?? '', limit + 1],
    );
    const items = rows.slice(0, limit).map(bindingRow);
    const last = items[items.length - 1];
    return rows.length > limit && last ? { items, next: [last.subject, targetKey(last.target), last.role].join('\u0000') } : { items };
  }

  async dropNamespaceBindings(org: string, ns: number): Promise<void> {
    await this.d.tx(async (q) => {
      const rows = await q(`DELETE FROM control_bindings WHERE org = $1 AND target = $2 RETURNING subject, role`, [org, `ns:${ns}`]);
      const subjects = [...new Set(rows.map((r) => String(r.subject)))];
      for (const s of subjects.slice(0, MAX_PAGE_LIMIT)) await this.change(q, 'binding', org, s, Date.now());
      for (const r of rows.slice(0, MAX_PAGE_LIMIT)) {
        await this.outboxed(q, bindingTuple({ org, subject: String(r.subject), role: String(r.role) as RoleName, target: { kind: 'namespace', ns } }, Date.now()));
      }
      // Its quota overrides too: no name resolves to it any more, so nothing else could clear them.
      const quotas = await q(`DELETE FROM control_quotas WHERE org = $1 AND ns = $2 RETURNING name`, [org, ns]);
      if (quotas.length > 0) await this.change(q, 'quota', org, '', Date.now());
    });
  }

  async setQuota(org: string, ns: number | null, name: QuotaName, value: number | null): Promise<void> {
    checkQuota(org, ns, name, value);
    await this.d.tx(async (q) => {
      if (value === null) await q(`DELETE FROM control_quotas WHERE org = $1 AND ns = $2 AND name = $3`, [org, ns ?? NS_NONE, name]);
      else {
        // Two sets on Postgres (READ COMMITTED) must not both count room for one more.
        if (this.d.dialect === 'postgres') await q(`SELECT id FROM control_orgs WHERE id = $1 FOR UPDATE`, [org]);
        const [c] = await q(`SELECT count(*) AS n, count(CASE WHEN ns = $2 AND name = $3 THEN 1 END) AS self FROM control_quotas WHERE org = $1`, [org, ns ?? NS_NONE, name]);
        checkQuotaRoom(Number(c?.n ?? 0), Number(c?.self ?? 0) > 0);
        await q(`INSERT INTO control_quotas (org, ns, name, value) VALUES ($1, $2, $3, $4) ON CONFLICT (org, ns, name) DO UPDATE SET value = excluded.value`, [
          org,
          ns ?? NS_NONE,
          name,
          value,
        ]);
      }
      await this.change(q, 'quota', org, '', Date.now());
    });
  }

  async quotas(org: string): Promise<QuotaOverride[]> {
    const rows = await this.d.query(`SELECT * FROM control_quotas WHERE org = $1 ORDER BY ns, name LIMIT $2`, [org, MAX_QUOTA_OVERRIDES]);
    return rows.map((r) => ({ org: String(r.org), ns: n(r.ns) === NS_NONE ? null : n(r.ns), name: String(r.name) as QuotaName, value: n(r.value) }));
  }

  async putUsage(rows: Omit<UsageRollup, 'updated'>[], at = Date.now()): Promise<void> {
    checkBatch('MAX_USAGE_ROWS', rows);
    for (const u of rows) checkUsageRollup(u);
    if (rows.length === 0) return;
    await this.d.tx(async (q) => {
      for (const u of rows) {
        await q(
          `INSERT INTO control_usage (org, ns, metric, win, value, updated) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (org, ns, metric, win) DO UPDATE SET value = excluded.value, updated = excluded.updated`,
          [u.org, u.ns ?? NS_NONE, u.metric, u.window, u.value, at],
        );
      }
    });
  }

  async addUsage(rows: UsageDelta[], at = Date.now()): Promise<void> {
    checkBatch('MAX_USAGE_ROWS', rows);
    for (const u of rows) checkUsageDelta(u);
    if (rows.length === 0) return;
    await this.d.tx(async (q) => {
      for (const u of rows) {
        await q(
          `INSERT INTO control_usage (org, ns, metric, win, value, updated) VALUES ($1, $2, $3, $4, $5, $6)
           ON CONFLICT (org, ns, metric, win) DO UPDATE SET value = control_usage.value + excluded.value, updated = excluded.updated`,
          [u.org, u.ns ?? NS_NONE, u.metric, u.window, u.delta, at],
        );
      }
    });
  }

  async usage(org: string, o: { metric?: string; since?: number; limit?: number; after?: string } = {}): Promise<UsageRollup[]> {
    const a = o.after === undefined ? null : parseUsageCursor(o.after);
    const rows = await this.d.query(
      a === null
        ? `SELECT * FROM control_usage WHERE org = $1 AND ($2 = '' OR metric = $2) AND win >= $3 ORDER BY ns, metric, win LIMIT $4`
        : `SELECT * FROM control_usage WHERE org = $1 AND ($2 = '' OR metric = $2) AND win >= $3
             AND (ns > $5 OR (ns = $5 AND (metric > $6 OR (metric = $6 AND win > $7)))) ORDER BY ns, metric, win LIMIT $4`,
      [org, o.metric ?? '', o.since ?? 0, usageLimit(o.limit), ...(a === null ? [] : [a.ns ?? NS_NONE, a.metric, a.window])],
    );
    return rows.map((r) => ({
      org: String(r.org),
      ns: n(r.ns) === NS_NONE ? null : n(r.ns),
      metric: String(r.metric),
      window: n(r.win),
      value: n(r.value),
      updated: n(r.updated),
    }));
  }

  async heartbeat(node: string, ttlMs: number, at = Date.now(), info?: string): Promise<void> {
    checkHeartbeat(node, ttlMs, at, info);
    await this.d.tx(async (q) => {
      await q(
        `INSERT INTO control_members (node, expires) VALUES ($1, $2)
         ON CONFLICT (node) DO UPDATE SET expires = CASE WHEN excluded.expires > control_members.expires THEN excluded.expires ELSE control_members.expires END`,
        [node, at + ttlMs],
      );
      if (info !== undefined) {
        await q(`INSERT INTO control_member_info (node, info) VALUES ($1, $2) ON CONFLICT (node) DO UPDATE SET info = excluded.info`, [node, info]);
      }
      // Expired members are nobody's: whoever beats next clears them (and their info).
      const gone = await q(`SELECT node FROM control_members WHERE expires <= $1 LIMIT $2`, [at, MAX_MEMBERS]);
      for (const g of gone) await q(`DELETE FROM control_member_info WHERE node = $1`, [String(g.node)]);
      await q(`DELETE FROM control_members WHERE expires <= $1`, [at]);
    });
  }

  async members(at = Date.now()): Promise<Member[]> {
    const rows = await this.d.query(
      `SELECT m.node, m.expires, i.info FROM control_members m LEFT JOIN control_member_info i ON i.node = m.node
       WHERE m.expires > $1 ORDER BY m.node LIMIT $2`,
      [at, MAX_MEMBERS],
    );
    return rows.map((r) => ({ node: String(r.node), expires: n(r.expires), info: r.info === null || r.info === undefined ? '' : String(r.info) }));
  }

  async leave(node: string): Promise<void> {
    checkNode(node);
    await this.d.tx(async (q) => {
      await q(`DELETE FROM control_members WHERE node = $1`, [node]);
      await q(`DELETE FROM control_member_info WHERE node = $1`, [node]);
    });
  }

  async createNamespaceKey(rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): Promise<NamespaceKeyRecord> {
    checkNamespaceKey(rec);
    try {
      await this.d.query(`INSERT INTO control_ns_keys (ns, version, provider, key_ref, wrapped, state, created) VALUES ($1, $2, $3, $4, $5, 'active', $6)`, [
        rec.ns,
        rec.version,
        rec.provider,
        rec.keyRef,
        rec.wrapped,
        rec.created,
      ]);
    } catch (e) {
      if (this.d.isUniqueViolation(e)) throw errors.alreadyExists(`key version ${rec.version} of namespace ${rec.ns}`, rec.ns);
      throw e;
    }
    return { ...rec, state: 'active', destroyed: null };
  }

  async namespaceKeys(ns: number): Promise<NamespaceKeyRecord[]> {
    const rows = await this.d.query(`SELECT * FROM control_ns_keys WHERE ns = $1 ORDER BY version LIMIT $2`, [ns, MAX_NAMESPACE_KEY_VERSIONS]);
    return rows.map((r) => ({
      ns: n(r.ns),
      version: n(r.version),
      provider: String(r.provider) as NamespaceKeyRecord['provider'],
      keyRef: String(r.key_ref),
      wrapped: String(r.wrapped),
      state: String(r.state) as NamespaceKeyRecord['state'],
      created: n(r.created),
      destroyed: nn(r.destroyed),
    }));
  }

  async destroyNamespaceKeys(ns: number, at = Date.now()): Promise<void> {
    await this.d.tx(async (q) => {
      await q(`UPDATE control_ns_keys SET wrapped = '', state = 'destroyed', destroyed = COALESCE(destroyed, $2) WHERE ns = $1`, [ns, at]);
      await this.change(q, 'nskey', '', String(ns), at);
    });
  }

  async putErasureKey(k: ErasureKeyRecord): Promise<void> {
    checkErasureKey(k);
    try {
      await this.d.tx(async (q) => {
        await q(`INSERT INTO control_erasure_keys (org, version, wrapped, created, destroyed) VALUES ($1, $2, $3, $4, NULL)`, [k.org, k.version, k.wrapped, k.created]);
      });
    } catch (e) {
      if (this.d.isUniqueViolation(e)) throw errors.alreadyExists(`erasure-log key version ${k.version} of org "${k.org}"`, k.version);
      throw e;
    }
  }

  async erasureKeys(org: string): Promise<ErasureKeyRecord[]> {
    const rows = await this.d.query(`SELECT * FROM control_erasure_keys WHERE org = $1 ORDER BY version LIMIT $2`, [org, MAX_PAGE_LIMIT]);
    return rows.map((r) => ({ org: String(r.org), version: n(r.version), wrapped: String(r.wrapped), created: n(r.created), destroyed: nn(r.destroyed) }));
  }

  async destroyErasureKeys(org: string, at = Date.now()): Promise<number> {
    return this.d.tx(async (q) => {
      const rows = await q(`SELECT version FROM control_erasure_keys WHERE org = $1 AND destroyed IS NULL`, [org]);
      await q(`UPDATE control_erasure_keys SET wrapped = '', destroyed = $1 WHERE org = $2 AND destroyed IS NULL`, [at, org]);
      return rows.length;
    });
  }

  async createErasure(row: Omit<ErasureRow, 'version'>): Promise<ErasureRow> {
    checkErasureRow(row);
    try {
      await this.d.tx(async (q) => {
        await q(`INSERT INTO control_erasures (id, org, ns, collection, phase, requested, completed, version, data) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8)`, [
          row.id,
          row.org,
          row.ns,
          row.collection,
          row.phase,
          row.requested,
          row.completed,
          row.data,
        ]);
      });
    } catch (e) {
      if (!this.d.isUniqueViolation(e)) throw e;
      return existingErasure(await this.erasure(row.id), row);
    }
    return { ...row, version: 1 };
  }

  async erasure(id: string): Promise<ErasureRow> {
    const [r] = await this.d.query(`SELECT * FROM control_erasures WHERE id = $1`, [id]);
    if (!r) throw errors.notFound(`erasure ${id}`);
    return erasureRow(r);
  }

  async updateErasure(id: string, expectedVersion: number, next: Pick<ErasureRow, 'phase' | 'completed' | 'data'>): Promise<ErasureRow> {
    checkErasureData(next.data);
    return this.d.tx(async (q) => {
      const [r] = await q(`SELECT * FROM control_erasures WHERE id = $1`, [id]);
      if (!r) throw errors.notFound(`erasure ${id}`);
      const cur = erasureRow(r);
      if (cur.version !== expectedVersion) throw errors.versionMismatch(`erasure ${id}`, expectedVersion, cur.version);
      await q(`UPDATE control_erasures SET phase = $1, completed = $2, data = $3, version = $4 WHERE id = $5`, [next.phase, next.completed, next.data, cur.version + 1, id]);
      return { ...cur, ...next, version: cur.version + 1 };
    });
  }

  async listErasures(o: { org?: string; active?: boolean; after?: string; limit?: number }): Promise<Page<ErasureRow>> {
    const limit = erasureLimit(o.limit);
    const rows = await this.d.query(
      `SELECT * FROM control_erasures WHERE ($1 = '' OR org = $1) AND ($2 = 0 OR completed IS NULL) AND id > $3 ORDER BY id LIMIT $4`,
      [o.org ?? '', o.active ? 1 : 0, o.after ?? '', limit + 1],
    );
    const items = rows.slice(0, limit).map(erasureRow);
    return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  async controlVersion(): Promise<number> {
    const [r] = await this.d.query(`SELECT v FROM control_version WHERE id = 1`);
    return r ? n(r.v) : 0;
  }

  async changesSince(after: number, limit = MAX_CHANGES_PAGE): Promise<ControlChange[]> {
    const rows = await this.d.query(`SELECT * FROM control_changes WHERE version > $1 ORDER BY version LIMIT $2`, [after, changesLimit(limit)]);
    return rows.map((r) => ({ version: n(r.version), kind: String(r.kind) as ControlChangeKind, org: String(r.org), id: String(r.id), at: n(r.at) }));
  }
}

export { isMetaError };
