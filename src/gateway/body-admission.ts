// What a request is admitted to before its body is read (onRequest, before the body parser):
// its API key, then, for a write, its place in the node's write budget (./write-budget.ts).
// A body is read, held and parsed only for a caller the node knows: a request without a valid
// key is 401 having cost the node no body bytes, no JSON parse and no share of the budget (on
// the old order one keyless connection declaring a large body held the whole budget, and every
// org's writes waited, then were refused).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ROUTES } from './schemas.js';
import { BODY_LIMIT_BYTES } from './http-errors.js';
import type { WriteBudget } from './write-budget.js';

/** Who a request's key names, as authentication found it before the body (its org shares the write budget). */
const earlyPrincipals = new WeakMap<FastifyRequest, { org: string }>();

/**
 * Authenticates every request but those of routes `early` passes over (health, the OpenAPI
 * document, the status page, whose key is in a cookie its own hook reads) before its body is
 * read, and refused there when its quota is already spent (`authenticate` checks the cached
 * decision: see Admission.refuseSpent); admission (authorization and the quotas' charge, which
 * may need the body's size) still runs after the body is parsed, before it is validated,
 * finding the key's verification cached.
 */
export function authenticateBeforeBody(app: FastifyInstance, authenticate: (req: FastifyRequest) => { org: string } | Promise<{ org: string }>, early: (route: string) => boolean): void {
  app.addHook('onRequest', (req, _reply, done) => {
    if (!req.is404 && !early(req.routeOptions.url ?? '')) return done();
    let got: { org: string } | Promise<{ org: string }>;
    try {
      got = authenticate(req);
    } catch (e) {
      return done(e as Error);
    }
    if (!(got instanceof Promise)) {
      earlyPrincipals.set(req, got);
      return done();
    }
    got.then(
      (p) => {
        earlyPrincipals.set(req, p);
        done();
      },
      (e: Error) => done(e),
    );
  });
}

/** A write's place in the write budget: its release once admitted; aborted when its client goes away. */
export const writeAdmissions = new WeakMap<FastifyRequest, WriteAdmission>();

export interface WriteAdmission {
  release?: () => void;
  aborted: AbortController;
  /** The route's handler runs: it gives the budget back when it is done, even if the client went away. */
  handling?: boolean;
}

/**
 * Writes are admitted to the write budget before their bodies are read (onRequest comes
 * before the body parser): a refused one has read nothing, so wrote nothing. A body without a
 * Content-Length is charged the body limit (the budget's whole, when that is smaller). Call
 * after authenticateBeforeBody: the budget is shared out by org.
 */
export function admitWriteBodies(app: FastifyInstance, budget: WriteBudget): void {
  const url = ROUTES.writeDocuments.url;
  app.addHook('onRequest', (req, _reply, done) => {
    if (req.method !== ROUTES.writeDocuments.method || req.routeOptions.url !== url) return done();
    const length = Number(req.headers['content-length']);
    const state: WriteAdmission = { aborted: new AbortController() };
    writeAdmissions.set(req, state);
    let got: (() => void) | Promise<() => void>;
    try {
      // Charged to the key's org (its share of the budget); without keys, the node is one owner.
      got = budget.acquire(Number.isFinite(length) ? length : BODY_LIMIT_BYTES, state.aborted.signal, earlyPrincipals.get(req)?.org);
    } catch (e) {
      return done(e as Error);
    }
    if (typeof got === 'function') {
      state.release = got;
      return done();
    }
    got.then(
      (release) => {
        state.release = release;
        // Gone between its admission and now: what it was given goes back at once.
        if (state.aborted.signal.aborted) {
          release();
          done(state.aborted.signal.reason as Error);
        } else done();
      },
      (e: Error) => done(e),
    );
  });
}
