// Request routing (spec §5.3): a gateway sends reads and queries of a collection to the
// collection's owner among the query nodes, and writes to a log node in its own zone (itself
// when it runs the log role). It forwards over HTTP rather than redirecting the client: every
// client works unchanged (a redirect of a POST needs a client that re-sends the body and the
// API key to another host, and the owners' addresses may be private to the cluster), and the
// cost is one hop inside the cluster (bench scale's forwarded_read figures).
//
// A forwarded request carries FORWARDED_BY_HEADER and is always served where it lands, so a
// request is forwarded at most once and views that disagree cannot loop. It is admitted in
// full there (authentication, authorization, quotas), so the header grants nothing: a client
// that sets it only chooses to be served by the node it called. Ownership is a hint: a target
// that cannot be reached is skipped for TARGET_BACKOFF_MS and the request is served here,
// correct on any node (reads merge the log up to their token, spec §3.5).
import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { Membership, NodeDescriptor } from './membership.js';
import { BoundedLoad, type Placement, type PlacementKey } from './placement.js';

/** Set on a request a node forwarded (its value: that node's id). */
export const FORWARDED_BY_HEADER = 'x-loam-forwarded-by';
/** Set on every answer: the node that served it. */
export const SERVED_BY_HEADER = 'x-loam-node';
/** A forwarded request is answered within this, or the gateway gives up on it. */
export const FORWARD_DEADLINE_MS = 30_000;
/** A node that refused a connection or timed out is not forwarded to for this long. */
export const TARGET_BACKOFF_MS = 2_000;
/** Request headers a forward carries (the rest are hop-by-hop or the gateway's own). */
const PASSED_REQUEST_HEADERS = ['authorization', 'content-type', 'accept', 'x-request-id'] as const;
/** Answer headers passed back to the client. */
const PASSED_RESPONSE_HEADERS = ['content-type', 'retry-after', SERVED_BY_HEADER] as const;

/** What kind of request is being routed. */
export type RouteKind = 'read' | 'write';

/** A request to forward, as the gateway hands it over. */
export interface ForwardRequest {
  method: string;
  /** The path and query, as received. */
  url: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body, if any. */
  body: unknown;
}

export interface ForwardAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Why a forward did not answer: the target cannot be reached, or the outcome is unknown (it may have been served). */
export class ForwardFailed extends Error {
  constructor(
    readonly target: string,
    readonly outcomeUnknown: boolean,
    message: string,
  ) {
    super(message);
  }
}

export interface RequestRouterOptions {
  membership: Membership;
  now?: () => number;
}

/** Connections kept open to each node, at most (keep-alive: a forward costs no handshake). */
export const FORWARD_MAX_SOCKETS = 64;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: FORWARD_MAX_SOCKETS }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: FORWARD_MAX_SOCKETS }),
};

/** One HTTP exchange with a deadline (node:http with keep-alive: cheaper per call than fetch). */
function send(url: URL, method: string, headers: Record<string, string>, body: Buffer | null, sent: { written: boolean }): Promise<ForwardAnswer> {
  const lib = url.protocol === 'https:' ? https : http;
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:'];
  return new Promise((resolve, reject) => {
    const r = lib.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        clearTimeout(timer);
        const out: Record<string, string> = {};
        for (const h of PASSED_RESPONSE_HEADERS) {
          const v = res.headers[h];
          if (typeof v === 'string') out[h] = v;
        }
        resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
      });
    });
    const timer = setTimeout(() => r.destroy(new Error(`no answer within ${FORWARD_DEADLINE_MS} ms`)), FORWARD_DEADLINE_MS);
    r.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    r.on('finish', () => {
      sent.written = true;
    });
    r.end(body ?? undefined);
  });
}

export class RequestRouter {
  private readonly down = new Map<string, number>();
  private loadFor: { placement: Placement; load: BoundedLoad } | null = null;
  private readonly now: () => number;
  /** Forwards sent, by kind and outcome (for metrics and tests). */
  readonly counts = { forwarded: 0, failed: 0, local: 0 };

  constructor(private readonly o: RequestRouterOptions) {
    this.now = o.now ?? Date.now;
  }

  private get self(): NodeDescriptor {
    return this.o.membership.self;
  }

  private usable(n: NodeDescriptor | undefined): n is NodeDescriptor & { url: string } {
    if (!n?.url || n.id === this.self.id) return false;
    const until = this.down.get(n.id);
    if (until === undefined) return true;
    if (this.now() < until) return false;
    this.down.delete(n.id);
    return true;
  }

  /** The bounded-load counts of the current view's query placement (reset when the view changes). */
  private bounded(p: Placement): BoundedLoad {
    if (this.loadFor?.placement !== p) this.loadFor = { placement: p, load: new BoundedLoad(p) };
    return this.loadFor.load;
  }

  /** Whether a request of this kind may be routed away at all (no promise, no lookup, when not). */
  routes(kind: RouteKind): boolean {
    if (kind === 'write') return !this.self.roles.includes('log');
    return this.o.membership.view().placement('query').size > 1;
  }

  /**
   * Where a request should be served: a node to forward to, or null for here. Reads go to the
   * collection's owner among the query nodes (the next in its rank when the owner is at its
   * bounded-load cap or unreachable); writes stay here on a log node, else go to a log node in
   * this node's zone (any zone when it has none), by the key's rank for batching affinity.
   */
  target(kind: RouteKind, key: PlacementKey, headers: IncomingHttpHeaders): NodeDescriptor | null {
    if (headers[FORWARDED_BY_HEADER] !== undefined) return null;
    const view = this.o.membership.view();
    if (kind === 'write') {
      if (this.self.roles.includes('log')) return null;
      const logs = view.withRole('log');
      const zone = logs.filter((n) => n.zone === this.self.zone);
      const pool = zone.length > 0 ? zone : logs;
      if (pool.length === 0) return null;
      const p = view.placement('log');
      for (const id of p.rank(key)) {
        const n = view.node(id);
        if (pool.includes(n!) && this.usable(n)) return n;
      }
      return null;
    }
    const p = view.placement('query');
    if (p.size <= 1) return null;
    const owner = p.owner(key);
    if (owner === this.self.id) return null;
    const b = this.bounded(p);
    const chosen = p.choose(key, b.loads(), 1, b.total);
    if (chosen === this.self.id) return null;
    const first = view.node(chosen);
    if (this.usable(first)) return first;
    // The chosen node is down or unreachable: the next usable one in the key's rank, or here.
    for (const id of p.rank(key)) {
      if (id === this.self.id && this.self.roles.includes('query')) return null;
      const n = view.node(id);
      if (this.usable(n)) return n;
    }
    return null;
  }

  /** Sends `req` to `to`; the answer, or ForwardFailed (the target is then skipped for TARGET_BACKOFF_MS). */
  async forward(to: NodeDescriptor, req: ForwardRequest, kind: RouteKind): Promise<ForwardAnswer> {
    const headers: Record<string, string> = { [FORWARDED_BY_HEADER]: this.self.id };
    for (const h of PASSED_REQUEST_HEADERS) {
      const v = req.headers[h];
      if (typeof v === 'string') headers[h] = v;
    }
    const hasBody = req.body !== undefined && req.body !== null && req.method !== 'GET' && req.method !== 'HEAD';
    const body = hasBody ? Buffer.from(JSON.stringify(req.body)) : null;
    if (body) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(body.length);
    }
    this.track(to.id, 1);
    const sent = { written: false };
    try {
      const a = await send(new URL(req.url, to.url), req.method, headers, body, sent);
      this.counts.forwarded++;
      return a;
    } catch (e) {
      this.counts.failed++;
      this.down.set(to.id, this.now() + TARGET_BACKOFF_MS);
      // A request that never reached the target (refused, reset before it was written) served
      // nothing; once written, a write's outcome is unknown. A read is safe to serve again anyway.
      throw new ForwardFailed(to.id, kind === 'write' && sent.written, `node ${to.id} (${to.url}) did not answer: ${(e as Error).message}`);
    } finally {
      this.track(to.id, -1);
    }
  }

  /** Forwards in flight, per node (GET /v1/placement's load). */
  inFlight(): ReadonlyMap<string, number> {
    return this.loadFor?.load.loads() ?? new Map();
  }

  /** In-flight forwards per node, counted against the bounded-load caps. */
  private track(node: string, d: number): void {
    const l = this.loadFor?.load;
    if (!l) return;
    if (d > 0) l.add(node, d);
    else l.release(node, -d);
  }
}
