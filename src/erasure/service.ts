// The erase request (spec §9.1): the normal delete (hidden at once, acknowledged with a
// token), then the erasure request recorded in the ControlStore, idempotently right after
// the delete committed — not in the delete's own transaction, which is the metastore's
// commitWal. Why that is safe: the request's id is chosen before the delete and the row is
// created by id (a retry returns the same row), so a retried record write cannot make two
// erasures; and if the node dies between the two, the caller got no answer and retries the
// erase, which deletes again (an idempotent effect) at a later offset — a later erasure
// offset only covers more of the log. Nothing is written before every check has passed, so a
// refused erase wrote nothing. The offsets recorded are those of the delete's own records,
// which the purge waits for the applier to pass (spec §9.2).
import type { Collection } from '../meta/types.js';
import { isMetaError } from '../meta/errors.js';
import { ownField } from '../meta/fields.js';
import { dataErrors } from '../log/errors.js';
import { canonicalKey } from '../log/keys.js';
import type { CollectionWriter } from '../collection/writer.js';
import type { CollectionReader } from '../collection/reader.js';
import type { ControlStore, ErasureRow } from '../control/types.js';
import type { Store } from '../store/index.js';
import { ErasureLogKeys, keyHash } from './keys.js';
import {
  DEFAULT_ERASURE_DEADLINE_MS,
  ERASURE_RECORD_FORMAT,
  MAX_ERASE_KEYS,
  newErasureId,
  requestRecord,
  requestRecordPath,
  writeRecordOnce,
  type ErasureData,
} from './record.js';

/** Tries of the row's creation after the delete committed (each retryable failure waits a little). */
export const RECORD_ATTEMPTS = 5;

export interface EraseInput {
  keys?: unknown;
  filter?: unknown;
}

export interface ErasureServiceDeps {
  control: ControlStore;
  keys: ErasureLogKeys;
  store: Store;
  deadlineMs?: number;
  /** The configured completion bound (spec §9.7): what `expected_completion` adds to the request time. */
  boundMs?: number;
}

/**
 * Canonical keys (strings, as hashed and stored) as the collection's writer takes them: a key
 * declared `number` must be sent as a number (its canonical form is the number's shortest
 * string, which Number() reads back exactly).
 */
export function typedKeys(c: Collection, keys: readonly string[]): (string | number)[] {
  return ownField(c.schema.fields, c.schema.primaryKey) === 'number' ? keys.map(Number) : [...keys];
}

export class ErasureService {
  readonly deadlineMs: number;
  readonly boundMs: number;
  constructor(private readonly d: ErasureServiceDeps) {
    this.deadlineMs = d.deadlineMs ?? DEFAULT_ERASURE_DEADLINE_MS;
    this.boundMs = d.boundMs ?? this.deadlineMs;
  }

  get control(): ControlStore {
    return this.d.control;
  }
  get keys(): ErasureLogKeys {
    return this.d.keys;
  }

  /** The canonical keys an erase names: a list, or what a filter matches now (strong read). Typed 4xx for bad input. */
  async keysOf(c: Collection, input: EraseInput, reader: CollectionReader | null): Promise<string[]> {
    const hasKeys = input.keys !== undefined;
    const hasFilter = input.filter !== undefined;
    if (hasKeys === hasFilter) throw dataErrors.invalid('body', 'give either keys (a list of primary keys) or filter, not both and not neither');
    let raw: unknown[];
    if (hasKeys) {
      if (!Array.isArray(input.keys)) throw dataErrors.invalid('body.keys', 'must be a list of primary key values');
      raw = input.keys;
      if (raw.length === 0) throw dataErrors.invalid('body.keys', 'is empty: give at least one primary key');
      if (raw.length > MAX_ERASE_KEYS) throw dataErrors.tooLarge('body.keys', `an erasure takes at most ${MAX_ERASE_KEYS} keys (MAX_ERASE_KEYS); got ${raw.length}: split it`);
    } else {
      if (!reader) throw dataErrors.unavailable('an erase by filter needs the query role on this node; send it to a node that has it');
      // The documents' keys as stored: canonical already, and checked when they were written.
      const found = new Set<string>();
      let cursor: string | null = null;
      for (let page = 0; page <= MAX_ERASE_KEYS; page++) {
        const r = await reader.query(c, { filter: input.filter, limit: 1_000, consistency: 'strong', ...(cursor ? { cursor } : {}) });
        for (const doc of r.documents) found.add(doc.key);
        if (found.size > MAX_ERASE_KEYS) throw dataErrors.tooLarge('body.filter', `the filter matches more than ${MAX_ERASE_KEYS} documents (MAX_ERASE_KEYS): narrow it`);
        cursor = r.nextCursor;
        if (!cursor) break;
      }
      if (found.size === 0) throw dataErrors.notFound('a document matching body.filter');
      return [...found];
    }
    const out = new Set<string>();
    const pkType = ownField(c.schema.fields, c.schema.primaryKey);
    raw.forEach((v, i) => {
      const k = canonicalKey(v, pkType);
      if (!k.ok) throw dataErrors.invalid(`body.keys[${i}]`, `a primary key value ${k.why}`);
      if (pkType === 'number' && typeof v !== 'number') throw dataErrors.invalid(`body.keys[${i}]`, `a primary key value must be a number (the collection's schema), got ${typeof v}`);
      out.add(k.key);
    });
    return [...out];
  }

  /** erase: delete, then the request (see the file's comment). Resolves with the row and the delete's token. */
  async erase(org: string, c: Collection, input: EraseInput, writer: CollectionWriter, reader: CollectionReader | null): Promise<{ row: ErasureRow; token: string }> {
    const keys = await this.keysOf(c, input, reader);
    // The key before the delete: an org whose erasure-log key cannot be made or unwrapped is refused before anything is written.
    const logKey = await this.d.keys.current(org);
    const id = newErasureId();
    const written = await writer.write(c, { deletes: typedKeys(c, keys) });
    const requested = Date.now();
    const data: ErasureData = {
      format: ERASURE_RECORD_FORMAT,
      stream: c.streamId,
      keyVersion: logKey.version,
      keyHashes: keys.map((k) => keyHash(logKey.key, k)).sort(),
      offsets: written.offsets,
      deadline: requested + this.deadlineMs,
      purgeStarted: null,
      purgedVersion: null,
      purgedManifest: null,
      rewritten: [],
      tags: [],
      trimmed: [],
      retire: [],
      deleted: [],
      orphansDeleted: 0,
      evictedBy: [],
      updated: requested,
      waiting: null,
    };
    let row: ErasureRow;
    try {
      row = await this.record({ id, org, ns: c.ns, collection: c.id, phase: 'requested', requested, completed: null, data: JSON.stringify(data) });
    } catch (e) {
      // The delete committed: the answer must not read as a refusal. Sending the erase again
      // deletes nothing more and records the request (see the file's comment).
      throw dataErrors.unavailable(
        `the documents were deleted (consistency token ${written.token}), but the erasure request could not be recorded (${(e as Error).message}); send the same erase again to record it, so that their bytes are purged`,
      );
    }
    // The log's object copy. The runner writes it before it advances the erasure (create-only
    // either way), so a store that fails here loses nothing: the erasure is recorded.
    await writeRecordOnce(this.d.store, requestRecordPath(org, id), requestRecord(row)).catch(() => undefined);
    return { row, token: written.token };
  }

  private async record(row: Omit<ErasureRow, 'version'>): Promise<ErasureRow> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.d.control.createErasure(row);
      } catch (e) {
        if (attempt >= RECORD_ATTEMPTS || !isMetaError(e) || (e.code !== 'Retryable' && e.code !== 'Unknown')) throw e;
        await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
      }
    }
  }
}
