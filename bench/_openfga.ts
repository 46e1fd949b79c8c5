// The OpenFGA figures of `bench gateway --authorizer openfga` (spec §7): an uncached check's
// latency (openfga_check_p50_ms / p99: what a request pays when the decision cache misses),
// and filterVisible for a page of 100 and of 1,000 namespaces, two ways: server batch checks
// (50 per request, each namespace's org as a contextual tuple: what OpenFgaAuthorizer does)
// and one listObjects call (which needs the namespaces' org tuples stored, and pages the
// answer against the page). In a store of its own on the bench's OpenFGA server.
import { ConsistencyPreference, OpenFgaClient, type TupleKey } from '@openfga/sdk';
import { modelRequest } from '../src/authz/openfga/model.js';
import { MAX_CHECKS_PER_BATCH } from '../src/authz/openfga/authorizer.js';
import { parentTuple } from '../src/authz/openfga/tuples.js';
import { pino } from 'pino';
import { OpenFgaAuthorizer } from '../src/authz/openfga/authorizer.js';
import type { ControlStore } from '../src/control/types.js';
import type { MetaStore } from '../src/meta/contract.js';
import { pct, round } from './_stats.js';

const ORG = 'bench';
const PAGES = [100, 1_000] as const;
/** Timed repetitions per figure. */
export const CHECKS_TIMED = 500;
export const FILTER_REPEATS = 15;

type Line = (metric: string, value: number, unit: string, extra?: Record<string, unknown>) => void;

export async function openfgaFigures(url: string, line: Line): Promise<void> {
  const admin = new OpenFgaClient({ apiUrl: url });
  const store = await admin.createStore({ name: `bench-figures-${Date.now()}` });
  const c0 = new OpenFgaClient({ apiUrl: url, storeId: store.id });
  const m = await c0.writeAuthorizationModel(modelRequest());
  const fga = new OpenFgaClient({ apiUrl: url, storeId: store.id, authorizationModelId: m.authorization_model_id });
  const user = 'api_key:bench';
  const max = PAGES[PAGES.length - 1]!;
  // The key reads half the namespaces (a reader binding on each even one), as a namespace-scoped key would.
  const tuples: TupleKey[] = [{ user, relation: 'member', object: `org:${ORG}` }];
  for (let i = 0; i < max; i++) {
    if (i % 2 === 0) tuples.push({ user, relation: 'reader', object: `namespace:${ORG}/${i}` });
    tuples.push(parentTuple(ORG, i)); // stored only for listObjects; checks pass it as context
  }
  for (let i = 0; i < tuples.length; i += 100) await fga.write({ writes: tuples.slice(i, i + 100) });

  const opts = { consistency: ConsistencyPreference.MinimizeLatency };
  for (let i = 0; i < 50; i++) await fga.check({ user, relation: 'can_read', object: `namespace:${ORG}/${i}`, contextualTuples: [parentTuple(ORG, i)] }, opts);
  const lat: number[] = [];
  for (let i = 0; i < CHECKS_TIMED; i++) {
    const ns = i % max;
    const t = performance.now();
    const r = await fga.check({ user, relation: 'can_read', object: `namespace:${ORG}/${ns}`, contextualTuples: [parentTuple(ORG, ns)] }, opts);
    lat.push(performance.now() - t);
    if (r.allowed !== (ns % 2 === 0)) throw new Error(`check of namespace ${ns} answered ${r.allowed}`);
  }
  for (const p of [50, 99]) line(`openfga_check_p${p}_ms`, pct(lat, p), 'ms', { value_is: 'one uncached Check over HTTP (MinimizeLatency, contextual org tuple)', checks: CHECKS_TIMED });

  for (const n of PAGES) {
    const batch: number[] = [];
    const list: number[] = [];
    for (let k = 0; k < FILTER_REPEATS + 2; k++) {
      let t = performance.now();
      const checks = Array.from({ length: n }, (_, i) => ({ user, relation: 'can_read', object: `namespace:${ORG}/${i}`, correlationId: String(i), contextualTuples: { tuple_keys: [parentTuple(ORG, i)] } }));
      const r = await fga.batchCheck({ checks }, { ...opts, maxBatchSize: MAX_CHECKS_PER_BATCH });
      const visible = r.result.filter((x) => x.allowed).length;
      const tb = performance.now() - t;
      t = performance.now();
      const lo = await fga.listObjects({ user, relation: 'can_read', type: 'namespace' }, opts);
      const page = new Set(Array.from({ length: n }, (_, i) => `namespace:${ORG}/${i}`));
      const listed = lo.objects.filter((o) => page.has(o)).length;
      const tl = performance.now() - t;
      if (visible !== n / 2 || listed !== n / 2) throw new Error(`page of ${n}: batch check saw ${visible}, listObjects ${listed}, expected ${n / 2}`);
      if (k >= 2) {
        batch.push(tb);
        list.push(tl);
      }
    }
    const b = pct(batch, 50);
    const l = pct(list, 50);
    line('filter_visible_ms', b, 'ms', {
      page: n,
      method: 'batch_check',
      value_is: `every namespace checked: server batch checks, ${MAX_CHECKS_PER_BATCH} per request, contextual org tuples`,
      baseline: round(l, 3),
      baseline_is: `one listObjects of every namespace the key reads (${max / 2} of ${max}; org tuples stored), intersected with the page`,
      ratio: round(b / l, 3),
      p99: round(pct(batch, 99), 3),
      baseline_p99: round(pct(list, 99), 3),
      repeats: FILTER_REPEATS,
    });
  }
  await c0.deleteStore();
  await authorizerFigures(url, line);
}

/**
 * filterVisible as OpenFgaAuthorizer runs it (the choice the figures above led to): one check
 * on the org, then only the namespaces the key holds tuples on. For a key reading the whole
 * org, and for one holding reader bindings on 50 of the 1,000 namespaces. Its decision cache
 * is dropped before every repetition (invalidate), so each one asks the server.
 */
async function authorizerFigures(url: string, line: Line): Promise<void> {
  const az = new OpenFgaAuthorizer({ url, store: `bench-filter-${Date.now()}`, control: {} as ControlStore, meta: {} as MetaStore, logger: pino({ level: 'silent' }), owner: 'bench', drainer: false });
  await az.start();
  const fga = az.store.client;
  const max = PAGES[PAGES.length - 1]!;
  const tuples: TupleKey[] = [
    { user: 'api_key:orgwide', relation: 'member', object: `org:${ORG}` },
    { user: 'api_key:orgwide', relation: 'reader', object: `org:${ORG}` },
    { user: 'api_key:scoped', relation: 'member', object: `org:${ORG}` },
  ];
  for (let i = 0; i < max; i += max / 50) tuples.push({ user: 'api_key:scoped', relation: 'reader', object: `namespace:${ORG}/${i}` });
  await fga.write({ writes: tuples });
  for (const who of ['orgwide', 'scoped'] as const) {
    const p = { org: ORG, subject: `key:${who}`, scopes: ['*'] };
    for (const n of PAGES) {
      const rs = Array.from({ length: n }, (_, i) => ({ kind: 'namespace' as const, org: ORG, ns: i, name: `n${i}` }));
      const want = who === 'orgwide' ? n : Math.ceil(n / (max / 50));
      const times: number[] = [];
      for (let k = 0; k < FILTER_REPEATS + 2; k++) {
        az.invalidate(ORG, p.subject);
        const t = performance.now();
        const got = await az.filterVisible(p, 'namespace.read', rs);
        if (k >= 2) times.push(performance.now() - t);
        if (got.length !== want) throw new Error(`filterVisible for ${who}, page ${n}: ${got.length} visible, expected ${want}`);
      }
      line('filter_visible_ms', pct(times, 50), 'ms', {
        page: n,
        method: 'authorizer',
        key: who === 'orgwide' ? 'reader on the org' : 'reader on 50 of 1,000 namespaces',
        value_is: 'OpenFgaAuthorizer.filterVisible: one org check, then checks of the namespaces the key holds tuples on',
        visible: want,
        p99: round(pct(times, 99), 3),
        repeats: FILTER_REPEATS,
      });
    }
  }
  await fga.deleteStore();
}
