// Clients of the soak and the crash gate: they write batches of documents through the HTTP
// API to whichever node is up, keep each acknowledged batch with its token, and read an
// acknowledged write back with its token on another node. A write is sent once and never
// retried, so any key the log holds twice was committed twice.
import { mulberry32 } from '../../src/check/prng.js';

/** A request's deadline: longer than any single toxic, so most outcomes are known. */
export const REQUEST_DEADLINE_MS = 15_000;
export const DOCS_PER_BATCH = 5;
/** A client whose request got no answer waits this long before the next. */
const UNREACHABLE_BACKOFF_MS = 100;

export interface Doc {
  id: string;
  client: number;
  seq: number;
  pad: string;
}

export interface Acked {
  token: string;
  docs: Doc[];
  /** When the request was sent and answered (ms since the epoch). */
  sent: number;
  answered: number;
}

export interface LoadStats {
  acked: Acked[];
  /** Refused writes by HTTP status (nothing written, by the API's rule). */
  refused: Map<number, number>;
  /** No answer (connection cut, deadline): the outcome is unknown. */
  unknown: number;
  /** Connection refused (the node was down): nothing was sent. */
  unreachable: number;
  /** Token reads during the run: answered 200 with the document, refused (503 …), wrong. */
  reads: { ok: number; refused: number; unknown: number; wrong: string[] };
}

export interface LoadOptions {
  clients: number;
  /** The nodes' current addresses (nodes come and go). */
  nodes: () => string[];
  path: string;
  stop: () => boolean;
  seed: number;
  /** Tag of the run, so ids never repeat across loads on the same collection. */
  run: string;
}

async function post(url: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

export async function load(o: LoadOptions): Promise<LoadStats> {
  const stats: LoadStats = { acked: [], refused: new Map(), unknown: 0, unreachable: 0, reads: { ok: 0, refused: 0, unknown: 0, wrong: [] } };
  const rng = mulberry32(o.seed);
  const pick = (xs: string[]) => xs[Math.floor(rng() * xs.length)];
  await Promise.all(
    Array.from({ length: o.clients }, async (_, client) => {
      for (let seq = 0; !o.stop(); seq++) {
        const node = pick(o.nodes());
        if (!node) {
          await new Promise((r) => setTimeout(r, 50));
          continue;
        }
        const docs = Array.from({ length: DOCS_PER_BATCH }, (_, j) => ({ id: `${o.run}${client}-${seq}-${j}`, client, seq, pad: 'x'.repeat(100) }));
        const sent = Date.now();
        try {
          const r = await post(`${node}${o.path}/documents`, { upserts: docs });
          if (r.status === 200 && typeof r.body?.token === 'string') {
            stats.acked.push({ token: r.body.token, docs, sent, answered: Date.now() });
          } else {
            stats.refused.set(r.status, (stats.refused.get(r.status) ?? 0) + 1);
            // A refused write: back off a little, as a client would on 503/429.
            await new Promise((res) => setTimeout(res, 50));
            continue;
          }
        } catch (e) {
          if ((e as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') stats.unreachable++;
          else stats.unknown++;
          // The node is down or cut off: back off before the next try, as a client would.
          await new Promise((res) => setTimeout(res, UNREACHABLE_BACKOFF_MS));
          continue;
        }
        // Read it back with its token on another node (read-your-writes across nodes).
        const other = pick(o.nodes());
        if (!other) continue;
        const d = docs[docs.length - 1]!;
        const token = stats.acked[stats.acked.length - 1]!.token;
        try {
          const r = await fetch(`${other}${o.path}/documents/${d.id}?token=${encodeURIComponent(token)}`, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
          const body = await r.text();
          if (r.status === 200) {
            if (JSON.stringify(JSON.parse(body)) === JSON.stringify(d)) stats.reads.ok++;
            else stats.reads.wrong.push(`${d.id}: read ${body.slice(0, 200)}`);
          } else if (r.status === 404) {
            stats.reads.wrong.push(`${d.id}: 404 with its token on ${other}`);
          } else {
            stats.reads.refused++;
          }
        } catch {
          stats.reads.unknown++;
        }
      }
    }),
  );
  return stats;
}
