// The embedded backend's pointers: casPointer, pointer and pointerVersion, on the pointers table, with
// pointer_history keeping superseded values for "tags only on retained manifests" and
// object_refs counting the manifest references. One write transaction reads the link (a
// collection's pointer requires the collection live), the fence's lease, the current
// version and the new value's reference row, and the core's rules (core/pointers.ts,
// core/leases.ts) decide.
import type { MetaStore } from '../../contract.js';
import { parseLinkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { DEFAULT_MANIFEST_RETENTION_MS } from '../../limits.js';
import { checkPointerVersion, historyCutoff } from '../../core/pointers.js';
import type { Fence, Pointer, PointerVersion, WriteContext } from '../../types.js';
import { toPointer, type Row } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

export type PointerCalls = Pick<MetaStore, 'casPointer' | 'pointer' | 'pointerVersion'>;

export function pointerCalls(ctx: SqliteContext): PointerCalls {
  return {
    casPointer: (ns: number, key: string, expectedVersion: number | null, value: string, opts?: { fence?: Fence } & WriteContext) =>
      ctx.write('casPointer', opts, (stamp) => {
        ctx.writable(ns);
        ctx.liveNamespace(ns);
        let retentionMs = DEFAULT_MANIFEST_RETENTION_MS;
        const link = parseLinkPointerKey(key);
        if (link !== null) {
          const l = ctx.get<{ collection_id: number; state: string }>('SELECT collection_id, state FROM links WHERE ns = ? AND id = ?', ns, link);
          if (!l || l.state !== 'live') throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
          retentionMs = ctx.liveCollection(ns, l.collection_id).manifestRetentionMs;
        }
        ctx.checkFence(opts?.fence, `pointer ${key}`);
        const cur = ctx.get<{ version: number; value: string }>('SELECT version, value FROM pointers WHERE ns = ? AND key = ?', ns, key);
        const version = checkPointerVersion(key, cur?.version ?? null, expectedVersion);
        ctx.addRef(value, 'manifest', 1);
        if (cur) {
          ctx.dropRef(cur.value, 1, stamp);
          ctx.run('UPDATE pointer_history SET superseded = ? WHERE ns = ? AND key = ? AND version = ?', stamp, ns, key, cur.version);
          // Superseded past retention can no longer be tagged: forget them (bounded: few per key).
          ctx.run('DELETE FROM pointer_history WHERE ns = ? AND key = ? AND superseded < ?', ns, key, historyCutoff(stamp, retentionMs));
        }
        ctx.run('INSERT INTO pointer_history (ns, key, version, value, superseded) VALUES (?, ?, ?, ?, NULL)', ns, key, version, value);
        ctx.run(
          `INSERT INTO pointers (ns, key, version, value, stamp) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (ns, key) DO UPDATE SET version = excluded.version, value = excluded.value, stamp = excluded.stamp`,
          ns,
          key,
          version,
          value,
          stamp,
        );
        return { ns, key, version, value, stamp } satisfies Pointer;
      }),

    pointer: (ns: number, key: string) =>
      ctx.read(() => {
        const r = ctx.get<Row>('SELECT * FROM pointers WHERE ns = ? AND key = ?', ns, key);
        return r ? toPointer(r) : null;
      }),

    pointerVersion: (ns: number, key: string, version: number) =>
      ctx.read(() => {
        const r = ctx.get<{ value: string; superseded: number | null }>(
          'SELECT value, superseded FROM pointer_history WHERE ns = ? AND key = ? AND version = ?',
          ns,
          key,
          version,
        );
        return r ? ({ version, value: r.value, superseded: r.superseded } satisfies PointerVersion) : null;
      }),
  };
}
