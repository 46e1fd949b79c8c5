// Quota overrides and usage rollups on DynamoDB:
//
//   pk ctl#quota#<org>  sk <ns|->#<name>               ns, name, value
//   pk ctl#usage#<org>  sk <ns|->#<metric>#<window>    ns, metric, win, value, updated
//
// `-` is the org-wide row (ns null); namespace ids and windows are zero-padded, so one Query of
// the org's partition reads them in (ns, name) or (ns, metric, window) order. A quota change
// goes through the context's `write` with its feed entry (gateways reload the org's quotas);
// usage rows are rollups, not changes: single-item writes, several at a time.
import { type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { checkQuotaRoom, parseUsageCursor, usageLimit } from '../rules.js';
import { MAX_QUOTA_OVERRIDES, type QuotaName, type QuotaOverride, type UsageDelta, type UsageRollup } from '../types.js';
import { checkBatch, checkQuota, checkUsageDelta, checkUsageRollup } from '../validate.js';
import { P16, enc, num } from './codec.js';
import { inParallel, type ControlContext } from './context.js';

const usageSk = (u: { ns: number | null; metric: string; window: number }) => `${u.ns === null ? '-' : P16(u.ns)}#${u.metric}#${P16(u.window)}`;

export async function setQuota(cx: ControlContext, org: string, ns: number | null, name: QuotaName, value: number | null): Promise<void> {
  checkQuota(org, ns, name, value);
  const key = { pk: `ctl#quota#${org}`, sk: `${ns === null ? '-' : P16(ns)}#${name}` };
  if (value !== null) {
    // Counted before the write, not in its transaction: two sets at once may both find room
    // for the last place (quotas() then answers the first MAX_QUOTA_OVERRIDES).
    const held = await cx.query(key.pk, { after: '', max: MAX_QUOTA_OVERRIDES });
    checkQuotaRoom(held.length, held.some((r) => r.sk === key.sk));
  }
  const it: TransactWriteItem =
    value === null ? { Delete: { TableName: cx.table, Key: enc(key) } } : { Put: { TableName: cx.table, Item: enc({ ...key, ns, name, value }) } };
  await cx.write([it], { kind: 'quota', org, id: '', at: Date.now() });
}

/** Clears every override of one namespace (it was dropped), each with its feed entry. */
export async function dropNamespaceQuotas(cx: ControlContext, org: string, ns: number): Promise<void> {
  const pk = `ctl#quota#${org}`;
  for (const r of await cx.query(pk, { prefix: `${P16(ns)}#`, max: MAX_QUOTA_OVERRIDES })) {
    await cx.write([{ Delete: { TableName: cx.table, Key: enc({ pk, sk: String(r.sk) }) } }], { kind: 'quota', org, id: '', at: Date.now() });
  }
}

export async function quotas(cx: ControlContext, org: string): Promise<QuotaOverride[]> {
  const rows = await cx.query(`ctl#quota#${org}`, { after: '', max: MAX_QUOTA_OVERRIDES });
  return rows.map((r) => ({ org, ns: num(r.ns), name: String(r.name) as QuotaName, value: Number(r.value) }));
}

export async function putUsage(cx: ControlContext, rows: Omit<UsageRollup, 'updated'>[], at = Date.now()): Promise<void> {
  checkBatch('MAX_USAGE_ROWS', rows);
  for (const u of rows) checkUsageRollup(u);
  await inParallel(rows, (u) =>
    cx.one({
      Put: {
        TableName: cx.table,
        Item: enc({ pk: `ctl#usage#${u.org}`, sk: usageSk(u), ns: u.ns, metric: u.metric, win: u.window, value: u.value, updated: at }),
      },
    }),
  );
}

export async function addUsage(cx: ControlContext, rows: UsageDelta[], at = Date.now()): Promise<void> {
  checkBatch('MAX_USAGE_ROWS', rows);
  for (const u of rows) checkUsageDelta(u);
  await inParallel(rows, (u) =>
    // ADD is atomic on the item: gateways counting into one window never lose an increment.
    cx.one({
      Update: {
        TableName: cx.table,
        Key: enc({ pk: `ctl#usage#${u.org}`, sk: usageSk(u) }),
        UpdateExpression: 'SET ns = :ns, metric = :m, win = :w, updated = :u ADD #v :d',
        ExpressionAttributeNames: { '#v': 'value' },
        ExpressionAttributeValues: enc({ ':ns': u.ns, ':m': u.metric, ':w': u.window, ':u': at, ':d': u.delta }),
      },
    }),
  );
}

export async function usage(cx: ControlContext, org: string, o: { metric?: string; since?: number; limit?: number; after?: string } = {}): Promise<UsageRollup[]> {
  // The sort keys order rows as the SQL store does: the org's ('-') first, then by namespace, metric, window.
  const after = o.after === undefined ? '' : usageSk(parseUsageCursor(o.after));
  const rows = await cx.query(`ctl#usage#${org}`, { after, max: usageLimit(o.limit), keep: (r) => (!o.metric || r.metric === o.metric) && Number(r.win) >= (o.since ?? 0) });
  return rows.map((r) => ({ org, ns: num(r.ns), metric: String(r.metric), window: Number(r.win), value: Number(r.value), updated: Number(r.updated) }));
}
