// file:///abs/dir — a Store in a folder, for single-node deployments and development
// (DESIGN §4, spec §4.4). Several processes may share the folder: the conditions hold
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
//     file, created with O_EXCL, while it checks the current ETag and renames. A lock whose
//     process is gone (same host) or that is older than FILE_LOCK_STALE_MS is broken under
//     a second O_EXCL "breaker" lock, so two waiters never both break it.
//
// ETags are the MD5 of the bytes in double quotes, as S3 returns for single-part puts.
// They are computed when an object is read and cached per file identity (device, inode,
// size, mtime, ctime): committed files are never modified in place, so an identity names
// one content. A process that lists or heads an object it has not read yet hashes it once.
//
// The folder holds files, so one path cannot be both an object and a directory: with an
// object `a` stored, putting `a/b` is InvalidArgument (and the other way round).
import { createHash, randomBytes } from 'node:crypto';
import { constants as bufferConstants } from 'node:buffer';
import type { BigIntStats } from 'node:fs';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, isAbsolute, join, normalize } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreError, storeErrors } from './errors.js';
import {
  FILE_ETAG_CACHE_MAX,
  FILE_LOCK_BACKOFF_MAX_MS,
  FILE_LOCK_BACKOFF_MIN_MS,
  FILE_LOCK_BREAKER_STALE_MS,
  FILE_LOCK_MAX_HOLD_MS,
  FILE_LOCK_STALE_MS,
  FILE_LOCK_WAIT_DEADLINE_MS,
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
const HOST = hostname();

function errnoOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

/** Map a filesystem error the caller did not expect into a StoreError. */
function fsError(e: unknown, path: string | undefined, op: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = errnoOf(e);
  const where = path === undefined ? op : `${op} ${path}`;
  switch (code) {
    case 'ENOENT':
      return path === undefined ? storeErrors.internal(`${where}: ${String(e)}`, {}, e) : storeErrors.notFound(path, e);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return storeErrors.permissionDenied(path, `${where}: permission denied (${code})`, e);
    case 'EMFILE':
    case 'ENFILE':
    case 'EAGAIN':
    case 'EBUSY':
    case 'EINTR':
      return storeErrors.retryable('busy', `${where}: ${code}`, path === undefined ? {} : { path }, e);
    case 'ENAMETOOLONG':
      return storeErrors.invalid('path', `${where}: name too long for this filesystem`);
    default:
      return storeErrors.internal(`${where}: ${String(e)}`, path === undefined ? {} : { path, native: code }, e);
  }
}

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

async function unlinkQuiet(p: string): Promise<void> {
  try {
    await fsp.unlink(p);
  } catch {
    // Already gone, or not ours to remove: nothing to do.
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

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoOf(e) === 'EPERM';
  }
}

interface LockInfo {
  token: string;
  pid: number;
  host: string;
  at: number;
}

/** A held per-key lock (see the header comment). */
class KeyLock {
  constructor(
    private readonly file: string,
    private readonly token: string,
    private readonly acquiredAt: number,
    private readonly maxHoldMs: number,
  ) {}

  /** Refuse to commit when the lock may have been broken as stale, or is no longer ours. */
  async assertHeld(path: string): Promise<void> {
    const held = Date.now() - this.acquiredAt;
    if (held > this.maxHoldMs) {
      throw storeErrors.retryable('lock', `object ${path}: held the key lock ${held} ms, past ${this.maxHoldMs} ms`, { path });
    }
    let info: LockInfo | undefined;
    try {
      info = JSON.parse(await fsp.readFile(this.file, 'utf8')) as LockInfo;
    } catch {
      info = undefined;
    }
    if (info?.token !== this.token) {
      throw storeErrors.retryable('lock', `object ${path}: the key lock was broken by another process`, { path });
    }
  }

  async release(): Promise<void> {
    try {
      const info = JSON.parse(await fsp.readFile(this.file, 'utf8')) as LockInfo;
      if (info.token === this.token) await fsp.unlink(this.file);
    } catch {
      // Gone already (broken as stale): nothing of ours to remove.
    }
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
  private readonly lockWaitMs: number;
  private readonly lockStaleMs: number;
  private readonly maxHoldMs: number;
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
    this.lockWaitMs = opts.lockWaitMs ?? FILE_LOCK_WAIT_DEADLINE_MS;
    this.lockStaleMs = opts.lockStaleMs ?? FILE_LOCK_STALE_MS;
    // Keep the same margin below "stale" as the defaults do.
    this.maxHoldMs = Math.min(FILE_LOCK_MAX_HOLD_MS, Math.floor((this.lockStaleMs * 2) / 3));
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
    const hash = createHash('md5');
    const buf = Buffer.allocUnsafe(Math.min(READ_CHUNK_BYTES, Math.max(size, 1)));
    for (let pos = 0; pos < size; ) {
      const n = Math.min(buf.length, size - pos);
      await readFully(fh, buf, pos, n, path);
      hash.update(buf.subarray(0, n));
      pos += n;
    }
    const etag = `"${hash.digest('hex')}"`;
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
          etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
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
      return createHash('md5').update(buf).digest('hex');
    });
  }

  async putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    validatePath(path);
    const c = validateCondition(cond);
    await this.open();
    return this.commit(path, c, async (fh) => {
      const hash = createHash('md5');
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
      return hash.digest('hex');
    });
  }

  /**
   * Write the bytes to a temp file (fsynced), then move it into place under the condition.
   * `fill` writes the bytes and returns their MD5 hex.
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
      const etag = `"${await fill(fh)}"`;
      await fh.sync();
      const target = this.target(path);
      if (cond.ifNoneMatch === '*') {
        await this.linkCreateOnly(path, tmp, target);
        moved = true;
        await unlinkQuiet(tmp);
      } else {
        const lock = await this.lock(path);
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
    const lock = await this.lock(path);
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

  // ---- per-key locks ----

  private lockFile(path: string): string {
    return join(this.locksDir, `${createHash('sha256').update(path).digest('hex')}.lock`);
  }

  /** Take the key's lock, waiting up to lockWaitMs; Retryable(lock) past the deadline. */
  private async lock(path: string): Promise<KeyLock> {
    const file = this.lockFile(path);
    const token = randomBytes(16).toString('hex');
    const deadline = Date.now() + this.lockWaitMs;
    let backoff = FILE_LOCK_BACKOFF_MIN_MS;
    // Bounded by the deadline.
    for (;;) {
      const at = Date.now();
      try {
        const fh = await fsp.open(file, 'wx', 0o644);
        try {
          await fh.writeFile(JSON.stringify({ token, pid: process.pid, host: HOST, at } satisfies LockInfo));
        } finally {
          await fh.close();
        }
        return new KeyLock(file, token, at, this.maxHoldMs);
      } catch (e) {
        if (errnoOf(e) !== 'EEXIST') throw fsError(e, path, 'lock');
      }
      await this.breakIfStale(file);
      if (Date.now() >= deadline) {
        throw storeErrors.retryable('lock', `object ${path}: another writer held the key lock past ${this.lockWaitMs} ms`, {
          path,
        });
      }
      await sleep(Math.min(backoff, Math.max(1, deadline - Date.now())) * (0.5 + Math.random() / 2));
      backoff = Math.min(backoff * 2, FILE_LOCK_BACKOFF_MAX_MS);
    }
  }

  /** Whether the lock as observed is stale: its process is gone, or it is older than lockStaleMs. */
  private isStale(info: LockInfo | undefined, mtimeMs: number): boolean {
    if (Date.now() - mtimeMs > this.lockStaleMs) return true;
    return info !== undefined && info.host === HOST && info.pid !== process.pid && !pidAlive(info.pid);
  }

  /**
   * Break a stale lock. Only the holder of the breaker lock (O_EXCL) may, and only the lock
   * it observed (same inode, mtime and content), so two waiters never break a fresh lock.
   */
  private async breakIfStale(file: string): Promise<void> {
    const observed = await this.readLock(file);
    if (!observed || !this.isStale(observed.info, observed.mtimeMs)) return;
    const breaker = `${file}.break`;
    let bh: FileHandle;
    try {
      bh = await fsp.open(breaker, 'wx', 0o644);
      await bh.close();
    } catch (e) {
      if (errnoOf(e) !== 'EEXIST') return;
      // A breaker that died mid-break leaves its file: remove it when it is old.
      const st = await fsp.stat(breaker).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > FILE_LOCK_BREAKER_STALE_MS) await unlinkQuiet(breaker);
      return;
    }
    try {
      const now = await this.readLock(file);
      if (now && now.ino === observed.ino && now.mtimeMs === observed.mtimeMs && now.raw === observed.raw) {
        await unlinkQuiet(file);
      }
    } finally {
      await unlinkQuiet(breaker);
    }
  }

  private async readLock(file: string): Promise<{ info: LockInfo | undefined; raw: string; ino: number; mtimeMs: number } | undefined> {
    try {
      const st = await fsp.stat(file);
      const raw = await fsp.readFile(file, 'utf8');
      let info: LockInfo | undefined;
      try {
        info = JSON.parse(raw) as LockInfo;
      } catch {
        info = undefined; // being written, or its writer died between create and write
      }
      return { info, raw, ino: st.ino, mtimeMs: st.mtimeMs };
    } catch {
      return undefined;
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
