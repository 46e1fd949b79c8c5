// The erasure log's key hashes (spec §9.6): HMAC-SHA256 of a primary key's canonical
// encoding (src/log/keys.ts canonicalKey: 7 and "7" are one key) under a per-org
// erasure-log key. The org's keys live in the ControlStore, each version wrapped (AES-256-GCM)
// by the deployment's key-encryption key (the erasure_kek setting); the hashes are keyed, so a
// dictionary of guessable keys (email addresses) cannot be tried against them without it.
// Rotation adds a version (old records keep theirs); destroying the org's keys clears every
// wrapped version, which makes its hashes unlinkable for good.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { errors, isMetaError } from '../meta/errors.js';
import type { ControlStore } from '../control/types.js';
import { isStoreError, purge, type Store } from '../store/index.js';
import { putCreateOnly } from '../collection/manifest.js';
import { DEFAULT_ORG } from '../collection/catalog.js';
import { ownedBytes } from '../crypto/owned.js';

/**
 * Each wrapped key version is also an object in the bucket, beside the erasure log's records
 * (it discloses nothing without the key-encryption key): a ControlStore restored from before
 * the version was made gets it back from there, so the erasures hashed with it still match.
 */
export function keyObjectPath(org: string, version: number): string {
  return `_erasure/${org}/keys/${String(version).padStart(8, '0')}.key`;
}


/** Orgs whose erasure-log keys a starting node looks at, at most, to check its key-encryption key (one live key decides). */
export const MAX_KEK_CHECK_ORGS = 100;

/** An erasure-log key and the key-encryption key: 256 bits. */
export const ERASURE_KEY_BYTES = 32;
/** Erasure-log keys (org and version) a node keeps unwrapped, the most recently used; a forgotten one unwraps again. */
export const MAX_CACHED_ERASURE_KEYS = 1_024;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Parses the erasure_kek setting: 64 hex digits (32 bytes). */
export function parseKek(s: string): Buffer {
  if (!/^[0-9a-fA-F]{64}$/.test(s)) throw new Error('must be 64 hex digits (a 256-bit key)');
  return Buffer.from(s, 'hex');
}

/** The AAD binds a wrapped key to its org and version, so a row copied to another org or version fails to unwrap. */
function aad(org: string, version: number): Buffer {
  return Buffer.from(`loam erasure-log key|${org}|${version}`);
}

export function wrapKey(kek: Buffer, org: string, version: number, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const c = createCipheriv('aes-256-gcm', kek, iv);
  c.setAAD(aad(org, version));
  const ct = Buffer.concat([c.update(key), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
}

export function unwrapKey(kek: Buffer, org: string, version: number, wrapped: string): Buffer {
  const b = Buffer.from(wrapped, 'base64');
  const d = createDecipheriv('aes-256-gcm', kek, b.subarray(0, IV_BYTES));
  d.setAAD(aad(org, version));
  d.setAuthTag(b.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  // Memory of its own, not a view into Node's buffer pool: the key is cached (and zeroed by destroy).
  return ownedBytes(d.update(b.subarray(IV_BYTES + TAG_BYTES)), d.final());
}

/** HMAC-SHA256 (hex) of a canonical key under an erasure-log key. */
export function keyHash(logKey: Buffer, canonical: string): string {
  return createHmac('sha256', logKey).update(canonical, 'utf8').digest('hex');
}

export class ErasureKeyDestroyed extends Error {
  constructor(org: string, version: number) {
    super(`the erasure-log key version ${version} of org "${org}" was destroyed: its hashes can no longer be linked to keys`);
  }
}

/** Per-org erasure-log keys over the ControlStore, unwrapped on use (the MAX_CACHED_ERASURE_KEYS most recent kept, never logged). */
export class ErasureLogKeys {
  private readonly cache = new Map<string, Buffer>();
  constructor(
    private readonly control: ControlStore,
    private readonly kek: Buffer,
    private readonly store: Store,
    private readonly opts: { maxCached?: number } = {},
  ) {}

  /** Keys kept unwrapped now (for tests). */
  cached(): number {
    return this.cache.size;
  }

  /** The org's newest key version, created (version 1) on first use. */
  async current(org: string): Promise<{ version: number; key: Buffer }> {
    const all = await this.control.erasureKeys(org);
    const live = all.filter((k) => k.destroyed === null);
    const newest = live[live.length - 1];
    if (newest) return { version: newest.version, key: this.unwrapped(org, newest.version, newest.wrapped) };
    // None yet, or all destroyed: a new version after the newest (a destroyed version is never reused).
    return this.create(org, (all[all.length - 1]?.version ?? 0) + 1);
  }

  /**
   * Null when the node's key-encryption key unwraps the newest live key of the first org that
   * has one (of the first MAX_KEK_CHECK_ORGS orgs), or none exists; else what it fails on. A
   * node with another KEK (loam dev: a lost erasure.kek made again) would answer every erase and
   * verify with an internal error: it is refused at start instead.
   */
  async kekMismatch(): Promise<{ org: string; version: number } | null> {
    // The default org first: without API keys every erasure is its own, and it has no org record then.
    const orgs = new Set([DEFAULT_ORG, ...(await this.control.listOrgs({ limit: MAX_KEK_CHECK_ORGS })).items.map((o) => o.id)]);
    for (const org of orgs) {
      const live = (await this.control.erasureKeys(org)).filter((k) => k.destroyed === null);
      const newest = live[live.length - 1];
      if (!newest) continue;
      try {
        this.unwrapped(org, newest.version, newest.wrapped);
        return null;
      } catch {
        return { org, version: newest.version };
      }
    }
    return null;
  }

  /** Starts a new version: later erasures hash with it; earlier records keep theirs. */
  async rotate(org: string): Promise<number> {
    const all = await this.control.erasureKeys(org);
    return (await this.create(org, (all[all.length - 1]?.version ?? 0) + 1)).version;
  }

  /** One version's key; ErasureKeyDestroyed once the org's keys were destroyed. */
  async version(org: string, version: number): Promise<Buffer> {
    let k = (await this.control.erasureKeys(org)).find((x) => x.version === version);
    if (!k) {
      // A restored ControlStore older than the version: its bucket copy puts it back.
      const wrapped = await this.store.get(keyObjectPath(org, version)).then(
        (g) => g.bytes.toString('utf8'),
        (e: unknown) => (isStoreError(e, 'NotFound') ? null : Promise.reject(e)),
      );
      if (wrapped === null) throw errors.notFound(`erasure-log key version ${version} of org "${org}"`);
      await this.control.putErasureKey({ org, version, wrapped, created: Date.now(), destroyed: null }).catch((e: unknown) => (isMetaError(e, 'AlreadyExists') ? undefined : Promise.reject(e)));
      k = (await this.control.erasureKeys(org)).find((x) => x.version === version)!;
    }
    if (k.destroyed !== null) throw new ErasureKeyDestroyed(org, version);
    return this.unwrapped(org, version, k.wrapped);
  }

  /** Destroys every version of the org's keys (its hashes become unlinkable): the count destroyed. */
  async destroy(org: string): Promise<number> {
    for (const k of [...this.cache.keys()]) {
      if (!k.startsWith(`${org}|`)) continue;
      this.cache.get(k)!.fill(0);
      this.cache.delete(k);
    }
    const n = await this.control.destroyErasureKeys(org);
    // The bucket copies go too, in every version (a ControlStore backup older than this still holds its wrapped copy: docs/erasure.md).
    for (const k of await this.control.erasureKeys(org)) await purge(this.store, keyObjectPath(org, k.version));
    return n;
  }

  private async create(org: string, version: number): Promise<{ version: number; key: Buffer }> {
    const key = randomBytes(ERASURE_KEY_BYTES);
    const wrapped = wrapKey(this.kek, org, version, key);
    try {
      // The bucket copy first: a version in the ControlStore always has one.
      await putCreateOnly(this.store, keyObjectPath(org, version), Buffer.from(wrapped));
      await this.control.putErasureKey({ org, version, wrapped, created: Date.now(), destroyed: null });
    } catch (e) {
      // Another node created this version first: use theirs.
      if (isMetaError(e, 'AlreadyExists') || isStoreError(e, 'AlreadyExists')) return { version, key: await this.version(org, version) };
      throw e;
    }
    this.keep(`${org}|${version}`, key);
    return { version, key };
  }

  private unwrapped(org: string, version: number, wrapped: string): Buffer {
    const k = `${org}|${version}`;
    const hit = this.cache.get(k);
    if (hit) {
      this.cache.delete(k);
      this.cache.set(k, hit); // most recently used last
      return hit;
    }
    let key: Buffer;
    try {
      key = unwrapKey(this.kek, org, version, wrapped);
    } catch {
      throw new Error(`the erasure-log key version ${version} of org "${org}" does not unwrap with this node's erasure_kek: the setting differs from the one it was made with`);
    }
    this.keep(k, key);
    return key;
  }

  /**
   * Keeps an unwrapped key, forgetting the least recently used past the bound (not zeroed: a
   * caller may still be hashing with it; destroy() is what zeroes).
   */
  private keep(k: string, key: Buffer): void {
    this.cache.set(k, key);
    const max = this.opts.maxCached ?? MAX_CACHED_ERASURE_KEYS;
    for (const old of this.cache.keys()) {
      if (this.cache.size <= max) break;
      this.cache.delete(old);
    }
  }
}
