// Name uniqueness (DESIGN §2.1): a namespace name is unique within its org, a collection
// name within its namespace, among live entities; dropping frees the name at once.
//
// One key per name: `n:<org>/<name>` for namespaces, `c:<ns>/<name>` for collections. The
// state of a name is the id bound to it, null when free, or "bound, id not yet known"
// after a create whose outcome is unknown (a later AlreadyExists or read names the id).
// Every op touches one name — a drop by id is attributed to the name its id was created
// or read under — so names are independent objects and the history partitions by name
// (locality). What crosses names is checked statically: ids are never reused (two creates
// never return one id, one id is never seen under two names), and ids come from counters,
// so a create that starts after another finished gets a larger id.
import { failCode, HistoryError, type Op } from '../history.js';
import {
  NONE,
  SAME,
  bad,
  isObj,
  reject,
  reqInt,
  reqString,
  scopePart,
  type Alt,
  type KeyKind,
  type OpHandler,
  type Precheck,
  type PrepareContext,
  type Violation,
} from '../model.js';

/** null: free; -1: bound to an id not known yet; otherwise the id. */
type NameState = number | null;
const UNKNOWN_ID = -1;

const kindOf = (prefix: string, what: string): KeyKind<NameState> => ({
  prefix,
  what,
  init: () => null,
  hash: (s) => (s === null ? '-' : String(s)),
  show: (s) => (s === UNKNOWN_ID ? 'bound (id unknown)' : s === null ? 'free' : { id: s }),
  describe: (rest) => {
    const i = rest.lastIndexOf('/');
    return `${JSON.stringify(rest.slice(i + 1))} in ${prefix === 'n:' ? 'org' : 'ns'} ${rest.slice(0, i)}`;
  },
});
export const namespaceNameKind = kindOf('n:', 'namespace name');
export const collectionNameKind = kindOf('c:', 'collection name');

interface Flavour {
  what: 'namespace' | 'collection';
  create: string;
  drop: string;
  byName: string;
  /** The name key from an op's args. */
  key(a: Record<string, unknown>): string;
  /** Where ids are unique: namespaces globally, collections per namespace. */
  idScope(a: Record<string, unknown>): string;
}

const NS: Flavour = {
  what: 'namespace',
  create: 'createNamespace',
  drop: 'dropNamespace',
  byName: 'namespaceByName',
  key: (a) => `n:${reqString(a, 'org', 'args')}/${reqString(a, 'name', 'args')}`,
  idScope: () => '',
};
const COLL: Flavour = {
  what: 'collection',
  create: 'createCollection',
  drop: 'dropCollection',
  byName: 'collectionByName',
  key: (a) => `c:${scopePart(a.ns, 'args.ns')}/${reqString(a, 'name', 'args')}`,
  idScope: (a) => scopePart(a.ns, 'args.ns'),
};

function resultId(v: unknown, where: string): number {
  if (!isObj(v)) bad(`${where} must be an object with an integer id`);
  return reqInt(v, 'id', where);
}

/** Every (id → name key) the history shows: ok creates, AlreadyExists ids, reads by name. */
function sightings(f: Flavour, ops: readonly Op[]): { id: string; key: string; op: Op }[] {
  const out: { id: string; key: string; op: Op }[] = [];
  for (const op of ops) {
    let id: number | null = null;
    if (op.name === f.create && op.status === 'ok') id = resultId(op.result, 'result');
    else if (op.name === f.create && op.status === 'fail') {
      const e = failCode(op);
      if (e?.code === 'AlreadyExists' && typeof e.details.existingId === 'number') id = e.details.existingId;
    } else if (op.name === f.byName && op.status === 'ok' && op.result !== null) id = resultId(op.result, 'result');
    if (id !== null) out.push({ id: `${f.idScope(op.args)}/${id}`, key: f.key(op.args), op });
  }
  return out;
}

function attribution(f: Flavour) {
  return (ops: readonly Op[]) => {
    const m = new Map<string, string>();
    for (const s of sightings(f, ops)) if (!m.has(s.id)) m.set(s.id, s.key);
    return m;
  };
}

interface Data {
  key: string;
  kind: 'create' | 'drop' | 'read';
  mode: 'ok' | 'exists' | 'notfound' | 'info';
  /** create ok: the new id; exists: the existing id (or null); drop: the dropped id; read: the id read (null: absent). */
  id: number | null;
}

const show = (s: NameState) => (s === null ? 'free' : s === UNKNOWN_ID ? 'bound to an unknown id' : `bound to id ${s}`);

function handlersFor(f: Flavour): OpHandler<Data>[] {
  const create: OpHandler<Data> = {
    name: f.create,
    doc: {
      args: f === NS ? '{org, name}' : '{ns, name}',
      ok: '{id}',
      fail: 'AlreadyExists {details: {existingId}}; other codes (NotFound…) are left out',
    },
    prepare(op) {
      const key = f.key(op.args);
      if (op.status === 'ok') return [{ keys: [key], data: { key, kind: 'create', mode: 'ok', id: resultId(op.result, 'result') } }];
      if (op.status === 'info') return [{ keys: [key], data: { key, kind: 'create', mode: 'info', id: null } }];
      const e = failCode(op);
      if (e?.code !== 'AlreadyExists') return [];
      const id = typeof e.details.existingId === 'number' ? e.details.existingId : null;
      return [{ keys: [key], data: { key, kind: 'create', mode: 'exists', id } }];
    },
    step: nameStep,
  };
  const drop: OpHandler<Data> = {
    name: f.drop,
    doc: {
      args: f === NS ? '{id, org?, name?}' : '{ns, id, name?}',
      ok: 'anything (void)',
      fail: 'NotFound; other codes are left out',
      notes: `frees the name; without the name in args, the id is attributed to the name it was created or read under`,
    },
    prepare(op, ctx: PrepareContext) {
      const id = reqInt(op.args, 'id', 'args');
      let key: string;
      if (typeof op.args.name === 'string') key = f.key(op.args);
      else {
        const k = ctx.index(`${f.what}Names`, attribution(f)).get(`${f.idScope(op.args)}/${id}`);
        if (!k) throw new HistoryError(`${f.drop} of id ${id}: no op in the history names it; add args.name`);
        key = k;
      }
      let mode: Data['mode'] = 'info';
      if (op.status === 'ok') mode = 'ok';
      else if (op.status === 'fail') {
        if (failCode(op)?.code !== 'NotFound') return [];
        mode = 'notfound';
      }
      return [{ keys: [key], data: { key, kind: 'drop', mode, id }, readOnly: mode === 'notfound' }];
    },
    step: nameStep,
  };
  const byName: OpHandler<Data> = {
    name: f.byName,
    doc: {
      args: f === NS ? '{org, name}' : '{ns, name}',
      ok: '{id} | null',
      fail: 'NotFound (the same as ok null); other codes are left out',
    },
    prepare(op) {
      const key = f.key(op.args);
      if (op.status === 'info') return [];
      if (op.status === 'fail') {
        if (failCode(op)?.code !== 'NotFound') return [];
        return [{ keys: [key], data: { key, kind: 'read', mode: 'ok', id: null }, readOnly: true }];
      }
      // A read naming an id may bind it to a create whose outcome was unknown: not read-only.
      const id = op.result === null ? null : resultId(op.result, 'result');
      return [{ keys: [key], data: { key, kind: 'read', mode: 'ok', id }, readOnly: id === null }];
    },
    step: nameStep,
  };
  return [create, drop, byName];
}

function nameStep(d: Data, _s: unknown, get: (k: string) => unknown, why?: string[]): Alt[] {
  const cur = get(d.key) as NameState;
  const bind = (id: number): Alt[] => [[[d.key, id]]];
  switch (d.kind) {
    case 'create':
      if (d.mode === 'ok') return cur === null ? bind(d.id!) : reject(why, () => `created id ${d.id}, but the name is ${show(cur)}`);
      if (d.mode === 'info') return cur === null ? bind(UNKNOWN_ID) : NONE;
      // AlreadyExists
      if (cur === null) return reject(why, () => `AlreadyExists, but the name is free`);
      if (d.id === null || cur === d.id) return SAME;
      if (cur === UNKNOWN_ID) return bind(d.id);
      return reject(why, () => `AlreadyExists names id ${d.id}, but the name is ${show(cur)}`);
    case 'drop': {
      const id = d.id!;
      if (d.mode === 'notfound') {
        return cur !== id ? SAME : reject(why, () => `NotFound, but id ${id} is live under this name`);
      }
      if (d.mode === 'info') return cur === id || cur === UNKNOWN_ID ? [[[d.key, null]]] : NONE;
      // ok: frees the name if the id holds it; dropping an id that no longer holds it changes nothing
      if (cur === id) return [[[d.key, null]]];
      if (cur === UNKNOWN_ID) return [[[d.key, null]], []];
      return SAME;
    }
    case 'read':
      if (d.id === null) return cur === null ? SAME : reject(why, () => `read: absent, but the name is ${show(cur)}`);
      if (cur === d.id) return SAME;
      if (cur === UNKNOWN_ID) return bind(d.id);
      return reject(why, () => `read id ${d.id}, but the name is ${show(cur)}`);
  }
}

function idPrecheck(f: Flavour): Precheck {
  return (ops) => {
    const out: Violation[] = [];
    // One id, one name.
    const seen = new Map<string, { key: string; op: Op }>();
    for (const s of sightings(f, ops)) {
      const prev = seen.get(s.id);
      if (!prev) seen.set(s.id, s);
      else if (prev.key !== s.key) {
        out.push({ message: `${f.what} id ${s.id.split('/').pop()} seen under two names: ${prev.key.slice(2)} and ${s.key.slice(2)}`, ops: [prev.op, s.op] });
      }
    }
    // Two successful creates never return one id; a later create gets a larger id.
    const creates = ops.filter((o) => o.name === f.create && o.status === 'ok');
    const byScope = new Map<string, Op[]>();
    for (const o of creates) {
      const sc = f.idScope(o.args);
      let l = byScope.get(sc);
      if (!l) byScope.set(sc, (l = []));
      l.push(o);
    }
    for (const list of byScope.values()) {
      const ids = new Map<number, Op>();
      for (const o of list) {
        const id = resultId(o.result, 'result');
        const prev = ids.get(id);
        if (prev) out.push({ message: `two successful ${f.create} calls returned id ${id} (ids are never reused)`, ops: [prev, o] });
        else ids.set(id, o);
      }
      const byRet = [...list].sort((a, b) => a.ret - b.ret);
      const byCall = [...list].sort((a, b) => a.call - b.call);
      let j = 0;
      let maxOp: Op | null = null;
      for (const b of byCall) {
        while (j < byRet.length && byRet[j]!.ret < b.call) {
          const a = byRet[j++]!;
          if (!maxOp || resultId(a.result, '') > resultId(maxOp.result, '')) maxOp = a;
        }
        if (maxOp && resultId(maxOp.result, '') >= resultId(b.result, '')) {
          out.push({
            message: `${f.create} returned id ${resultId(b.result, '')} after an earlier call (finished before it started) returned id ${resultId(maxOp.result, '')}: ids come from a counter`,
            ops: [maxOp, b],
          });
          break;
        }
      }
    }
    return out;
  };
}

export function nameHandlers(): { handlers: OpHandler[]; prechecks: Precheck[] } {
  return { handlers: [...handlersFor(NS), ...handlersFor(COLL)], prechecks: [idPrecheck(NS), idPrecheck(COLL)] };
}
