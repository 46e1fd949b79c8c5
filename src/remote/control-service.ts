// The ControlStore service (loam_remote.proto): one handler per ControlStore call (spec §6,
// §8), decoding its request, calling the cluster's ControlStore and encoding the result
// (src/control/remote-codec.ts). Writes carry a request_id and run once per key, as the
// MetaStore's do (./idempotency.ts): addUsage, say, is not idempotent by itself.
import * as grpc from '@grpc/grpc-js';
import { MetaError, errors } from '../meta/errors.js';
import * as c from '../control/remote-codec.js';
import type { ControlStore, ErasureRow } from '../control/types.js';
import type { ControlStoreHandlers } from '../meta/backends/remote/gen/loam/remote/v1/ControlStore.js';
import { unary, type CallContext } from './handlers.js';
import type { ServerCore } from './core.js';

const key = (r: { requestId: string }) => r.requestId;
const empty = async () => ({});
const at = (v: number | undefined) => v;

function cs(ctx: CallContext): ControlStore {
  const s = ctx.stores.control;
  // Typed, so the client sees why: this server serves no ControlStore for the cluster.
  if (!s) throw new MetaError('NotFound', 'this server serves no ControlStore for the cluster (serve it with the control store, or open the ControlStore elsewhere)');
  return s;
}

function erasureToWire(r: ErasureRow) {
  return { ...r, completed: r.completed ?? undefined };
}
function erasureFromWire(r: { id: string; org: string; ns: number; collection: number; phase: string; requested: number; completed?: number; data: string }): Omit<ErasureRow, 'version'> {
  return { id: r.id, org: r.org, ns: r.ns, collection: r.collection, phase: r.phase, requested: r.requested, completed: r.completed ?? null, data: r.data };
}

/** A message field the call cannot go without: absent on the wire is refused, naming it (a decoded absent message is null). */
function required<T>(x: T | null | undefined, field: string, method: string): T {
  if (x === null || x === undefined) throw errors.invalid(field, `${method} needs its ${field}; nothing was applied`);
  return x;
}

export function controlHandlers(core: ServerCore): ControlStoreHandlers {
  const u = <Req, Res>(method: string, run: (ctx: CallContext, req: NoInfer<Req>) => Promise<NoInfer<Res>>, keyOf?: (r: NoInfer<Req>) => string | undefined): grpc.handleUnaryCall<Req, Res> =>
    unary<Req, Res>(core, `control.${method}`, run, keyOf);
  return {
    Capabilities: u('Capabilities', async (ctx) => {
      const x = cs(ctx).capabilities();
      return { transactions: c.CONTROL_TRANSACTIONS.toWire(x.transactions), feedOrder: c.FEED_ORDER.toWire(x.feedOrder) };
    }),
    // The store behind the server is initialised by whoever opened it; a client's init() is a no-op check that it is there.
    Init: u('Init', async (ctx) => (cs(ctx), {})),

    CreateOrg: u('CreateOrg', async (ctx, r) => cs(ctx).createOrg(r.id, at(r.at)), key),
    GetOrg: u('GetOrg', async (ctx, r) => cs(ctx).org(r.id)),
    ListOrgs: u('ListOrgs', async (ctx, r) => {
      const p = await cs(ctx).listOrgs(c.pageFromWire(r.page));
      return { items: p.items, ...c.some('next', p.next) };
    }),

    CreateKey: u(
      'CreateKey',
      async (ctx, r) =>
        c.keyInfoToWire(
          await cs(ctx).createKey({
            keyId: r.keyId,
            org: r.org,
            secretHash: r.secretHash,
            scopes: [...r.scopes],
            expiry: r.expiry ?? null,
            createdBy: r.createdBy,
            created: r.created,
          }),
        ),
      key,
    ),
    GetKey: u('GetKey', async (ctx, r) => c.keyRecordToWire(await cs(ctx).key(r.keyId))),
    ListKeys: u('ListKeys', async (ctx, r) => {
      const p = await cs(ctx).listKeys(r.org, c.pageFromWire(r.page));
      return { items: p.items.map(c.keyInfoToWire), ...c.some('next', p.next) };
    }),
    RevokeKey: u('RevokeKey', async (ctx, r) => cs(ctx).revokeKey(r.org, r.keyId, at(r.at)).then(empty), key),
    TouchKeys: u('TouchKeys', async (ctx, r) => cs(ctx).touchKeys(r.touches.map((t) => ({ keyId: t.keyId, at: t.at }))).then(empty), key),

    Grant: u(
      'Grant',
      async (ctx, r) => c.bindingToWire(await cs(ctx).grant({ org: r.org, subject: r.subject, role: c.ROLE.fromWire(r.role, 'role'), target: c.targetFromWire(r.target) })),
      key,
    ),
    RevokeGrant: u(
      'RevokeGrant',
      async (ctx, r) => cs(ctx).revokeGrant({ org: r.org, subject: r.subject, role: c.ROLE.fromWire(r.role, 'role'), target: c.targetFromWire(r.target) }).then(empty),
      key,
    ),
    Bindings: u('Bindings', async (ctx, r) => ({ items: (await cs(ctx).bindings(r.org, r.subject)).map(c.bindingToWire) })),
    ListBindings: u('ListBindings', async (ctx, r) => {
      const p = await cs(ctx).listBindings(r.org, c.pageFromWire(r.page));
      return { items: p.items.map(c.bindingToWire), ...c.some('next', p.next) };
    }),
    DropNamespaceBindings: u('DropNamespaceBindings', async (ctx, r) => cs(ctx).dropNamespaceBindings(r.org, r.ns).then(empty), key),

    SetQuota: u('SetQuota', async (ctx, r) => cs(ctx).setQuota(r.org, r.ns ?? null, c.QUOTA_NAME.fromWire(r.name, 'name'), r.value ?? null).then(empty), key),
    Quotas: u('Quotas', async (ctx, r) => ({ items: (await cs(ctx).quotas(r.org)).map(c.quotaToWire) })),

    PutUsage: u(
      'PutUsage',
      async (ctx, r) => cs(ctx).putUsage(r.rows.map((x) => ({ org: x.org, ns: x.ns ?? null, metric: x.metric, window: x.window, value: x.value })), at(r.at)).then(empty),
      key,
    ),
    AddUsage: u(
      'AddUsage',
      async (ctx, r) => cs(ctx).addUsage(r.rows.map((x) => ({ org: x.org, ns: x.ns ?? null, metric: x.metric, window: x.window, delta: x.delta })), at(r.at)).then(empty),
      key,
    ),
    Usage: u('Usage', async (ctx, r) => ({
      items: (await cs(ctx).usage(r.org, { ...c.some('metric', r.metric), ...c.some('since', r.since), ...c.some('limit', r.limit), ...c.some('after', r.after) })).map(c.usageToWire),
    })),

    Heartbeat: u('Heartbeat', async (ctx, r) => cs(ctx).heartbeat(r.node, r.ttlMs, at(r.at), r.info ?? undefined).then(empty), key),
    Members: u('Members', async (ctx, r) => ({ items: await cs(ctx).members(at(r.at)) })),
    Leave: u('Leave', async (ctx, r) => cs(ctx).leave(r.node).then(empty), key),

    Outbox: u('Outbox', async (ctx, r) => ({ items: (await cs(ctx).outbox(r.limit)).map(c.outboxToWire) })),
    AckOutbox: u('AckOutbox', async (ctx, r) => cs(ctx).ackOutbox([...r.seqs]).then(empty), key),
    JobPosition: u('JobPosition', async (ctx, r) => ({ ...c.some('position', (await cs(ctx).jobPosition(r.job)) ?? undefined) })),
    SaveJobPosition: u('SaveJobPosition', async (ctx, r) => cs(ctx).saveJobPosition(r.job, r.position ?? null, at(r.at)).then(empty), key),

    PutErasureKey: u(
      'PutErasureKey',
      async (ctx, r) => {
        const k = required(r.key, 'key', 'PutErasureKey');
        return cs(ctx).putErasureKey({ org: k.org, version: k.version, wrapped: k.wrapped, created: k.created, destroyed: k.destroyed ?? null }).then(empty);
      },
      key,
    ),
    ErasureKeys: u('ErasureKeys', async (ctx, r) => ({ items: (await cs(ctx).erasureKeys(r.org)).map((k) => ({ ...k, destroyed: k.destroyed ?? undefined })) })),
    DestroyErasureKeys: u('DestroyErasureKeys', async (ctx, r) => ({ count: await cs(ctx).destroyErasureKeys(r.org, at(r.at)) }), key),
    CreateErasure: u('CreateErasure', async (ctx, r) => erasureToWire(await cs(ctx).createErasure(erasureFromWire(required(r.row, 'row', 'CreateErasure')))), key),
    GetErasure: u('GetErasure', async (ctx, r) => erasureToWire(await cs(ctx).erasure(r.id))),
    UpdateErasure: u('UpdateErasure', async (ctx, r) => erasureToWire(await cs(ctx).updateErasure(r.id, r.expectedVersion, { phase: r.phase, completed: r.completed ?? null, data: r.data })), key),
    ListErasures: u('ListErasures', async (ctx, r) => {
      const p = await cs(ctx).listErasures({ ...c.some('org', r.org), active: r.active, ...c.some('after', r.after), ...c.some('limit', r.limit) });
      return { items: p.items.map(erasureToWire), ...c.some('next', p.next) };
    }),

    ControlVersion: u('ControlVersion', async (ctx) => ({ version: await cs(ctx).controlVersion() })),
    ChangesSince: u('ChangesSince', async (ctx, r) => ({ items: (await cs(ctx).changesSince(r.after, r.limit)).map(c.controlChangeToWire) })),
  };
}
