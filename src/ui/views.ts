// The status page's pages, rendered from what the handlers read (./routes.ts). Every value
// goes through `html`, so a name, a message or a search prefix is always text.
import type { Collection, Namespace } from '../meta/types.js';
import type { QuotaName } from '../control/types.js';
import { html, href, type Html } from './html.js';
import { barChart, type ChartPoint } from './chart.js';
import { fmtAgo, fmtBytes, fmtInt, fmtTime, page, type Viewer } from './layout.js';
import type { CollectionStatus } from './status.js';

/** A list page's paging: the search prefix, the page size and the cursor of the next page. */
export interface Paging {
  prefix: string;
  pageSize: number;
  cursor: string | undefined;
  next: string | null;
}

function searchForm(action: string, p: Paging, what: string): Html {
  return html`<form class="search" method="get" action="${action}">
<input name="prefix" value="${p.prefix}" placeholder="${what} starting with…" aria-label="Search ${what} by prefix" maxlength="63">
<input type="hidden" name="page_size" value="${p.pageSize}">
<button type="submit">Search</button>${p.prefix ? html` <a href="${action}">clear</a>` : ''}
</form>`;
}

function pager(path: string[], p: Paging): Html {
  const links: Html[] = [];
  if (p.cursor) links.push(html`<a href="${href(path, { prefix: p.prefix, page_size: p.pageSize })}">« first page</a>`);
  if (p.next) links.push(html`<a rel="next" href="${href(path, { prefix: p.prefix, page_size: p.pageSize, cursor: p.next })}">next page »</a>`);
  return links.length ? html`<p class="pager">${links.map((l, i) => (i ? html` · ${l}` : l))}</p>` : html``;
}

export function namespacesView(viewer: Viewer, items: readonly Namespace[], p: Paging): Html {
  const rows = items.map(
    (n) => html`<tr><td><a href="${href(['ui', 'namespaces', n.name])}">${n.name}</a></td><td class="n">${n.id}</td><td>${fmtTime(n.created)}</td></tr>`,
  );
  const body = html`${searchForm('/ui/namespaces', p, 'namespaces')}
${
  items.length
    ? html`<table><thead><tr><th>Namespace</th><th class="n">Id</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="empty">${p.prefix ? html`No namespace you may read starts with “${p.prefix}”.` : 'No namespace you may read in this org yet.'}</p>`
}
${pager(['ui', 'namespaces'], p)}`;
  return page(`Namespaces of ${viewer.org}`, body, viewer);
}

function lastApply(s: CollectionStatus, now: number): Html {
  if (!s.manifest) return html`<span class="muted">never</span>`;
  return html`<span title="${fmtTime(s.manifest.created)}">${fmtAgo(s.manifest.created, now)}</span>`;
}

function workerRound(s: CollectionStatus, now: number): Html {
  return s.worker ? html`${fmtAgo(s.worker.at, now)} <span class="muted">(${fmtInt(s.worker.records)} behind then)</span>` : html`<span class="muted">not on this node lately</span>`;
}

export function collectionsView(viewer: Viewer, ns: Namespace, items: readonly { c: Collection; s: CollectionStatus | { failed: string } }[], p: Paging, now: number): Html {
  const rows = items.map(({ c, s }) => {
    const link = html`<a href="${href(['ui', 'namespaces', ns.name, 'collections', c.name])}">${c.name}</a>`;
    if ('failed' in s) return html`<tr><td>${link}</td><td class="n">${c.partitions}</td><td colspan="5" class="warn">status unavailable: ${s.failed}</td></tr>`;
    return html`<tr><td>${link}</td><td class="n">${c.partitions}</td><td class="n">${fmtInt(s.backlog.records)}</td><td class="n">${fmtBytes(s.backlog.bytes)}</td><td class="n">${fmtInt(s.maxPartitionLag)}</td><td>${lastApply(s, now)}</td><td>${workerRound(s, now)}</td></tr>`;
  });
  const body = html`<p><a href="/ui/namespaces">« namespaces</a> · namespace id ${ns.id}, created ${fmtTime(ns.created)}</p>
${searchForm(href(['ui', 'namespaces', ns.name]), p, 'collections')}
${
  items.length
    ? html`<table><thead><tr><th>Collection</th><th class="n">Partitions</th><th class="n">Unapplied records</th><th class="n">Unapplied bytes</th><th class="n">Worker lag (records, worst partition)</th><th>Last apply</th><th>Worker round on this node</th></tr></thead><tbody>${rows}</tbody></table>
<p class="muted">The backlog is what the log holds past the current manifest; its bytes are estimated from the partitions' indexed bytes.</p>`
    : html`<p class="empty">${p.prefix ? html`No collection starts with “${p.prefix}”.` : 'No collection in this namespace yet.'}</p>`
}
${pager(['ui', 'namespaces', ns.name], p)}`;
  return page(`Namespace ${ns.name}`, body, viewer);
}

/** Partitions listed on a collection's page, at most (the totals cover them all). */
export const MAX_PARTITION_ROWS = 256;

export function collectionView(viewer: Viewer, ns: Namespace, c: Collection, s: CollectionStatus, now: number): Html {
  const fields = Object.entries(c.schema.fields).map(([f, t]) => html`<tr><td>${f}</td><td>${t}</td></tr>`);
  const parts = s.backlog.partitions.slice(0, MAX_PARTITION_ROWS).map((b, i) => {
    const h = s.heads[i]!;
    return html`<tr><td class="n">${b.partition}</td><td class="n">${fmtInt(h.next)}</td><td class="n">${fmtInt(s.applied[b.partition] ?? 0)}</td><td class="n">${fmtInt(b.records)}</td><td class="n">${fmtBytes(b.bytes)}</td><td class="n">${fmtInt(h.logStart)}</td><td class="n">${fmtBytes(h.bytes)}</td></tr>`;
  });
  const more = s.backlog.partitions.length - MAX_PARTITION_ROWS;
  const body = html`<p><a href="${href(['ui', 'namespaces', ns.name])}">« namespace ${ns.name}</a></p>
<h2>Progress</h2>
<dl>
<dt>Unapplied records</dt><dd>${fmtInt(s.backlog.records)}</dd>
<dt>Unapplied bytes (estimate)</dt><dd>${fmtBytes(s.backlog.bytes)}</dd>
<dt>Worker lag, worst partition</dt><dd>${fmtInt(s.maxPartitionLag)} records</dd>
<dt>Last apply</dt><dd>${s.manifest ? html`${lastApply(s, now)} (${fmtTime(s.manifest.created)}), manifest version ${s.manifest.version}` : html`<span class="muted">never: no manifest yet</span>`}</dd>
<dt>Worker round on this node</dt><dd>${workerRound(s, now)}</dd>
<dt>Data files</dt><dd>${s.manifest ? html`${fmtInt(s.manifest.files)} (${fmtBytes(s.manifest.fileBytes)})` : '0'}</dd>
</dl>
<h2>Partitions</h2>
${
  s.heads.length
    ? html`<table><thead><tr><th class="n">Partition</th><th class="n">Next offset</th><th class="n">Applied</th><th class="n">Unapplied</th><th class="n">Unapplied bytes</th><th class="n">Log start</th><th class="n">Indexed bytes</th></tr></thead><tbody>${parts}</tbody></table>
${more > 0 ? html`<p class="muted">and ${fmtInt(more)} more partitions (counted in the totals above)</p>` : ''}`
    : html`<p class="empty">Nothing written yet.</p>`
}
<h2>Schema</h2>
<p>Primary key <b>${c.schema.primaryKey}</b>, ${c.partitions} partitions, id ${c.id}, created ${fmtTime(c.created)}.</p>
<table><thead><tr><th>Field</th><th>Type</th></tr></thead><tbody>${fields}</tbody></table>`;
  return page(`Collection ${ns.name}/${c.name}`, body, viewer);
}

export interface QuotaRow {
  name: QuotaName;
  effective: number;
  default: number;
  overrides: { where: string; value: number }[];
}

export interface UsageRow {
  where: string;
  requests: number;
  ingestBytes: number;
  storedBytes: number | null;
  unappliedRecords: number | null;
}

export interface UsagePage {
  quotas: QuotaRow[];
  gateways: number;
  requests: ChartPoint[];
  ingest: ChartPoint[];
  rows: UsageRow[];
  /** More rows than one usage answer holds: the figures leave some out. */
  partial: boolean;
  /** More namespaces than MAX_USAGE_NAMESPACES: the table shows the busiest. */
  moreNamespaces: number;
}

const RATE_QUOTAS: ReadonlySet<QuotaName> = new Set(['request_rate', 'ingest_bytes_per_s', 'metadata_ops_rate']);
const BYTE_QUOTAS: ReadonlySet<QuotaName> = new Set(['ingest_bytes_per_s', 'unapplied_bytes', 'storage_bytes']);
const fmtQuota = (n: QuotaName, v: number) => (BYTE_QUOTAS.has(n) ? fmtBytes(v) : fmtInt(v)) + (RATE_QUOTAS.has(n) ? ' /s' : '');

export function usageView(viewer: Viewer, u: UsagePage): Html {
  const quotas = u.quotas.map(
    (q) =>
      html`<tr><td>${q.name}</td><td class="n">${fmtQuota(q.name, q.effective)}</td><td class="n">${fmtQuota(q.name, q.default)}</td><td>${q.overrides.length ? q.overrides.map((o, i) => html`${i ? ', ' : ''}${o.where}: ${fmtQuota(q.name, o.value)}`) : html`<span class="muted">none</span>`}</td></tr>`,
  );
  const total = (ps: ChartPoint[]) => ps.reduce((s, p) => s + p.value, 0);
  const rows = u.rows.map(
    (r) =>
      html`<tr><td>${r.where}</td><td class="n">${fmtInt(r.requests)}</td><td class="n">${fmtBytes(r.ingestBytes)}</td><td class="n">${r.storedBytes === null ? '–' : fmtBytes(r.storedBytes)}</td><td class="n">${r.unappliedRecords === null ? '–' : fmtInt(r.unappliedRecords)}</td></tr>`,
  );
  const body = html`<h2>Quotas</h2>
<table><thead><tr><th>Quota</th><th class="n">Effective (org)</th><th class="n">Default</th><th>Overrides</th></tr></thead><tbody>${quotas}</tbody></table>
<p class="muted">${u.gateways} live gateway${u.gateways === 1 ? '' : 's'}: each enforces the rate quotas ÷ ${u.gateways}. Only the operator sets quotas.</p>
<h2>Requests, last 24 hours (${fmtInt(total(u.requests))})</h2>
${barChart('Requests per hour, last 24 hours', u.requests, fmtInt)}
<h2>Ingest, last 24 hours (${fmtBytes(total(u.ingest))})</h2>
${barChart('Ingest bytes per hour, last 24 hours', u.ingest, fmtBytes)}
${u.partial ? html`<p class="warn">The org has more usage rows than one answer holds; the figures leave some out.</p>` : ''}
<h2>By namespace</h2>
${
  rows.length
    ? html`<table><thead><tr><th>Namespace</th><th class="n">Requests (24 h)</th><th class="n">Ingest (24 h)</th><th class="n">Stored</th><th class="n">Unapplied records</th></tr></thead><tbody>${rows}</tbody></table>
${u.moreNamespaces > 0 ? html`<p class="muted">and ${fmtInt(u.moreNamespaces)} more namespaces</p>` : ''}`
    : html`<p class="empty">No usage recorded in the last 24 hours.</p>`
}
<p class="muted">Requests and ingest are counted by the gateways and added every few seconds; stored bytes and unapplied records are measured periodically.</p>`;
  return page('Quotas & usage', body, viewer);
}

export interface ClusterPage {
  gateways: number;
  /** The live members, for the operator; null for a tenant's key (the API shows tenants the count only). */
  members: { node: string; expires: number }[] | null;
  self: { id: string; roles: readonly string[] };
}

export function clusterView(viewer: Viewer, cl: ClusterPage, now: number): Html {
  const members = cl.members
    ? html`<table><thead><tr><th>Node</th><th>Membership renewed until</th><th>Roles</th></tr></thead><tbody>${cl.members.map(
        (m) => html`<tr><td>${m.node}${m.node === cl.self.id ? html` <b>(this node)</b>` : ''}</td><td>in ${Math.max(0, Math.round((m.expires - now) / 1000))} s</td><td>${m.node === cl.self.id ? cl.self.roles.join(', ') : html`<span class="muted">–</span>`}</td></tr>`,
      )}</tbody></table>`
    : html`<p class="muted">The node list is the operator's; a tenant's key sees how many are live.</p>`;
  const body = html`<p><b>${cl.gateways}</b> live gateway${cl.gateways === 1 ? '' : 's'}. Every node serves the HTTP API, so every live node is a gateway; each renews its membership every few seconds and drops out a few seconds after its last renewal.</p>
${members}`;
  return page('Gateways & nodes', body, viewer);
}
