// Calls between nodes (spec §6's quota grants): each node starts with a fresh random secret and
// publishes only its sha256 in its membership entry; a call carries the caller's id and secret,
// and the callee checks them against its own view. The secret never leaves the node's memory
// except on these calls, and is never logged.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { Membership, MembershipView, NodeDescriptor } from './membership.js';
import { ALL_SMALL, placementKey, type SizeClasses } from './placement.js';

export const PEER_ID_HEADER = 'x-loam-peer';
export const PEER_SECRET_HEADER = 'x-loam-peer-secret';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** This node's credential for calls to other nodes. */
export class PeerCredential {
  private readonly secret = randomBytes(32).toString('base64url');
  readonly hash = sha256(this.secret);
  constructor(readonly id: string) {}
  headers(): Record<string, string> {
    return { [PEER_ID_HEADER]: this.id, [PEER_SECRET_HEADER]: this.secret };
  }
}

/** The calling node, when its id and secret match its membership entry in `view`; else null. */
export function verifyPeer(view: MembershipView, headers: IncomingHttpHeaders): NodeDescriptor | null {
  const id = headers[PEER_ID_HEADER];
  const secret = headers[PEER_SECRET_HEADER];
  if (typeof id !== 'string' || typeof secret !== 'string' || secret.length > 256) return null;
  const n = view.node(id);
  if (!n?.authHash) return null;
  const a = Buffer.from(sha256(secret), 'hex');
  const b = Buffer.from(n.authHash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b) ? n : null;
}

/**
 * Who owns what, in this node's current view (spec §5.3): a namespace's request-rate bucket
 * at the owner of its namespace key among the gateways; a collection at its owner among the
 * query nodes.
 */
export function ownership(m: Membership, sizes: SizeClasses = ALL_SMALL): { ownerOf(ns: number): { id: string; url: string } | null; ownsCollection(ns: number, collection: number): boolean } {
  return {
    ownerOf(ns) {
      const view = m.view();
      const id = view.placement('gateway').owner(placementKey.namespace(ns));
      if (id === m.self.id) return null;
      // An owner nobody can reach (no address) is asked nowhere: its asks fail, the fallback serves.
      return { id, url: view.node(id)?.url ?? '' };
    },
    ownsCollection(ns, collection) {
      const p = m.view().placement('query');
      return p.size > 0 && p.owner(placementKey.collection(ns, collection, sizes.of(ns))) === m.self.id;
    },
  };
}

/** POSTs JSON to another node with this node's credential, within `deadlineMs`; the parsed answer, or a rejection. */
export async function postPeer<T>(cred: PeerCredential, url: string, body: unknown, deadlineMs: number): Promise<T> {
  if (!url) throw new Error('the node has no address');
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...cred.headers() },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(deadlineMs),
  });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${url} answered ${r.status}: ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}
