// An erasure as the API shows it, and verification (spec §9.6): the org recomputes a key's
// HMAC under the record's key version and sees whether the record holds it. Keys never
// appear in a record, a response or a log line; the hash does.
import { DataError, dataErrors } from '../log/errors.js';
import { canonicalKey } from '../log/keys.js';
import type { ErasureRow } from '../control/types.js';
import { ErasureKeyDestroyed, keyHash } from './keys.js';
import { dataOf } from './record.js';
import type { ErasureService } from './service.js';

export function erasureJson(row: ErasureRow, boundMs: number) {
  const d = dataOf(row);
  return {
    id: row.id,
    org: row.org,
    namespace_id: row.ns,
    collection_id: row.collection,
    phase: row.phase,
    waiting: d.waiting,
    requested: row.requested,
    completed: row.completed,
    deadline: d.deadline,
    expected_completion: Math.min(d.deadline, row.requested + boundMs),
    key_version: d.keyVersion,
    key_hashes: d.keyHashes,
    offsets: d.offsets,
    purged_version: d.purgedVersion,
    counts: {
      keys: d.keyHashes.length,
      files_rewritten: d.rewritten.length,
      tags_rewritten: d.tags.length,
      objects_retired: d.retire.length,
      objects_deleted: d.deleted.length,
      orphans_deleted: d.orphansDeleted,
      nodes_evicted: d.evictedBy.length,
    },
    rewritten: d.rewritten,
    tags: d.tags.map((t) => ({ name: t.name, from_version: t.fromVersion, from_path: t.fromPath, to_path: t.toPath })),
    retired: d.retire,
  };
}

/** 200 when the record holds the key's hash; a typed 4xx naming what to fix otherwise. */
export async function verifyKey(svc: ErasureService, row: ErasureRow, key: unknown) {
  const k = canonicalKey(key);
  if (!k.ok) throw dataErrors.invalid('body.key', `a primary key value ${k.why}`);
  const d = dataOf(row);
  let logKey: Buffer;
  try {
    logKey = await svc.keys.version(row.org, d.keyVersion);
  } catch (e) {
    if (e instanceof ErasureKeyDestroyed) throw dataErrors.conflict(`${e.message}; verification is no longer possible (by design)`);
    throw e;
  }
  const hash = keyHash(logKey, k.key);
  if (!d.keyHashes.includes(hash)) {
    // Said whole: dataErrors.notFound would append " not found" to a sentence that already says it.
    throw new DataError('NotFound', `body.key: erasure ${row.id} holds no hash of this key (HMAC-SHA256 under key version ${d.keyVersion}); check the key's exact value and type`);
  }
  return { verified: true, key_hash: hash, key_version: d.keyVersion, erasure: erasureJson(row, svc.boundMs) };
}
