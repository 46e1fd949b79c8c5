// The ControlStore of a remote metastore server (spec §6, §8): every call one RPC on the
// metastore's channel (src/meta/backends/remote/channel.ts), each write with its own
// idempotency key so a retry after a lost response applies nothing twice.
import { randomUUID } from 'node:crypto';
import type { RemoteChannel } from '../meta/backends/remote/channel.js';
import * as c from './remote-codec.js';
import { MetaError } from '../meta/errors.js';
import type { ControlCapabilities, ControlStore, ErasureRow } from './types.js';

function erasureFromWire(r: { id: string; org: string; ns: number; collection: number; phase: string; requested: number; completed?: number | null; version: number; data: string }): ErasureRow {
  return { id: r.id, org: r.org, ns: r.ns, collection: r.collection, phase: r.phase, requested: r.requested, completed: r.completed ?? null, version: r.version, data: r.data };
}

/** Namespace keys never cross the wire (spec §9.8): a node keeps its key provider next to its own ControlStore. */
const noRemoteKeys = () => Promise.reject(new MetaError('InvalidArgument', 'namespace keys: a remote ControlStore does not serve them; configure encryption on the nodes that hold the ControlStore'));

export function remoteControlStore(ch: RemoteChannel): ControlStore {
  const id = () => randomUUID();
  const W = true;
  const R = false;
  let caps: ControlCapabilities = { transactions: 'multi-item', feedOrder: 'ordered' };
  return {
    capabilities: () => ({ ...caps }),
    async init() {
      await ch.callControl('Init', W, {});
      const x = await ch.callControl('Capabilities', R, {});
      caps = { transactions: c.CONTROL_TRANSACTIONS.fromWire(x.transactions, 'transactions'), feedOrder: c.FEED_ORDER.fromWire(x.feedOrder, 'feedOrder') };
    },
    // The channel is the metastore's: closing the ControlStore leaves it open (as a shared connection is).
    async close() {},

    createOrg: async (org, at) => ch.callControl('CreateOrg', W, { id: org, ...c.some('at', at), requestId: id() }),
    org: async (org) => ch.callControl('GetOrg', R, { id: org }),
    async listOrgs(page) {
      const p = await ch.callControl('ListOrgs', R, { page: c.pageToWire(page) });
      return { items: p.items, ...c.some('next', p.next) };
    },

    async createKey(rec) {
      const r = await ch.callControl('CreateKey', W, {
        keyId: rec.keyId,
        org: rec.org,
        secretHash: rec.secretHash,
        scopes: rec.scopes,
        ...c.some('expiry', rec.expiry),
        createdBy: rec.createdBy,
        created: rec.created,
        requestId: id(),
      });
      return c.keyInfoFromWire(r);
    },
    key: async (keyId) => c.keyRecordFromWire(await ch.callControl('GetKey', R, { keyId })),
    async listKeys(org, page) {
      const p = await ch.callControl('ListKeys', R, { org, page: c.pageToWire(page) });
      return { items: p.items.map(c.keyInfoFromWire), ...c.some('next', p.next) };
    },
    async revokeKey(org, keyId, at) {
      await ch.callControl('RevokeKey', W, { org, keyId, ...c.some('at', at), requestId: id() });
    },
    async touchKeys(touches) {
      await ch.callControl('TouchKeys', W, { touches, requestId: id() });
    },

    grant: async (b) =>
      c.bindingFromWire(await ch.callControl('Grant', W, { org: b.org, subject: b.subject, role: c.ROLE.toWire(b.role), target: c.targetToWire(b.target), requestId: id() })),
    async revokeGrant(b) {
      await ch.callControl('RevokeGrant', W, { org: b.org, subject: b.subject, role: c.ROLE.toWire(b.role), target: c.targetToWire(b.target), requestId: id() });
    },
    bindings: async (org, subject) => (await ch.callControl('Bindings', R, { org, subject })).items.map(c.bindingFromWire),
    async listBindings(org, page) {
      const p = await ch.callControl('ListBindings', R, { org, page: c.pageToWire(page) });
      return { items: p.items.map(c.bindingFromWire), ...c.some('next', p.next) };
    },
    async dropNamespaceBindings(org, ns) {
      await ch.callControl('DropNamespaceBindings', W, { org, ns, requestId: id() });
    },

    async setQuota(org, ns, name, value) {
      await ch.callControl('SetQuota', W, { org, ...c.some('ns', ns), name: c.QUOTA_NAME.toWire(name), ...c.some('value', value), requestId: id() });
    },
    quotas: async (org) => (await ch.callControl('Quotas', R, { org })).items.map(c.quotaFromWire),

    async putUsage(rows, at) {
      await ch.callControl('PutUsage', W, { rows: rows.map((r) => ({ org: r.org, ...c.some('ns', r.ns), metric: r.metric, window: r.window, value: r.value })), ...c.some('at', at), requestId: id() });
    },
    async addUsage(rows, at) {
      await ch.callControl('AddUsage', W, { rows: rows.map((r) => ({ org: r.org, ...c.some('ns', r.ns), metric: r.metric, window: r.window, delta: r.delta })), ...c.some('at', at), requestId: id() });
    },
    usage: async (org, opts) =>
      (await ch.callControl('Usage', R, { org, ...c.some('metric', opts?.metric), ...c.some('since', opts?.since), ...c.some('limit', opts?.limit), ...c.some('after', opts?.after) })).items.map(c.usageFromWire),

    async heartbeat(node, ttlMs, at, info) {
      await ch.callControl('Heartbeat', W, { node, ttlMs, ...c.some('at', at), ...c.some('info', info), requestId: id() });
    },
    members: async (at) => (await ch.callControl('Members', R, { ...c.some('at', at) })).items.map((m) => ({ node: m.node, expires: m.expires, info: m.info })),
    async leave(node) {
      await ch.callControl('Leave', W, { node, requestId: id() });
    },

    outbox: async (limit) => (await ch.callControl('Outbox', R, { ...c.some('limit', limit) })).items.map(c.outboxFromWire),
    jobPosition: async (job) => (await ch.callControl('JobPosition', R, { job })).position ?? null,
    async saveJobPosition(job, position, at) {
      await ch.callControl('SaveJobPosition', W, { job, ...c.some('position', position ?? undefined), ...c.some('at', at), requestId: id() });
    },
    async ackOutbox(seqs) {
      await ch.callControl('AckOutbox', W, { seqs, requestId: id() });
    },

    createNamespaceKey: noRemoteKeys,
    namespaceKeys: noRemoteKeys,
    destroyNamespaceKeys: noRemoteKeys,
    async putErasureKey(k) {
      await ch.callControl('PutErasureKey', W, { key: { org: k.org, version: k.version, wrapped: k.wrapped, created: k.created, ...c.some('destroyed', k.destroyed) }, requestId: id() });
    },
    erasureKeys: async (org) =>
      (await ch.callControl('ErasureKeys', R, { org })).items.map((k) => ({ org: k.org, version: k.version, wrapped: k.wrapped, created: k.created, destroyed: k.destroyed ?? null })),
    destroyErasureKeys: async (org, at) => (await ch.callControl('DestroyErasureKeys', W, { org, ...c.some('at', at), requestId: id() })).count,
    createErasure: async (row) => erasureFromWire(await ch.callControl('CreateErasure', W, { row: { ...row, version: 0, completed: row.completed ?? undefined }, requestId: id() })),
    erasure: async (eid) => erasureFromWire(await ch.callControl('GetErasure', R, { id: eid })),
    updateErasure: async (eid, expectedVersion, next) =>
      erasureFromWire(await ch.callControl('UpdateErasure', W, { id: eid, expectedVersion, phase: next.phase, ...c.some('completed', next.completed), data: next.data, requestId: id() })),
    async listErasures(o) {
      const p = await ch.callControl('ListErasures', R, { ...c.some('org', o.org), active: o.active === true, ...c.some('after', o.after), ...c.some('limit', o.limit) });
      return { items: p.items.map(erasureFromWire), ...c.some('next', p.next) };
    },

    controlVersion: async () => (await ch.callControl('ControlVersion', R, {})).version,
    changesSince: async (after, limit) => (await ch.callControl('ChangesSince', R, { after, ...c.some('limit', limit) })).items.map(c.controlChangeFromWire),
  };
}
