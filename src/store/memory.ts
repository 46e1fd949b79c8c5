// memory:// — an in-process Store for tests and single-process development (DESIGN §4).
// Each call applies atomically (JavaScript runs it to completion), so conditional puts are
// exact. With `versioning: true` it keeps every version and delete marker like a versioned
// S3 bucket, so the erasure path (spec §9.9) can be tested without a server.
import { randomBytes } from 'node:crypto';
import { storeErrors } from './errors.js';
import { MAX_PATH_BYTES, MEMORY_MAX_OBJECT_BYTES } from './limits.js';
import type {
  ByteSource,
  GetOptions,
  GetResult,
  HeadResult,
  ListOptions,
  ListPage,
  ListVersionsOptions,
  ObjectInfo,
  ObjectVersion,
  PutCondition,
  PutResult,
  Store,
  StoreCapabilities,
} from './types.js';
import {
  collectSource,
  comparePaths,
  md5Etag,
  resolveRange,
  toBuffer,
  validateCondition,
  validateListOptions,
  validatePath,
  validatePrefix,
  validateRange,
} from './validate.js';

export interface MemoryStoreOptions {
  /** Keep versions and delete markers like a versioned bucket (spec §9.9). */
  versioning?: boolean;
}

interface Version {
  versionId: string;
  /** Ascending per store; orders versions newest first in listings. */
  seq: number;
  /** null for a delete marker. */
  bytes: Buffer | null;
  etag: string;
}

export class MemoryStore implements Store {
  private readonly versioned: boolean;
  /** path → versions, oldest first. Without versioning there is at most one, never a marker. */
  private readonly objects = new Map<string, Version[]>();
  private seq = 0;
  private closed = false;

  constructor(opts: MemoryStoreOptions = {}) {
    this.versioned = opts.versioning === true;
  }

  async versioning(): Promise<boolean> {
    return this.versioned;
  }

  capabilities(): StoreCapabilities {
    return {
      provider: 'memory',
      versioning: this.versioned,
      conditionalPut: true,
      crossProcess: false,
      multipart: false,
      durable: false,
      maxPathBytes: MAX_PATH_BYTES,
    };
  }

  private check(): void {
    if (this.closed) throw storeErrors.invalid('store', 'the memory store is closed');
  }

  private current(path: string): Version | undefined {
    const vs = this.objects.get(path);
    const v = vs?.[vs.length - 1];
    return v && v.bytes !== null ? v : undefined;
  }

  async get(path: string, opts: GetOptions = {}): Promise<GetResult> {
    this.check();
    validatePath(path);
    if (opts.range !== undefined) validateRange(path, opts.range);
    const v = this.current(path);
    if (!v || v.bytes === null) throw storeErrors.notFound(path);
    const size = v.bytes.length;
    if (opts.range === undefined) return { bytes: Buffer.from(v.bytes), etag: v.etag, size };
    const r = resolveRange(path, opts.range, size);
    return { bytes: Buffer.from(v.bytes.subarray(r.start, r.end)), etag: v.etag, size, range: r };
  }

  async head(path: string): Promise<HeadResult> {
    this.check();
    validatePath(path);
    const v = this.current(path);
    if (!v || v.bytes === null) throw storeErrors.notFound(path);
    return { etag: v.etag, size: v.bytes.length };
  }

  async put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    this.check();
    validatePath(path);
    const c = validateCondition(cond);
    const buf = toBuffer(bytes);
    if (buf.length > MEMORY_MAX_OBJECT_BYTES) {
      throw storeErrors.invalid('bytes', `the memory store holds objects up to ${MEMORY_MAX_OBJECT_BYTES} bytes`);
    }
    return this.apply(path, Buffer.from(buf), c);
  }

  async putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    this.check();
    validatePath(path);
    const c = validateCondition(cond);
    const buf = await collectSource(source, MEMORY_MAX_OBJECT_BYTES, 'the memory store');
    return this.apply(path, buf, c);
  }

  /** Check the condition and write, in one synchronous step (so atomic in-process). */
  private apply(path: string, bytes: Buffer, cond: PutCondition): PutResult {
    const cur = this.current(path);
    if (cond.ifNoneMatch === '*' && cur) throw storeErrors.alreadyExists(path);
    if (cond.ifMatch !== undefined) {
      if (!cur) throw storeErrors.preconditionFailed(path, cond.ifMatch, null);
      if (cur.etag !== cond.ifMatch) throw storeErrors.preconditionFailed(path, cond.ifMatch, cur.etag);
    }
    const v: Version = { versionId: this.newVersionId(), seq: ++this.seq, bytes, etag: md5Etag(bytes) };
    if (this.versioned) {
      const vs = this.objects.get(path);
      if (vs) vs.push(v);
      else this.objects.set(path, [v]);
    } else {
      this.objects.set(path, [v]);
    }
    return { etag: v.etag };
  }

  private newVersionId(): string {
    return this.versioned ? randomBytes(12).toString('base64url') : 'null';
  }

  async delete(path: string): Promise<void> {
    this.check();
    validatePath(path);
    if (!this.versioned) {
      this.objects.delete(path);
      return;
    }
    // As S3 does on a versioned bucket: a delete without a version adds a delete marker,
    // even when the key has no current version.
    const marker: Version = { versionId: this.newVersionId(), seq: ++this.seq, bytes: null, etag: '' };
    const vs = this.objects.get(path);
    if (vs) vs.push(marker);
    else this.objects.set(path, [marker]);
  }

  async list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>> {
    this.check();
    validatePrefix(prefix);
    const { after, limit } = validateListOptions(opts);
    const paths = this.sortedPaths(prefix, after);
    const items: ObjectInfo[] = [];
    let more = false;
    for (const p of paths) {
      const v = this.current(p);
      if (!v || v.bytes === null) continue;
      if (items.length === limit) {
        more = true;
        break;
      }
      items.push({ path: p, size: v.bytes.length, etag: v.etag });
    }
    const last = items[items.length - 1];
    return more && last ? { items, next: last.path } : { items };
  }

  private sortedPaths(prefix: string, after: string | undefined): string[] {
    const out: string[] = [];
    for (const p of this.objects.keys()) {
      if (p.startsWith(prefix) && (after === undefined || comparePaths(p, after) > 0)) out.push(p);
    }
    return out.sort(comparePaths);
  }

  async listVersions(prefix: string, opts: ListVersionsOptions): Promise<ListPage<ObjectVersion>> {
    this.check();
    if (!this.versioned) throw storeErrors.unsupported('memory (without versioning)', 'listVersions');
    validatePrefix(prefix);
    const { after, limit } = validateListOptions(opts);
    // Cursor: the last (path, seq) returned; versions of one path are listed newest first.
    let cursor: { path: string; seq: number } | undefined;
    if (after !== undefined) {
      try {
        const [p, s] = JSON.parse(after) as [unknown, unknown];
        if (typeof p !== 'string' || typeof s !== 'number') throw new Error('shape');
        cursor = { path: p, seq: s };
      } catch {
        throw storeErrors.invalid('after', 'is not a cursor from a previous listVersions page');
      }
    }
    const items: ObjectVersion[] = [];
    let lastSeq = 0;
    let more = false;
    const fromPath = cursor ? this.sortedPaths(prefix, undefined).filter((p) => comparePaths(p, cursor!.path) >= 0) : this.sortedPaths(prefix, undefined);
    outer: for (const p of fromPath) {
      const vs = this.objects.get(p) ?? [];
      for (let i = vs.length - 1; i >= 0; i--) {
        const v = vs[i]!;
        if (cursor && p === cursor.path && v.seq >= cursor.seq) continue;
        if (items.length === limit) {
          more = true;
          break outer;
        }
        items.push({
          path: p,
          versionId: v.versionId,
          isLatest: i === vs.length - 1,
          deleteMarker: v.bytes === null,
          size: v.bytes?.length ?? 0,
          ...(v.bytes !== null ? { etag: v.etag } : {}),
        });
        lastSeq = v.seq;
      }
    }
    const last = items[items.length - 1];
    return more && last ? { items, next: JSON.stringify([last.path, lastSeq]) } : { items };
  }

  async deleteVersion(path: string, versionId: string): Promise<void> {
    this.check();
    if (!this.versioned) throw storeErrors.unsupported('memory (without versioning)', 'deleteVersion');
    validatePath(path);
    if (typeof versionId !== 'string' || versionId === '') throw storeErrors.invalid('versionId', 'must be a non-empty string');
    const vs = this.objects.get(path);
    if (!vs) return;
    const i = vs.findIndex((v) => v.versionId === versionId);
    if (i < 0) return;
    vs.splice(i, 1);
    if (vs.length === 0) this.objects.delete(path);
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
