// file:///abs/dir — a Store in a folder, for single-node deployments and development
// (spec §4.4). Several processes may share the folder: the conditions hold
// across them.
//
// Layout under the root:
//   objects/<path>             one file per object, the object's bytes exactly
//   tmp/<random>.tmp           a put's bytes before they are committed
//   locks/<sha256(path)>.lock  the per-key lock of an overwriting put or a delete
//
// Durability: a put writes a temp file, fsyncs it, moves it into place (link or rename,
// both atomic) and fsyncs the directory, so an acknowledged put survives a crash of the
// process or the host, and a reader never sees a torn object.
//
// Conditions across processes:
//   - create-only (`ifNoneMatch: '*'`) is link(2) from the temp file: it fails with EEXIST
//     when the key exists, atomically, without a lock.
//   - every other write (unconditional put, `ifMatch` put, delete) holds the key's lock
//     (./file-locks.ts) while it checks the current ETag and renames.
//
// ETags are the object's size and the 64-bit xxh3 of its bytes, in double quotes
// (`"<size hex>-<xxh3 hex>"`): an ETag is opaque to callers (it is only compared, spec §4.4),
// and xxh3 costs about 1/30 of an MD5, which was most of a large put's CPU. They are computed when an object is read and cached per file identity (device, inode,
// size, mtime, ctime): committed files are never modified in place, so an identity names
// one content. A process that lists or heads an object it has not read yet hashes it once.
//
// The folder holds files, so one path cannot be both an object and a directory: with an
// object `a` stored, putting `a/b` is InvalidArgument (and the other way round).
import { randomBytes } from 'node:crypto';
import { xxh3 } from '@node-rs/xxhash';
import { constants as bufferConstants } from 'node:buffer';
import type { BigIntStats } from 'node:fs';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { StoreError, storeErrors } from './errors.js';
import { FileLocks } from './file-locks.js';
import { errnoOf, fsError, unlinkQuiet } from './fs-errors.js';
import {
  FILE_ETAG_CACHE_MAX,
  FILE_RENAME_ATTEMPTS,
  FILE_TMP_STALE_MS,
  FILE_TMP_SWEEP_MAX,
  MAX_PATH_BYTES,
} from './limits.js';
import type {
  ByteSource,
  GetOptions,
  GetResult,
  HeadResult,
  ListOptions,
  ListPage,
  ObjectInfo,
  ObjectVersion,
  PutCondition,
  PutResult,
  Store,
  StoreCapabilities,
} from './types.js';
import {
  comparePaths,
  resolveRange,
  toBuffer,
  validateCondition,
  validateListOptions,
  validatePath,
  validatePrefix,
  validateRange,
} from './validate.js';

export interface FileStoreOptions {
  /** An absolute directory; created when missing. */
  root: string;
  /** How long a write waits for another process's lock on the same key (FILE_LOCK_WAIT_DEADLINE_MS). */
  lockWaitMs?: number;
  /** When a lock counts as stale (FILE_LOCK_STALE_MS). */
  lockStaleMs?: number;
}

const OBJECTS_DIR = 'objects';
const TMP_DIR = 'tmp';
const LOCKS_DIR = 'locks';
/** Read and hash files in chunks of this size. */
const READ_CHUNK_BYTES = 1024 * 1024;

async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } catch (e) {
    // Some filesystems cannot fsync a directory; their renames are then as durable as they get.
    if (errnoOf(e) !== 'EINVAL') throw e;
  } finally {
    await fh.close();
  }
}

/** Read `length` bytes at `position` fully (a read may return fewer). */
async function readFully(fh: FileHandle, buf: Buffer, position: number, length: number, path: string): Promise<void> {
  let off = 0;
  // Bounded: each round reads ≥ 1 byte or stops.
  while (off < length) {
    const { bytesRead } = await fh.read(buf, off, length - off, position + off);
    if (bytesRead === 0) throw storeErrors.internal(`object ${path}: short read (${off} of ${length} bytes)`, { path });
    off += bytesRead;
  }
}

interface CachedEtag {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  etag: string;
}

export class FileStore implements Store {
  readonly root: string;
  private readonly objectsDir: string;
  private readonly tmpDir: string;
  private readonly locksDir: string;
  private readonly locks: FileLocks;
  private readonly ready: Promise<void>;
  private readonly etags = new Map<string, CachedEtag>();
  private closed = false;

  constructor(opts: FileStoreOptions) {
    if (typeof opts.root !== 'string' || !isAbsolute(opts.root)) {
      throw storeErrors.invalid('root', `the file store needs an absolute directory; got ${JSON.stringify(opts.root)}`);
    }
    this.root = normalize(opts.root);
    this.objectsDir = join(this.root, OBJECTS_DIR);
    this.tmpDir = join(this.root, TMP_DIR);
    this.locksDir = join(this.root, LOCKS_DIR);
    this.locks = new FileLocks({
      dir: this.locksDir,
      ...(opts.lockWaitMs !== undefined ? { waitMs: opts.lockWaitMs } : {}),
      ...(opts.lockStaleMs !== undefined ? { staleMs: opts.lockStaleMs } : {}),
    });
    this.ready = this.init();
    this.ready.catch(() => undefined); // surfaced by the first call instead
  }

  private async init(): Promise<void> {
    try {
      const st = await fsp.stat(this.root).catch((e: unknown) => (errnoOf(e) === 'ENOENT' ? undefined : Promise.reject(e)));
      if (st && !st.isDirectory()) throw storeErrors.invalid('root', `${this.root} is not a directory`);
      for (const d of [this.objectsDir, this.tmpDir, this.locksDir]) await fsp.mkdir(d, { recursive: true });
      await fsyncDir(this.root);
      await this.sweepTemp();
    } catch (e) {
      throw fsError(e, undefined, `open file store at ${this.root}`);
    }
  }

  /** Remove temp files that crashed writers left behind (bounded by FILE_TMP_SWEEP_MAX). */
  private async sweepTemp(): Promise<void> {
    const names = (await fsp.readdir(this.tmpDir)).slice(0, FILE_TMP_SWEEP_MAX);
    const cutoff = Date.now() - FILE_TMP_STALE_MS;
    for (const n of names) {
      const p = join(this.tmpDir, n);
      const st = await fsp.stat(p).catch(() => undefined);
      if (st && st.isFile() && st.mtimeMs < cutoff) await unlinkQuiet(p);
    }
  }

  private async open(): Promise<void> {
    if (this.closed) throw storeErrors.invalid('store', `the file store at ${this.root} is closed`);
    await this.ready;
  }

  async versioning(): Promise<boolean> {
    return false;
  }

  capabilities(): StoreCapabilities {
    return {
      provider: 'file',
      versioning: false,
      conditionalPut: true,
      crossProcess: true,
      multipart: false,
      durable: true,
      maxPathBytes: MAX_PATH_BYTES,
    };
  }

  private target(path: string): string {
    // validatePath rules out "..", ".", empty segments and backslashes: this stays inside.
    return join(this.objectsDir, ...path.split('/'));
  }

  private conflict(path: string): StoreError {
    return storeErrors.invalid(
      'path',
      `${path} conflicts with another object in the file store: one path cannot be both an object and a prefix of objects ("a" and "a/b")`,
    );
  }

  // ---- reads ----

  /** Open an object for reading: its handle and stats, or NotFound. */
  private async openObject(path: string): Promise<{ fh: FileHandle; st: BigIntStats }> {
    let fh: FileHandle;
    try {
      fh = await fsp.open(this.target(path), 'r');
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') throw storeErrors.notFound(path, e);
      throw fsError(e, path, 'open');
    }
    try {
      const st = await fh.stat({ bigint: true });
      if (!st.isFile()) throw storeErrors.notFound(path);
      return { fh, st };
    } catch (e) {
      await fh.close();
      throw fsError(e, path, 'stat');
    }
  }

  private cacheKey(st: BigIntStats): string {
    return `${st.dev}:${st.ino}`;
  }

  private cachedEtag(st: BigIntStats): string | undefined {
    const c = this.etags.get(this.cacheKey(st));
    return c && c.size === st.size && c.mtimeNs === st.mtimeNs && c.ctimeNs === st.ctimeNs ? c.etag : undefined;
  }

  private remember(st: BigIntStats, etag: string): void {
    const key = this.cacheKey(st);
    this.etags.delete(key);
    this.etags.set(key, { size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, etag });
    // Bounded: drop the oldest entries (Map keeps insertion order).
    for (const k of this.etags.keys()) {
      if (this.etags.size <= FILE_ETAG_CACHE_MAX) break;
      this.etags.delete(k);
    }
  }

  /** The ETag of an open object: from the cache, or by hashing the file. */
  private async etagOf(fh: FileHandle, st: BigIntStats, path: string): Promise<string> {
    const cached = this.cachedEtag(st);
    if (cached !== undefined) return cached;
    const size = Number(st.size);
    const hash = new ContentHash();
    const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(size, 1)));
    for (let pos = 0; pos < size; ) {
      const n = Math.min(buf.length, size - pos);
      await readFully(fh, buf, pos, n, path);
      hash.update(buf.subarray(0, n));
      pos += n;
    }
    const etag = hash.etag();
    this.remember(st, etag);
    return etag;
  }

  async get(path: string, opts: GetOptions = {}): Promise<GetResult> {
    validatePath(path);
    if (opts.range !== undefined) validateRange(path, opts.range);
    await this.open();
    const { fh, st } = await this.openObject(path);
    try {
      const size = Number(st.size);
      if (opts.range === undefined) {
        if (size > bufferConstants.MAX_LENGTH) {
          throw storeErrors.invalid('range', `object ${path} is ${size} bytes, more than one Buffer holds; read it in ranges`);
        }
        const bytes = Buffer.allocUnsafe(size);
        await readFully(fh, bytes, 0, size, path);
        let etag = this.cachedEtag(st);
        if (etag === undefined) {
          etag = new ContentHash().update(bytes).etag();
          this.remember(st, etag);
        }
        return { bytes, etag, size };
      }
      const r = resolveRange(path, opts.range, size);
      const etag = await this.etagOf(fh, st, path);
      const bytes = Buffer.allocUnsafe(r.end - r.start);
      await readFully(fh, bytes, r.start, bytes.length, path);
      return { bytes, etag, size, range: r };
    } catch (e) {
      throw fsError(e, path, 'read');
    } finally {
      await fh.close();
    }
  }

  async head(path: string): Promise<HeadResult> {
    validatePath(path);
    await this.open();
    const { fh, st } = await this.openObject(path);
    try {
      return { etag: await this.etagOf(fh, st, path), size: Number(st.size) };
    } catch (e) {
      throw fsError(e, path, 'read');
    } finally {
      await fh.close();
    }
  }

  /** The current ETag of a path, or null when there is no object. */
  private async currentEtag(path: string): Promise<string | null> {
    try {
      return (await this.head(path)).etag;
    } catch (e) {
      if (e instanceof StoreError && e.code === 'NotFound') return null;
      throw e;
    }
  }

  // ---- writes ----

  async put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    validatePath(path);
    const c = validateCondition(cond);
    const buf = toBuffer(bytes);
    await this.open();
    return this.commit(path, c, async (fh) => {
      let off = 0;
      // Bounded: each round writes ≥ 1 byte (a 0-byte write would be an fs bug; stop then).
      while (off < buf.length) {
        const { bytesWritten } = await fh.write(buf, off, buf.length - off, off);
        if (bytesWritten === 0) throw storeErrors.internal(`object ${path}: write made no progress`, { path });
        off += bytesWritten;
      }
      return new ContentHash().update(buf).etag();
    });
  }

  async putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    validatePath(path);
    const c = validateCondition(cond);
    await this.open();
    return this.commit(path, c, async (fh) => {
      const hash = new ContentHash();
      let pos = 0;
      for await (const chunk of source) {
        if (!(chunk instanceof Uint8Array)) throw storeErrors.invalid('source', 'must yield Uint8Array chunks');
        let off = 0;
        while (off < chunk.byteLength) {
          const { bytesWritten } = await fh.write(chunk, off, chunk.byteLength - off, pos + off);
          if (bytesWritten === 0) throw storeErrors.internal(`object ${path}: write made no progress`, { path });
          off += bytesWritten;
        }
        hash.update(chunk);
        pos += chunk.byteLength;
      }
      return hash.etag();
    });
  }

  /**
   * Write the bytes to a temp file (fsynced), then move it into place under the condition.
   * `fill` writes the bytes and returns their ETag.
   */
  private async commit(path: string, cond: PutCondition, fill: (fh: FileHandle) => Promise<string>): Promise<PutResult> {
    const tmp = join(this.tmpDir, `${randomBytes(16).toString('hex')}.tmp`);
    let fh: FileHandle;
    try {
      fh = await fsp.open(tmp, 'wx', 0o644);
    } catch (e) {
      throw fsError(e, path, 'create temp file for');
    }
    let moved = false;
    try {
      const etag = await fill(fh);
      await fh.sync();
      const target = this.target(path);
      if (cond.ifNoneMatch === '*') {
        await this.linkCreateOnly(path, tmp, target);
        moved = true;
        await unlinkQuiet(tmp);
      } else {
        const lock = await this.locks.acquire(path);
        try {
          if (cond.ifMatch !== undefined) {
            const current = await this.currentEtag(path);
            if (current !== cond.ifMatch) throw storeErrors.preconditionFailed(path, cond.ifMatch, current);
          }
          await lock.assertHeld(path);
          await this.renameInto(path, tmp, target);
          moved = true;
        } finally {
          await lock.release();
        }
      }
      // link/rename/unlink change the inode's ctime: read its identity now, then cache it.
      this.remember(await fh.stat({ bigint: true }), etag);
      return { etag };
    } catch (e) {
      throw fsError(e, path, 'put');
    } finally {
      await fh.close().catch(() => undefined);
      if (!moved) await unlinkQuiet(tmp);
    }
  }

  /** Create the parent directories of `target`, fsyncing the parent of each one created. */
  private async ensureParent(path: string, target: string): Promise<void> {
    const parent = dirname(target);
    let first: string | undefined;
    try {
      first = await fsp.mkdir(parent, { recursive: true });
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOTDIR' || code === 'EEXIST') throw this.conflict(path);
      throw e;
    }
    if (first === undefined) return;
    // Every directory from `first` down to `parent` is new: fsync each one's parent.
    const chain: string[] = [];
    for (let d = parent; d.length >= first.length; d = dirname(d)) {
      chain.push(dirname(d));
      if (d === first) break;
    }
    for (const d of chain.reverse()) await fsyncDir(d);
  }

  /** A leftover empty directory where an object should go is removed; a non-empty one is a conflict. */
  private async clearEmptyDir(path: string, target: string): Promise<void> {
    const st = await fsp.lstat(target).catch(() => undefined);
    if (!st?.isDirectory()) return;
    try {
      await fsp.rmdir(target);
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOTEMPTY' || code === 'EEXIST') throw this.conflict(path);
      if (code !== 'ENOENT') throw e;
    }
  }

  private async linkCreateOnly(path: string, tmp: string, target: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.ensureParent(path, target);
      try {
        await fsp.link(tmp, target);
        break;
      } catch (e) {
        const code = errnoOf(e);
        if (code === 'ENOTDIR') throw this.conflict(path);
        if (attempt >= FILE_RENAME_ATTEMPTS) throw e;
        if (code === 'EEXIST') {
          const st = await fsp.lstat(target).catch(() => undefined);
          if (!st?.isDirectory()) throw storeErrors.alreadyExists(path);
          await this.clearEmptyDir(path, target);
          continue;
        }
        if (code === 'ENOENT') continue; // a parent directory was removed under us: make it again
        throw e;
      }
    }
    await fsyncDir(dirname(target));
  }

  private async renameInto(path: string, tmp: string, target: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.ensureParent(path, target);
      try {
        await fsp.rename(tmp, target);
        break;
      } catch (e) {
        const code = errnoOf(e);
        if (code === 'ENOTDIR') throw this.conflict(path);
        if (attempt >= FILE_RENAME_ATTEMPTS) throw e;
        if (code === 'EISDIR' || code === 'ENOTEMPTY' || code === 'EEXIST') {
          await this.clearEmptyDir(path, target);
          continue;
        }
        if (code === 'ENOENT') continue;
        throw e;
      }
    }
    await fsyncDir(dirname(target));
  }

  async delete(path: string): Promise<void> {
    validatePath(path);
    await this.open();
    const target = this.target(path);
    const lock = await this.locks.acquire(path);
    try {
      await lock.assertHeld(path);
      try {
        await fsp.unlink(target);
      } catch (e) {
        const code = errnoOf(e);
        // Missing (or a directory of other objects, which is no object): nothing to delete.
        if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR' || code === 'EPERM') {
          const st = await fsp.lstat(target).catch(() => undefined);
          if (!st || st.isDirectory()) return;
        }
        throw e;
      }
      await fsyncDir(dirname(target));
    } catch (e) {
      throw fsError(e, path, 'delete');
    } finally {
      await lock.release();
    }
  }

  // ---- listing ----

  async list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>> {
    validatePrefix(prefix);
    const { after, limit } = validateListOptions(opts);
    await this.open();
    const items: ObjectInfo[] = [];
    // Start at the deepest directory the prefix names completely.
    const slash = prefix.lastIndexOf('/');
    const base = slash >= 0 ? prefix.slice(0, slash) : '';
    try {
      await this.walk(base, prefix, after, limit + 1, items);
    } catch (e) {
      throw fsError(e, undefined, `list ${prefix}`);
    }
    if (items.length > limit) {
      items.length = limit;
      return { items, next: items[limit - 1]!.path };
    }
    return { items };
  }

  /**
   * Depth-first over sorted directory entries, which yields paths in byte order when a
   * directory sorts as its name plus "/". Skips subtrees that are wholly at or before
   * `after` or outside `prefix`. Returns true once `want` items are collected.
   */
  private async walk(rel: string, prefix: string, after: string | undefined, want: number, items: ObjectInfo[]): Promise<boolean> {
    let entries;
    try {
      entries = await fsp.readdir(rel === '' ? this.objectsDir : join(this.objectsDir, ...rel.split('/')), { withFileTypes: true });
    } catch (e) {
      const code = errnoOf(e);
      if (code === 'ENOENT' || code === 'ENOTDIR') return false;
      throw e;
    }
    const keyed = entries
      .filter((d) => d.isFile() || d.isDirectory())
      .map((d) => {
        const path = rel === '' ? d.name : `${rel}/${d.name}`;
        return { path, dir: d.isDirectory(), key: d.isDirectory() ? `${path}/` : path };
      })
      .sort((a, b) => comparePaths(a.key, b.key));
    for (const e of keyed) {
      if (e.dir) {
        if (!(e.key.startsWith(prefix) || prefix.startsWith(e.key))) continue;
        if (after !== undefined && comparePaths(after, e.key) > 0 && !after.startsWith(e.key)) continue;
        if (await this.walk(e.path, prefix, after, want, items)) return true;
        continue;
      }
      if (!e.path.startsWith(prefix)) continue;
      if (after !== undefined && comparePaths(e.path, after) <= 0) continue;
      let info: ObjectInfo;
      try {
        const h = await this.head(e.path);
        info = { path: e.path, size: h.size, etag: h.etag };
      } catch (err) {
        if (err instanceof StoreError && err.code === 'NotFound') continue; // deleted while listing
        if (err instanceof StoreError && err.code === 'InvalidArgument') continue; // not a valid object path
        throw err;
      }
      items.push(info);
      if (items.length >= want) return true;
    }
    return false;
  }

  async listVersions(_prefix: string, _opts: { after?: string; limit: number }): Promise<ListPage<ObjectVersion>> {
    throw storeErrors.unsupported('file', 'listVersions (object versioning)');
  }

  async deleteVersion(_path: string, _versionId: string): Promise<void> {
    throw storeErrors.unsupported('file', 'deleteVersion (object versioning)');
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.ready.catch(() => undefined);
  }
}

/** A file object's ETag, fed in pieces: its size and xxh3-64 (see the header). */
class ContentHash {
  private readonly h = xxh3.Xxh3.withSeed();
  private size = 0;

  update(bytes: Uint8Array): this {
    this.h.update(bytes);
    this.size += bytes.byteLength;
    return this;
  }

  etag(): string {
    return `"${this.size.toString(16)}-${this.h.digest().toString(16).padStart(16, '0')}"`;
  }
}
