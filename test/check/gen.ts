// Random sequential runs of each model, computed by reference implementations written
// separately from the checker's models (so a model that accepts everything, or rejects
// everything, is caught), and mutations that make a run's history invalid.
//
// A mutation changes one call's recorded result to one the reference says is wrong at
// that point. In a sequential history (no two calls overlap) the order is forced, so the
// mutated history is certainly not linearizable. Calls whose wrong result might still be
// justified by the contract's latitude are marked noMutate.
import type { Call, Rng } from './helpers.js';

export interface Generator {
  model: string;
  /** Names the generator in test titles (default: the model). */
  label?: string;
  run(rng: Rng, n: number): Call[];
  /** Returns a mutated copy of `c` that is wrong at its point, or null if this call has no such mutation. */
  mutate(c: Call, rng: Rng): Call | null;
}

const fail = (code: string, details: Record<string, unknown> = {}) => ({ code, message: code, details });
const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

// ---------------------------------------------------------------- register

export const registerGen: Generator = {
  model: 'register',
  run(rng, n) {
    const vals = new Map<string, number | null>();
    const keys = ['a', 'b', 'c'];
    const calls: Call[] = [];
    for (let i = 0; i < n; i++) {
      const key = rng.pick(keys);
      const cur = vals.get(key) ?? null;
      const r = rng.next();
      if (r < 0.4) calls.push({ op: 'read', args: { key }, status: 'ok', result: cur });
      else if (r < 0.7) {
        const value = rng.int(5);
        vals.set(key, value);
        calls.push({ op: 'write', args: { key, value }, status: 'ok' });
      } else {
        const from = rng.chance(0.6) ? cur : rng.int(5);
        const to = rng.int(5);
        if (from === cur) {
          vals.set(key, to);
          calls.push({ op: 'cas', args: { key, from, to }, status: 'ok' });
        } else calls.push({ op: 'cas', args: { key, from, to }, status: 'fail', result: fail('Mismatch') });
      }
    }
    return calls;
  },
  mutate(c) {
    if (c.op === 'read') return { ...c, result: (c.result === null ? 0 : (c.result as number)) + 100 };
    if (c.op === 'cas' && c.status === 'ok') return { ...c, status: 'fail', result: fail('Mismatch') };
    if (c.op === 'cas' && c.status === 'fail') return { ...c, status: 'ok', result: undefined };
    return null;
  },
};

// ---------------------------------------------------------------- pointer

export const pointerGen: Generator = {
  model: 'pointer',
  run(rng, n) {
    const ptrs = new Map<string, { version: number; value: string }>();
    const keys = ['k1', 'k2'];
    const calls: Call[] = [];
    for (let i = 0; i < n; i++) {
      const key = rng.pick(keys);
      const cur = ptrs.get(key) ?? null;
      if (rng.chance(0.4)) {
        calls.push({ op: 'pointer', args: { key }, status: 'ok', result: cur ? { ...cur } : null });
        continue;
      }
      const cv = cur?.version ?? null;
      const expectedVersion = rng.chance(0.7) ? cv : rng.pick([null, 1, 2, 3, 4]);
      const value = `v${i}`;
      if (expectedVersion === cv) {
        const version = (cv ?? 0) + 1;
        ptrs.set(key, { version, value });
        calls.push({ op: 'casPointer', args: { key, expectedVersion, value }, status: 'ok', result: { version } });
      } else {
        calls.push({ op: 'casPointer', args: { key, expectedVersion, value }, status: 'fail', result: fail('VersionMismatch', { currentVersion: cv }) });
      }
    }
    return calls;
  },
  mutate(c, rng) {
    if (c.op === 'pointer') {
      const r = c.result as { version: number; value: string } | null;
      if (r === null) return { ...c, result: { version: 1, value: 'zzz' } };
      return { ...c, result: rng.chance(0.5) ? { ...r, version: r.version + 1 } : { ...r, value: `${r.value}x` } };
    }
    if (c.op === 'casPointer' && c.status === 'ok') {
      const v = (c.result as { version: number }).version;
      return rng.chance(0.5)
        ? { ...c, result: { version: v + 1 } }
        : { ...c, status: 'fail', result: fail('VersionMismatch', { currentVersion: v - 1 === 0 ? null : v - 1 }) };
    }
    if (c.op === 'casPointer' && c.status === 'fail') {
      const cv = (c.result as { details: { currentVersion: number | null } }).details.currentVersion;
      return rng.chance(0.5)
        ? { ...c, status: 'ok', result: { version: (cv ?? 0) + 1 } }
        : { ...c, result: fail('VersionMismatch', { currentVersion: (cv ?? 0) + 7 }) };
    }
    return null;
  },
};

// ---------------------------------------------------------------- fenced pointer (pointer + lease)

export const fencedPointerGen: Generator = {
  model: 'pointer',
  label: 'pointer with fences and leases',
  run(rng, n) {
    let ptr = null as { version: number; value: string } | null;
    let lease = null as { owner: string; epoch: number; deadline: number } | null;
    let stamp = 1000;
    const calls: Call[] = [];
    for (let i = 0; i < n; i++) {
      stamp += rng.int(30);
      const r = rng.next();
      if (r < 0.25) {
        const owner = rng.pick(['n1', 'n2']);
        const ttlMs = 40 + rng.int(60);
        const args = { key: 'app', owner, ttlMs, stamp };
        if (lease && lease.deadline >= stamp && lease.owner !== owner) {
          calls.push({ op: 'acquireLease', args, status: 'fail', result: fail('LeaseHeld', { holder: lease.owner, currentEpoch: lease.epoch }) });
          continue;
        }
        const sameOwnerExpired = lease !== null && lease.owner === owner && lease.deadline < stamp;
        const epoch: number = !lease ? 1 : lease.owner === owner ? lease.epoch : lease.epoch + 1;
        lease = { owner, epoch, deadline: stamp + ttlMs };
        calls.push({ op: 'acquireLease', args, status: 'ok', result: { ...lease }, noMutate: sameOwnerExpired });
      } else if (r < 0.75) {
        const cv: number | null = ptr?.version ?? null;
        const expectedVersion: number | null = rng.chance(0.8) ? cv : rng.pick([null, 1, 2, 3]);
        const fenceEpoch = lease && rng.chance(0.75) ? lease.epoch : rng.int(3);
        const value = `v${i}`;
        const args = { key: 'k', expectedVersion, value, fence: { key: 'app', epoch: fenceEpoch }, stamp };
        const versionOk = expectedVersion === cv;
        const epochOk = lease !== null && lease.epoch === fenceEpoch;
        const live = epochOk && lease!.deadline >= stamp;
        if (versionOk && live) {
          ptr = { version: (cv ?? 0) + 1, value };
          calls.push({ op: 'casPointer', args, status: 'ok', result: { version: ptr.version } });
        } else if (versionOk && epochOk) {
          // At the fence's epoch but expired: the contract lets a backend refuse or apply; this one refuses.
          calls.push({ op: 'casPointer', args, status: 'fail', result: fail('FenceMismatch'), noMutate: true });
        } else if (!versionOk && !epochOk) {
          calls.push({ op: 'casPointer', args, status: 'fail', result: fail(rng.chance(0.5) ? 'FenceMismatch' : 'VersionMismatch'), noMutate: true });
        } else if (!versionOk) {
          calls.push({ op: 'casPointer', args, status: 'fail', result: fail('VersionMismatch', { currentVersion: cv }) });
        } else {
          calls.push({ op: 'casPointer', args, status: 'fail', result: fail('FenceMismatch', lease ? { currentEpoch: lease.epoch } : {}) });
        }
      } else {
        calls.push({ op: 'pointer', args: { key: 'k' }, status: 'ok', result: ptr ? { ...ptr } : null });
      }
    }
    return calls;
  },
  mutate(c, rng) {
    if (c.noMutate) return null;
    if (c.op === 'casPointer' && c.status === 'fail') {
      // Refused for one reason only: succeeding instead is wrong.
      return { ...c, status: 'ok', result: { version: 50 + rng.int(50) } };
    }
    if (c.op === 'casPointer' && c.status === 'ok') return { ...c, status: 'fail', result: fail('FenceMismatch') };
    if (c.op === 'acquireLease' || c.op === 'pointer') return leaseGen.mutate(c, rng) ?? pointerGen.mutate(c, rng);
    return null;
  },
};

// ---------------------------------------------------------------- lease

interface RefLease {
  owner: string;
  epoch: number;
  deadline: number;
  released: boolean;
}

export const leaseGen: Generator = {
  model: 'lease',
  run(rng, n) {
    const leases = new Map<string, RefLease>();
    const keys = ['gc', 'applier'];
    const owners = ['n1', 'n2', 'n3'];
    const calls: Call[] = [];
    let stamp = 1000;
    for (let i = 0; i < n; i++) {
      stamp += rng.int(40);
      const key = rng.pick(keys);
      const cur = leases.get(key) ?? null;
      const owner = rng.chance(0.5) && cur ? cur.owner : rng.pick(owners);
      const ttlMs = 50 + rng.int(100);
      const r = rng.next();
      if (r < 0.35) {
        // acquire
        const args = { key, owner, ttlMs, stamp };
        const expired = cur !== null && cur.deadline < stamp;
        if (cur && !cur.released && !expired && cur.owner !== owner) {
          calls.push({ op: 'acquireLease', args, status: 'fail', result: fail('LeaseHeld', { holder: cur.owner, currentEpoch: cur.epoch }) });
          continue;
        }
        let epoch: number;
        let ambiguous = false;
        if (!cur) epoch = 1;
        else if (cur.released) epoch = cur.epoch + 1;
        else if (cur.owner === owner) {
          epoch = cur.epoch; // extend (an expired lease of the same owner may also be taken over: ambiguous)
          ambiguous = expired;
        } else epoch = cur.epoch + 1;
        const l = { owner, epoch, deadline: stamp + ttlMs, released: false };
        leases.set(key, l);
        calls.push({ op: 'acquireLease', args, status: 'ok', result: { owner, epoch, deadline: l.deadline }, noMutate: ambiguous });
      } else if (r < 0.55) {
        // renew, usually with the right epoch
        const epoch = cur && rng.chance(0.7) ? cur.epoch : rng.int(4);
        const args = { key, owner, epoch, ttlMs, stamp };
        if (cur && !cur.released && cur.owner === owner && cur.epoch === epoch && cur.deadline >= stamp) {
          cur.deadline = stamp + ttlMs;
          calls.push({ op: 'renewLease', args, status: 'ok', result: { owner, epoch, deadline: cur.deadline } });
        } else if (!cur) calls.push({ op: 'renewLease', args, status: 'fail', result: fail('NotFound') });
        else calls.push({ op: 'renewLease', args, status: 'fail', result: fail('FenceMismatch', { currentEpoch: cur.epoch }) });
      } else if (r < 0.75) {
        // release
        const epoch = cur && rng.chance(0.8) ? cur.epoch : rng.int(4);
        const args = { key, owner, epoch };
        if (!cur) calls.push({ op: 'releaseLease', args, status: 'fail', result: fail('NotFound') });
        else if (cur.epoch === epoch && cur.owner === owner) {
          cur.released = true;
          calls.push({ op: 'releaseLease', args, status: 'ok' });
        } else {
          // Releasing a released lease of this epoch as another owner is left open by the contract.
          const ambiguous = cur.released && cur.epoch === epoch;
          calls.push({ op: 'releaseLease', args, status: 'fail', result: fail('FenceMismatch'), noMutate: ambiguous });
        }
      } else {
        const result = cur ? { owner: cur.released ? null : cur.owner, epoch: cur.epoch, deadline: cur.deadline } : null;
        calls.push({ op: 'lease', args: { key }, status: 'ok', result });
      }
    }
    return calls;
  },
  mutate(c, rng) {
    if (c.noMutate) return null;
    const r = c.result as Record<string, unknown> | null;
    switch (c.op) {
      case 'acquireLease':
        if (c.status === 'ok') {
          return rng.chance(0.5)
            ? { ...c, status: 'fail', result: fail('LeaseHeld') }
            : { ...c, result: { ...r, epoch: (r!.epoch as number) + 5 } };
        }
        return { ...c, status: 'ok', result: { owner: c.args.owner, epoch: 99, deadline: (c.args.stamp as number) + (c.args.ttlMs as number) } };
      case 'renewLease':
        if (c.status === 'ok') return { ...c, status: 'fail', result: fail('FenceMismatch') };
        return { ...c, status: 'ok', result: { owner: c.args.owner, epoch: c.args.epoch } };
      case 'releaseLease':
        if (c.status === 'ok') return { ...c, status: 'fail', result: fail('FenceMismatch') };
        if ((c.result as { code: string }).code === 'NotFound') return { ...c, status: 'ok', result: undefined };
        return { ...c, status: 'ok', result: undefined };
      case 'lease':
        if (r === null) return { ...c, result: { owner: 'n9', epoch: 1, deadline: 0 } };
        return rng.chance(0.5) ? { ...c, result: { ...r, epoch: (r.epoch as number) + 1 } } : { ...c, result: null };
    }
    return null;
  },
};

// ---------------------------------------------------------------- log

export const logGen: Generator = {
  model: 'log',
  run(rng, n) {
    const next = new Map<string, number>(); // "stream/partition" -> next
    const entries = new Map<string, { start: number; end: number }[]>();
    const committed = new Map<string, { assigned: unknown[] }>(); // object -> first result (all groups committed)
    const calls: Call[] = [];
    const parts = [
      [1, 0],
      [1, 1],
      [2, 0],
    ] as const;
    for (let i = 0; i < n; i++) {
      const r = rng.next();
      if (r < 0.5 || committed.size === 0) {
        // a new WAL object, or (sometimes) a retry of an old one
        if (committed.size > 0 && rng.chance(0.15)) {
          const [object, first] = [...committed.entries()][rng.int(committed.size)]!;
          const prev = calls.find((c) => c.op === 'commitWal' && c.args.object === object)!;
          calls.push({ op: 'commitWal', args: clone(prev.args), status: 'ok', result: { assigned: clone(first.assigned) } });
          continue;
        }
        const object = `wal/${i}`;
        const chosen = parts.filter(() => rng.chance(0.5));
        if (!chosen.length) chosen.push(parts[rng.int(parts.length)]!);
        const chunks = chosen.map(([stream, partition]) => ({ stream, partition, records: 1 + rng.int(4) }));
        const groups = chunks.map((c) => (c.stream === 1 ? 0 : 1));
        const assigned = chunks.map((c, j) => {
          const k = `${c.stream}/${c.partition}`;
          const start = next.get(k) ?? 0;
          next.set(k, start + c.records);
          let e = entries.get(k);
          if (!e) entries.set(k, (e = []));
          e.push({ start, end: start + c.records });
          return { stream: c.stream, partition: c.partition, start, end: start + c.records, group: groups[j] };
        });
        committed.set(object, { assigned });
        calls.push({ op: 'commitWal', args: { object, chunks, groups }, status: 'ok', result: { assigned } });
      } else if (r < 0.8) {
        const [stream, partition] = parts[rng.int(parts.length)]!;
        const k = `${stream}/${partition}`;
        calls.push({
          op: 'partitionIndex',
          args: { stream, partition },
          status: 'ok',
          result: { logStart: 0, next: next.get(k) ?? 0, entries: clone(entries.get(k) ?? []) },
        });
      } else {
        const stream = rng.pick([1, 2]);
        const heads = parts.filter(([s]) => s === stream).map(([, p]) => ({ partition: p, next: next.get(`${stream}/${p}`) ?? 0, logStart: 0 }));
        calls.push({ op: 'streamState', args: { stream }, status: 'ok', result: { heads } });
      }
    }
    return calls;
  },
  mutate(c, rng) {
    const r = clone(c.result) as Record<string, any>;
    switch (c.op) {
      case 'commitWal': {
        const a = r.assigned[rng.int(r.assigned.length)];
        const d = rng.chance(0.5) ? 1 : -1;
        if (a.start + d < 0) {
          a.start += 1;
          a.end += 1;
        } else {
          a.start += d;
          a.end += d;
        }
        return { ...c, result: r };
      }
      case 'partitionIndex':
        if (r.entries.length >= 3 && rng.chance(0.5)) r.entries.splice(1, 1); // a gap
        else if (r.entries.length >= 1 && rng.chance(0.5)) {
          r.entries.pop(); // the tail entry missing: entries end before next
        } else r.next += 1;
        return { ...c, result: r };
      case 'streamState': {
        const h = r.heads[rng.int(r.heads.length)];
        h.next += rng.chance(0.5) || h.next === 0 ? 1 : -1;
        return { ...c, result: r };
      }
    }
    return null;
  },
};

// ---------------------------------------------------------------- names

export const namesGen: Generator = {
  model: 'names',
  run(rng, n) {
    let nextNs = 1;
    let nextColl = 1;
    const nsNames = new Map<string, number>();
    const collNames = new Map<string, number>();
    const calls: Call[] = [];
    const names = ['alpha', 'beta', 'gamma'];
    for (let i = 0; i < n; i++) {
      const name = rng.pick(names);
      const r = rng.next();
      const isNs = rng.chance(0.5);
      const map = isNs ? nsNames : collNames;
      const args: Record<string, unknown> = isNs ? { org: 'acme', name } : { ns: 7, name };
      const cur = map.get(name);
      if (r < 0.4) {
        const create = isNs ? 'createNamespace' : 'createCollection';
        // Ids come from a counter even when the create fails (gaps are allowed).
        const id = isNs ? nextNs++ : nextColl++;
        if (cur !== undefined) calls.push({ op: create, args, status: 'fail', result: fail('AlreadyExists', { existingId: cur }) });
        else {
          map.set(name, id);
          calls.push({ op: create, args, status: 'ok', result: { id } });
        }
      } else if (r < 0.6) {
        if (cur === undefined) continue;
        map.delete(name);
        calls.push({ op: isNs ? 'dropNamespace' : 'dropCollection', args: { ...args, id: cur }, status: 'ok' });
      } else {
        calls.push({ op: isNs ? 'namespaceByName' : 'collectionByName', args, status: 'ok', result: cur === undefined ? null : { id: cur } });
      }
    }
    return calls;
  },
  mutate(c) {
    if (c.op.startsWith('create')) {
      if (c.status === 'ok') return { ...c, status: 'fail', result: fail('AlreadyExists') };
      return { ...c, status: 'ok', result: { id: 1000 } };
    }
    if (c.op.endsWith('ByName')) {
      const r = c.result as { id: number } | null;
      return { ...c, result: r === null ? { id: 1000 } : r.id > 1 ? { id: r.id - 1 } : null };
    }
    return null;
  },
};

// ---------------------------------------------------------------- collectionHead

export const collectionHeadGen: Generator = {
  model: 'collectionHead',
  run(rng, n) {
    const heads = [0, 0];
    let ptr: { version: number; applied: Record<string, number> } | null = null;
    const calls: Call[] = [];
    for (let i = 0; i < n; i++) {
      const r = rng.next();
      if (r < 0.4) {
        const chunks = [0, 1].filter(() => rng.chance(0.6)).map((partition) => ({ stream: 5, partition, records: 1 + rng.int(3) }));
        if (!chunks.length) chunks.push({ stream: 5, partition: 0, records: 1 });
        const assigned = chunks.map((c) => {
          const start = heads[c.partition]!;
          heads[c.partition] = start + c.records;
          return { stream: 5, partition: c.partition, start, end: start + c.records };
        });
        calls.push({ op: 'commitWal', args: { object: `wal/${i}`, chunks }, status: 'ok', result: { assigned } });
      } else if (r < 0.65) {
        // The applier: publishes a manifest whose applied offsets are at most the heads now.
        const applied = { '0': rng.int(heads[0]! + 1), '1': rng.int(heads[1]! + 1) };
        const version: number = (ptr?.version ?? 0) + 1;
        calls.push({
          op: 'casPointer',
          args: { key: 'link/1', expectedVersion: ptr?.version ?? null, value: `m${version}`, applied },
          status: 'ok',
          result: { version },
        });
        ptr = { version, applied };
      } else {
        calls.push({
          op: 'collectionHead',
          args: { key: 'link/1', stream: 5 },
          status: 'ok',
          result: {
            pointer: ptr ? { version: ptr.version, value: `m${ptr.version}` } : null,
            heads: { '0': heads[0], '1': heads[1] },
          },
        });
      }
    }
    return calls;
  },
  mutate(c, rng) {
    if (c.op !== 'collectionHead') return null;
    const r = clone(c.result) as { pointer: { version: number; value: string } | null; heads: Record<string, number> };
    if (r.pointer && rng.chance(0.4)) {
      r.pointer.version += 1;
      r.pointer.value = `m${r.pointer.version}`;
    } else {
      const p = rng.pick(['0', '1']);
      r.heads[p] = r.heads[p]! + (r.heads[p] === 0 || rng.chance(0.5) ? 1 : -1);
    }
    return { ...c, result: r };
  },
};

export const GENERATORS: Generator[] = [registerGen, pointerGen, fencedPointerGen, leaseGen, logGen, namesGen, collectionHeadGen];
