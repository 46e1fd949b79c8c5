// The ControlStore on the DynamoDB backend: its own item kinds (pk prefix `ctl#`) in the
// metastore's table, on the metastore's client. This file is the facade: each call goes to the
// module of its concern over one shared context (./context.ts: the client, the item reads and
// the write that publishes a change with its feed and outbox entries):
//
//   tenants.ts          orgs, API keys, role bindings   ctl#org, ctl#key, ctl#bind#<org>
//   usage.ts            quota overrides, usage rollups  ctl#quota#<org>, ctl#usage#<org>
//   members.ts          gateway membership              ctl#member
//   feeds.ts            change feed, outbox, job positions   ctl#ctr, ctl#chg, ctl#outbox, ctl#job
//   namespace-keys.ts   namespace KEKs (spec §9.8)      ctl#nskey#<ns>
//   erasure.ts          erasure-log keys and requests (spec §9.6)   ctl#ekey#<org>, ctl#erasure
//
// Each module's header maps its items. The rules the SQL ControlStore shares (binding targets,
// outbox tuples, a repeated erasure create, read sizes) are in ../rules.ts. The dynamodb profile
// writes a change and its feed entry in one transaction; the alternator profile (single-item,
// spec §4.1) one after the other, so its capabilities say so.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type {
  ApiKeyInfo,
  ApiKeyRecord,
  ControlCapabilities,
  ControlChange,
  ControlOptions,
  ControlStore,
  ErasureKeyRecord,
  ErasureRow,
  Member,
  NamespaceKeyRecord,
  Org,
  OutboxEntry,
  Page,
  PageRequest,
  QuotaName,
  QuotaOverride,
  RoleBinding,
  UsageDelta,
  UsageRollup,
} from '../types.js';
import { ControlContext, type ControlProfile } from './context.js';
import * as erasure from './erasure.js';
import * as feeds from './feeds.js';
import * as members from './members.js';
import * as nsKeys from './namespace-keys.js';
import * as tenants from './tenants.js';
import * as usage from './usage.js';

export { MAX_CONTROL_QUERY_PAGES } from './context.js';
export { MAX_EXPIRED_PER_BEAT } from './members.js';

export class DynamoControlStore implements ControlStore {
  private readonly cx: ControlContext;

  constructor(client: DynamoDBClient, table: string, profile: ControlProfile, opts: ControlOptions = {}) {
    this.cx = new ControlContext(client, table, profile, opts);
  }

  capabilities(): ControlCapabilities {
    return { transactions: this.cx.profile === 'dynamodb' ? 'multi-item' : 'single-item', feedOrder: 'gaps' };
  }

  async init(): Promise<void> {}
  async close(): Promise<void> {}

  // ---- orgs, keys, bindings (tenants.ts)

  createOrg(id: string, at?: number): Promise<Org> {
    return tenants.createOrg(this.cx, id, at);
  }
  org(id: string): Promise<Org> {
    return tenants.org(this.cx, id);
  }
  listOrgs(p?: PageRequest): Promise<Page<Org>> {
    return tenants.listOrgs(this.cx, p);
  }
  createKey(rec: Omit<ApiKeyRecord, 'lastUsed' | 'revoked'>): Promise<ApiKeyInfo> {
    return tenants.createKey(this.cx, rec);
  }
  key(keyId: string): Promise<ApiKeyRecord> {
    return tenants.key(this.cx, keyId);
  }
  listKeys(org: string, p?: PageRequest): Promise<Page<ApiKeyInfo>> {
    return tenants.listKeys(this.cx, org, p);
  }
  revokeKey(org: string, keyId: string, at?: number): Promise<void> {
    return tenants.revokeKey(this.cx, org, keyId, at);
  }
  touchKeys(touches: { keyId: string; at: number }[]): Promise<void> {
    return tenants.touchKeys(this.cx, touches);
  }
  grant(b: Omit<RoleBinding, 'created'>): Promise<RoleBinding> {
    return tenants.grant(this.cx, b);
  }
  revokeGrant(b: Omit<RoleBinding, 'created'>): Promise<void> {
    return tenants.revokeGrant(this.cx, b);
  }
  bindings(org: string, subject: string): Promise<RoleBinding[]> {
    return tenants.bindings(this.cx, org, subject);
  }
  listBindings(org: string, p?: PageRequest): Promise<Page<RoleBinding>> {
    return tenants.listBindings(this.cx, org, p);
  }
  dropNamespaceBindings(org: string, ns: number): Promise<void> {
    return tenants.dropNamespaceBindings(this.cx, org, ns);
  }

  // ---- quotas and usage (usage.ts)

  setQuota(org: string, ns: number | null, name: QuotaName, value: number | null): Promise<void> {
    return usage.setQuota(this.cx, org, ns, name, value);
  }
  quotas(org: string): Promise<QuotaOverride[]> {
    return usage.quotas(this.cx, org);
  }
  putUsage(rows: Omit<UsageRollup, 'updated'>[], at?: number): Promise<void> {
    return usage.putUsage(this.cx, rows, at);
  }
  addUsage(rows: UsageDelta[], at?: number): Promise<void> {
    return usage.addUsage(this.cx, rows, at);
  }
  usage(org: string, o?: { metric?: string; since?: number; limit?: number }): Promise<UsageRollup[]> {
    return usage.usage(this.cx, org, o);
  }

  // ---- membership (members.ts)

  heartbeat(node: string, ttlMs: number, at?: number, info?: string): Promise<void> {
    return members.heartbeat(this.cx, node, ttlMs, at, info);
  }
  members(at?: number): Promise<Member[]> {
    return members.members(this.cx, at);
  }
  leave(node: string): Promise<void> {
    return members.leave(this.cx, node);
  }

  // ---- change feed, outbox, job positions (feeds.ts)

  controlVersion(): Promise<number> {
    return feeds.controlVersion(this.cx);
  }
  changesSince(after: number, limit?: number): Promise<ControlChange[]> {
    return feeds.changesSince(this.cx, after, limit);
  }
  outbox(limit?: number): Promise<OutboxEntry[]> {
    return feeds.outbox(this.cx, limit);
  }
  ackOutbox(seqs: number[]): Promise<void> {
    return feeds.ackOutbox(this.cx, seqs);
  }
  jobPosition(job: string): Promise<string | null> {
    return feeds.jobPosition(this.cx, job);
  }
  saveJobPosition(job: string, position: string | null, at?: number): Promise<void> {
    return feeds.saveJobPosition(this.cx, job, position, at);
  }

  // ---- namespace keys (namespace-keys.ts)

  createNamespaceKey(rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): Promise<NamespaceKeyRecord> {
    return nsKeys.createNamespaceKey(this.cx, rec);
  }
  namespaceKeys(ns: number): Promise<NamespaceKeyRecord[]> {
    return nsKeys.namespaceKeys(this.cx, ns);
  }
  destroyNamespaceKeys(ns: number, at?: number): Promise<void> {
    return nsKeys.destroyNamespaceKeys(this.cx, ns, at);
  }

  // ---- erasure (erasure.ts)

  putErasureKey(k: ErasureKeyRecord): Promise<void> {
    return erasure.putErasureKey(this.cx, k);
  }
  erasureKeys(org: string): Promise<ErasureKeyRecord[]> {
    return erasure.erasureKeys(this.cx, org);
  }
  destroyErasureKeys(org: string, at?: number): Promise<number> {
    return erasure.destroyErasureKeys(this.cx, org, at);
  }
  createErasure(row: Omit<ErasureRow, 'version'>): Promise<ErasureRow> {
    return erasure.createErasure(this.cx, row);
  }
  erasure(id: string): Promise<ErasureRow> {
    return erasure.erasure(this.cx, id);
  }
  updateErasure(id: string, expectedVersion: number, next: Pick<ErasureRow, 'phase' | 'completed' | 'data'>): Promise<ErasureRow> {
    return erasure.updateErasure(this.cx, id, expectedVersion, next);
  }
  listErasures(o: { org?: string; active?: boolean; after?: string; limit?: number }): Promise<Page<ErasureRow>> {
    return erasure.listErasures(this.cx, o);
  }
}
