// Per-key locks across processes for the file store (spec §4.4: conditions hold across
// every process sharing the folder).
//
// A key's lock is the file <dir>/<sha256(path)>.lock, created with O_EXCL and holding its
// owner's token, pid, host and time. A lock whose process is gone (same host) or that is
// older than the stale limit is broken under a second O_EXCL "breaker" lock, and only as
// observed (same inode, mtime and content), so two waiters never both break it and nobody
// breaks a fresh one. A holder checks, just before it commits, that it has held the lock for
// less than the hold limit (kept below the stale limit) and that the lock is still its own.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { storeErrors } from './errors.js';
import { errnoOf, fsError, unlinkQuiet } from './fs-errors.js';
import {
  FILE_LOCK_BACKOFF_MAX_MS,
  FILE_LOCK_BACKOFF_MIN_MS,
  FILE_LOCK_BREAKER_STALE_MS,
  FILE_LOCK_MAX_HOLD_MS,
  FILE_LOCK_STALE_MS,
  FILE_LOCK_WAIT_DEADLINE_MS,
} from './limits.js';

const HOST = hostname();

export interface FileLockOptions {
  /** The folder of the lock files; it must exist. */
  dir: string;
  /** How long `acquire` waits for another holder (FILE_LOCK_WAIT_DEADLINE_MS). */
  waitMs?: number;
  /** When a lock counts as stale and may be broken (FILE_LOCK_STALE_MS). */
  staleMs?: number;
}

interface LockInfo {
  token: string;
  pid: number;
  host: string;
  at: number;
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errnoOf(e) === 'EPERM';
  }
}

/** A held per-key lock. */
export class KeyLock {
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

/** The lock manager: one lock file per key under `dir`. */
export class FileLocks {
  private readonly dir: string;
  private readonly waitMs: number;
  private readonly staleMs: number;
  private readonly maxHoldMs: number;

  constructor(o: FileLockOptions) {
    this.dir = o.dir;
    this.waitMs = o.waitMs ?? FILE_LOCK_WAIT_DEADLINE_MS;
    this.staleMs = o.staleMs ?? FILE_LOCK_STALE_MS;
    // Keep the same margin below "stale" as the defaults do.
    this.maxHoldMs = Math.min(FILE_LOCK_MAX_HOLD_MS, Math.floor((this.staleMs * 2) / 3));
  }

  private lockFile(path: string): string {
    return join(this.dir, `${createHash('sha256').update(path).digest('hex')}.lock`);
  }

  /** Take the key's lock, waiting up to waitMs; Retryable(lock) past the deadline. */
  async acquire(path: string): Promise<KeyLock> {
    const file = this.lockFile(path);
    const token = randomBytes(16).toString('hex');
    const deadline = Date.now() + this.waitMs;
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
        throw storeErrors.retryable('lock', `object ${path}: another writer held the key lock past ${this.waitMs} ms`, { path });
      }
      await sleep(Math.min(backoff, Math.max(1, deadline - Date.now())) * (0.5 + Math.random() / 2));
      backoff = Math.min(backoff * 2, FILE_LOCK_BACKOFF_MAX_MS);
    }
  }

  /** Whether the lock as observed is stale: its process is gone, or it is older than staleMs. */
  private isStale(info: LockInfo | undefined, mtimeMs: number): boolean {
    if (Date.now() - mtimeMs > this.staleMs) return true;
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
}
