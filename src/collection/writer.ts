// The write path of collections: validate the whole batch (nothing of a bad batch is
// written), check the collection's unapplied backlog against its quota (spec §6: at write
// admission; the only place it is checked, since only here is the batch's size known),
// encode records per partition and hand them to the LogWriter as one append (one WAL
// object, acknowledged only after commitWal, spec §3.1).
import type { MetaStore } from '../meta/contract.js';
import { encodeToken } from '../meta/token.js';
import { ownField } from '../meta/fields.js';
import type { Collection } from '../meta/types.js';
import { dataErrors } from '../log/errors.js';
import { encodeRecord, OP_DELETE, OP_UPSERT } from '../log/format.js';
import { canonicalKey, partitionOf } from '../log/keys.js';
import type { LogWriter, PartitionAppend } from '../log/writer.js';
import { emptyManifest, type Manifests } from './manifest.js';
import { checkJson, MAX_DOC_DEPTH } from './document.js';
import { unappliedBacklog } from './backlog.js';
import { upsertSpans } from './batch-text.js';

/** Documents (upserts + deletes) in one write request. */
export const MAX_BATCH_DOCS = 10_000;
/** One document's JSON text. */
export const MAX_DOC_BYTES = 1024 * 1024;
/** One request's records (keys and documents): also the HTTP body limit. */
export const MAX_BATCH_BYTES = 32 * 1024 * 1024;
/** Unapplied backlog per collection (spec §6's defaults): records and log bytes. */
export const DEFAULT_MAX_BACKLOG_RECORDS = 1_000_000;
export const DEFAULT_MAX_BACKLOG_BYTES = 128 * 1024 * 1024;
/** How long a backlog reading is trusted before the heads are read again. */
export const BACKLOG_REFRESH_MS = 250;
/** Retry-After for a write refused for the backlog (the workers apply in well under it). */
export const BACKLOG_RETRY_MS = 1_000;
/** Collections whose backlog this node tracks. */
export const MAX_BACKLOG_ENTRIES = 10_000;

export interface WriteBatch {
  upserts?: unknown;
  deletes?: unknown;
}

/** A collection's unapplied_records and unapplied_bytes quotas. */
export interface BacklogLimits {
  records: number;
  bytes: number;
}

/** The limits of one collection: fixed (no tenancy: the node's settings), or its namespace's quotas. */
export type BacklogLimitsOf = BacklogLimits | ((c: Collection) => Promise<BacklogLimits>);

interface BacklogEntry {
  at: number;
  records: number;
  bytes: number;
  /** Appended by this node since the reading. */
  addedRecords: number;
  addedBytes: number;
  refreshing?: Promise<void>;
}

export class CollectionWriter {
  private readonly backlog = new Map<string, BacklogEntry>();
  constructor(
    private readonly meta: MetaStore,
    private readonly log: LogWriter,
    private readonly manifests: Manifests,
    private readonly limits: BacklogLimitsOf = { records: DEFAULT_MAX_BACKLOG_RECORDS, bytes: DEFAULT_MAX_BACKLOG_BYTES },
  ) {}

  /**
   * Validates and encodes a batch: InvalidArgument / TooLarge naming the item to fix. `text`
   * is the JSON text the batch was parsed from, when there is one (the HTTP body): each
   * document is then stored as the text it was sent as (./batch-text.ts) instead of being
   * stringified again.
   */
  encode(c: Collection, batch: WriteBatch, text?: Buffer): { parts: PartitionAppend[]; records: number; bytes: number } {
    const upserts = batch.upserts ?? [];
    const deletes = batch.deletes ?? [];
    if (!Array.isArray(upserts)) throw dataErrors.invalid('upserts', 'must be an array of documents');
    if (!Array.isArray(deletes)) throw dataErrors.invalid('deletes', 'must be an array of primary key values');
    const n = upserts.length + deletes.length;
    if (n === 0) throw dataErrors.invalid('upserts', 'the batch is empty: give at least one upsert or delete');
    if (n > MAX_BATCH_DOCS) throw dataErrors.tooLarge('upserts', `a batch holds at most ${MAX_BATCH_DOCS} upserts and deletes; got ${n}`);
    const pk = c.schema.primaryKey;
    const pkType = ownField(c.schema.fields, pk);
    // A key declared `number` must be a JSON number; a `string` key also takes numbers (by
    // their string form: 7 and "7" name one document).
    const keyTypeOk = (v: unknown) => pkType !== 'number' || typeof v === 'number';
    const typed = Object.entries(c.schema.fields).filter(([f, t]) => f !== pk && t !== 'json');
    const spans = text ? documentSpans(text, upserts.length) : null;
    const byPartition = new Map<number, Buffer[]>();
    let bytes = 0;
    const add = (key: string, rec: Buffer) => {
      const p = partitionOf(key, c.partitions);
      let list = byPartition.get(p);
      if (!list) byPartition.set(p, (list = []));
      list.push(rec);
      bytes += rec.length;
      if (bytes > MAX_BATCH_BYTES) throw dataErrors.tooLarge('upserts', `the batch is over ${MAX_BATCH_BYTES} bytes; split it`);
    };
    upserts.forEach((doc: unknown, i: number) => {
      const at = `upserts[${i}]`;
      if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw dataErrors.invalid(at, 'must be a JSON object');
      const bad = checkJson(doc, MAX_DOC_DEPTH);
      if (bad) throw dataErrors.invalid(`${at}${bad.path}`, bad.why);
      const kv = ownField(doc as Record<string, unknown>, pk);
      const k = canonicalKey(kv, pkType);
      if (!k.ok) throw dataErrors.invalid(`${at}.${pk}`, `the primary key ${k.why}`);
      if (!keyTypeOk(kv)) throw dataErrors.invalid(`${at}.${pk}`, `the primary key must be a ${pkType} (the collection's schema), got ${typeof kv}`);
      for (const [f, t] of typed) {
        const v = ownField(doc as Record<string, unknown>, f);
        if (v !== undefined && v !== null && typeof v !== t) throw dataErrors.invalid(`${at}.${f}`, `must be a ${t} (the collection's schema), got ${Array.isArray(v) ? 'array' : typeof v}`);
      }
      const body = spans ? text!.subarray(spans[2 * i]!, spans[2 * i + 1]!) : JSON.stringify(doc);
      const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      if (size > MAX_DOC_BYTES) throw dataErrors.tooLarge(at, `the document is ${size} bytes, over the ${MAX_DOC_BYTES}-byte limit`);
      add(k.key, encodeRecord({ op: OP_UPSERT, key: k.key, body }));
    });
    deletes.forEach((key: unknown, i: number) => {
      const k = canonicalKey(key, pkType);
      if (!k.ok) throw dataErrors.invalid(`deletes[${i}]`, `a primary key value ${k.why}`);
      if (!keyTypeOk(key)) throw dataErrors.invalid(`deletes[${i}]`, `a primary key value must be a ${pkType} (the collection's schema), got ${typeof key}`);
      add(k.key, encodeRecord({ op: OP_DELETE, key: k.key, body: '' }));
    });
    const parts = [...byPartition.entries()].map(([partition, records]) => ({ ns: c.ns, stream: c.streamId, partition, records }));
    return { parts, records: n, bytes };
  }

  /** The collection's unapplied backlog: records past the manifest's applied offsets, and an estimate of their bytes. */
  async backlogOf(c: Collection): Promise<{ records: number; bytes: number }> {
    const k = `${c.ns}/${c.id}`;
    let e = this.backlog.get(k);
    if (!e || Date.now() - e.at > BACKLOG_REFRESH_MS) {
      if (!e) {
        if (this.backlog.size >= MAX_BACKLOG_ENTRIES) this.backlog.clear();
        e = { at: 0, records: 0, bytes: 0, addedRecords: 0, addedBytes: 0 };
        this.backlog.set(k, e);
      }
      const entry = e;
      entry.refreshing ??= (async () => {
        try {
          const h = await this.meta.collectionHead(c.ns, c.id);
          const m = h.pointer ? await this.manifests.load(h.pointer.value) : emptyManifest(c.ns, c.id, c.partitions);
          const { records, bytes } = unappliedBacklog(h.heads, m.applied);
          Object.assign(entry, { at: Date.now(), records, bytes, addedRecords: 0, addedBytes: 0 });
        } finally {
          entry.refreshing = undefined;
        }
      })();
      if (entry.at === 0) await entry.refreshing;
      else void entry.refreshing.catch(() => undefined);
    }
    return { records: e.records + e.addedRecords, bytes: e.bytes + e.addedBytes };
  }

  /**
   * Writes a batch; resolves with its encoded consistency token once committed, and the
   * offsets it covers per partition of the collection. `text`: as for encode.
   */
  async write(c: Collection, batch: WriteBatch, text?: Buffer): Promise<{ token: string; records: number; offsets: { partition: number; offset: number }[] }> {
    const enc = this.encode(c, batch, text);
    const [b, max] = await Promise.all([this.backlogOf(c), typeof this.limits === 'function' ? this.limits(c) : this.limits]);
    const over = (quota: string, have: number, adds: number, limit: number, unit: string) =>
      // A batch over the quota by itself never fits, however long it waits: 413, not a 429 to retry.
      adds > limit
        ? dataErrors.tooLarge('body', `this write adds ${adds} ${unit}, more than collection "${c.name}"'s ${quota} quota (${limit}) allows unapplied at once: split the batch`)
        : dataErrors.quotaExceeded(quota, `collection "${c.name}" has ${have} unapplied ${unit} and this write adds ${adds}, over its ${quota} quota (${limit}); retry once the workers catch up`, BACKLOG_RETRY_MS);
    if (b.records + enc.records > max.records) throw over('unapplied_records', b.records, enc.records, max.records, 'records');
    if (b.bytes + enc.bytes > max.bytes) throw over('unapplied_bytes', b.bytes, enc.bytes, max.bytes, 'bytes');
    const e = this.backlog.get(`${c.ns}/${c.id}`);
    if (e) {
      e.addedRecords += enc.records;
      e.addedBytes += enc.bytes;
    }
    const r = await this.log.append(enc.parts);
    const offsets = r.token.entries.filter((e) => e.ns === c.ns && e.stream === c.streamId).map((e) => ({ partition: e.partition, offset: e.offset }));
    return { token: encodeToken(r.token), records: enc.records, offsets };
  }
}

/**
 * Each upsert's byte range in `text`, or null (then every document is stringified): when the
 * text holds no "upserts" array of exactly `n` elements, the text is not what the batch was
 * parsed from, and its bytes are not used.
 */
function documentSpans(text: Buffer, n: number): number[] | null {
  if (n === 0) return null;
  try {
    const spans = upsertSpans(text);
    if (!spans || spans.length !== 2 * n) return null;
    // Every upsert is an object (checked before any span is used): each span is one.
    for (let i = 0; i < spans.length; i += 2) if (text[spans[i]!] !== 0x7b || text[spans[i + 1]! - 1] !== 0x7d) return null;
    return spans;
  } catch {
    return null;
  }
}
