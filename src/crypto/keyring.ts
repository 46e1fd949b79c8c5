// A node's key ring (spec §9.8): the namespace KEKs this node has unwrapped, bounded, and the
// data-key wrapping under them. A namespace with no key record is not encrypted; with
// encryption on, its first write creates KEK version 1 (so new namespaces are encrypted by
// default and older bytes stay readable as they are). When a namespace's key is destroyed —
// here, or seen through the change feed, or at the latest at the key refresh — the cached KEKs
// are zeroized (Buffer.fill(0)) and the namespace's cache entries elsewhere are dropped
// through the onShred listeners.
import { MAX_NAMESPACE_KEY_VERSIONS, type KeyChange, type KeyRecords, type NamespaceKeyRecord } from './types.js';
import { isMetaError } from '../meta/errors.js';
import { aadOf, freshIv, IV_BYTES, KEY_BYTES, open, seal, TAG_BYTES } from './envelope.js';
import { KeyDestroyedError, type KeyProvider } from './provider.js';

/** Namespaces whose KEKs a node keeps unwrapped at once (LRU beyond it: a re-read costs one unwrap). */
export const MAX_CACHED_NAMESPACE_KEYS = 10_000;
/** Cached key records are re-read at least this often (spec §9.8: the hourly key refresh). */
export const KEY_REFRESH_INTERVAL_MS = 3_600_000;
/** A wrapped data key: IV, the 32-byte key encrypted, its tag. */
export const WRAPPED_DATA_KEY_BYTES = IV_BYTES + KEY_BYTES + TAG_BYTES;

interface Entry {
  records: NamespaceKeyRecord[];
  keks: Map<number, Buffer>;
  loadedAt: number;
}

export interface KeyRingOptions {
  control: KeyRecords;
  provider: KeyProvider;
  /** New namespaces (no key record yet) get a key at their first write (default on). */
  encryptNewNamespaces: boolean;
  refreshIntervalMs?: number;
  maxCached?: number;
}

/** The KEK of one version, for wrapping data keys. */
export interface WriteKey {
  ns: number;
  version: number;
  kek: Buffer;
}

export class KeyRing {
  private readonly entries = new Map<number, Entry>();
  private readonly loading = new Map<number, Promise<Entry>>();
  private readonly listeners: ((ns: number) => void)[] = [];
  private readonly refreshMs: number;
  private readonly maxCached: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly o: KeyRingOptions) {
    this.refreshMs = o.refreshIntervalMs ?? KEY_REFRESH_INTERVAL_MS;
    this.maxCached = o.maxCached ?? MAX_CACHED_NAMESPACE_KEYS;
    if (!(this.refreshMs >= 1 && this.refreshMs <= KEY_REFRESH_INTERVAL_MS)) throw new Error(`key refresh interval: must be 1..${KEY_REFRESH_INTERVAL_MS} ms`);
  }

  get providerName(): string {
    return this.o.provider.name;
  }

  /** Re-checks every cached namespace each refresh interval, so a destroyed key is zeroized even if unused. */
  start(): void {
    this.timer ??= setInterval(() => void this.refreshAll().catch(() => undefined), this.refreshMs);
    this.timer.unref();
  }

  /** Called with a namespace's id when its key is found destroyed: drop its cached bytes. */
  onShred(fn: (ns: number) => void): void {
    this.listeners.push(fn);
  }

  /** Whether the namespace has cached KEKs (tests: zeroization is observable). */
  cachedKeks(ns: number): Buffer[] {
    return [...(this.entries.get(ns)?.keks.values() ?? [])];
  }

  private async load(ns: number): Promise<Entry> {
    const cached = this.entries.get(ns);
    if (cached && Date.now() - cached.loadedAt < this.refreshMs) {
      this.entries.delete(ns);
      this.entries.set(ns, cached); // LRU order
      return cached;
    }
    const inflight = this.loading.get(ns);
    if (inflight) return inflight;
    const p = (async () => {
      const records = await this.o.control.namespaceKeys(ns);
      if (records.some((r) => r.state === 'destroyed')) this.forget(ns);
      const prev = this.entries.get(ns);
      const e: Entry = { records, keks: prev?.keks ?? new Map(), loadedAt: Date.now() };
      this.entries.delete(ns);
      this.entries.set(ns, e);
      for (const [k, old] of this.entries) {
        if (this.entries.size <= this.maxCached) break;
        this.drop(k, old);
      }
      return e;
    })().finally(() => this.loading.delete(ns));
    this.loading.set(ns, p);
    return p;
  }

  private drop(ns: number, e: Entry): void {
    for (const k of e.keks.values()) k.fill(0);
    e.keks.clear();
    this.entries.delete(ns);
  }

  /** Zeroizes the namespace's cached KEKs and tells the listeners to drop its cached data. */
  forget(ns: number): void {
    const e = this.entries.get(ns);
    if (e) this.drop(ns, e);
    for (const f of this.listeners) f(ns);
  }

  /** Change-feed entries (kind 'nskey'): the named namespaces' keys changed; forget them now. */
  notice(changes: readonly KeyChange[]): void {
    for (const c of changes) if (c.kind === 'nskey' && /^\d+$/.test(c.id)) this.forget(Number(c.id));
  }

  private async refreshAll(): Promise<void> {
    for (const ns of [...this.entries.keys()]) {
      const records = await this.o.control.namespaceKeys(ns);
      if (records.some((r) => r.state === 'destroyed')) this.forget(ns);
    }
  }

  private static destroyedIn(ns: number, e: Entry): void {
    if (e.records.some((r) => r.state === 'destroyed')) throw new KeyDestroyedError(ns, 'the namespace was crypto-shredded');
  }

  private async kekOf(ns: number, e: Entry, version: number): Promise<Buffer> {
    const hit = e.keks.get(version);
    if (hit) return hit;
    const rec = e.records.find((r) => r.version === version);
    if (!rec) throw new KeyDestroyedError(ns, `key version ${version} is not on record`);
    const kek = await this.o.provider.unwrapKek(rec);
    if (this.entries.get(ns) !== e) {
      // Forgotten while we unwrapped (a destruction): hand it out once, never cache it.
      return kek;
    }
    e.keks.set(version, kek);
    return kek;
  }

  /**
   * The KEK new data keys are wrapped with: the namespace's newest version, created (v1) on a
   * namespace's first write when encryption is on; null for an unencrypted namespace.
   * KeyDestroyedError for a shredded one (its writes are refused).
   */
  async writeKey(ns: number): Promise<WriteKey | null> {
    let e = await this.load(ns);
    KeyRing.destroyedIn(ns, e);
    if (e.records.length === 0) {
      if (!this.o.encryptNewNamespaces) return null;
      const made = await this.o.provider.newKek(ns, 1);
      try {
        await this.o.control.createNamespaceKey({ ns, version: 1, provider: this.o.provider.name, keyRef: made.keyRef, wrapped: made.wrapped.toString('base64'), created: Date.now() });
      } catch (err) {
        if (!isMetaError(err, 'AlreadyExists')) throw err; // another node made it first: use theirs
      } finally {
        made.kek.fill(0);
      }
      this.entries.delete(ns);
      e = await this.load(ns);
      KeyRing.destroyedIn(ns, e);
      if (e.records.length === 0) throw new Error(`namespace ${ns}: its new key was not found after it was stored`);
    }
    const version = e.records[e.records.length - 1]!.version;
    return { ns, version, kek: await this.kekOf(ns, e, version) };
  }

  /** The KEK of a version, for reads; KeyDestroyedError once the namespace is shredded. */
  async readKek(ns: number, version: number): Promise<Buffer> {
    let e = await this.load(ns);
    if (!e.records.some((r) => r.version === version)) {
      this.entries.delete(ns); // a version newer than our cache: made by another node
      e = await this.load(ns);
    }
    KeyRing.destroyedIn(ns, e);
    return this.kekOf(ns, e, version);
  }

  /**
   * Rotation: a new KEK version; data written from now on is wrapped by it (on this node at
   * once, on the others at their next key refresh). The older versions stay for reads. Two
   * rotations at once: one wins the version, the other is refused (AlreadyExists).
   */
  async rotate(ns: number): Promise<number> {
    this.stale(ns);
    const e = await this.load(ns);
    KeyRing.destroyedIn(ns, e);
    if (e.records.length >= MAX_NAMESPACE_KEY_VERSIONS) throw new RangeError(`namespace ${ns} has ${e.records.length} key versions, the most it may have (MAX_NAMESPACE_KEY_VERSIONS)`);
    const version = (e.records[e.records.length - 1]?.version ?? 0) + 1;
    const made = await this.o.provider.newKek(ns, version);
    made.kek.fill(0);
    await this.o.control.createNamespaceKey({ ns, version, provider: this.o.provider.name, keyRef: made.keyRef, wrapped: made.wrapped.toString('base64'), created: Date.now() });
    this.stale(ns);
    return version;
  }

  /**
   * The next use re-reads the namespace's key records (a rotation here or elsewhere). Its
   * unwrapped KEKs are kept (a flush in flight may hold one; reads need the old versions).
   */
  stale(ns: number): void {
    const e = this.entries.get(ns);
    if (e) e.loadedAt = 0;
  }

  /** The namespace's key records as the ControlStore holds them now (for the key routes). */
  async records(ns: number): Promise<readonly NamespaceKeyRecord[]> {
    this.stale(ns);
    return (await this.load(ns)).records;
  }

  /**
   * Crypto-shreds a namespace (spec §9.8): destroys the provider's roots (KMS), clears the
   * wrapped KEKs in the ControlStore (with a change-feed entry for every node), and zeroizes
   * this node's copies. Idempotent.
   */
  async destroy(ns: number): Promise<void> {
    const records = await this.o.control.namespaceKeys(ns);
    await this.o.provider.destroy(records.filter((r) => r.provider === this.o.provider.name));
    await this.o.control.destroyNamespaceKeys(ns);
    this.forget(ns);
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    for (const [ns, e] of [...this.entries]) this.drop(ns, e);
  }
}

/** Wraps a data key under a KEK, bound to (ns, path, version, purpose). */
export function wrapDataKey(k: WriteKey, dek: Buffer, path: string, extra: string): Buffer {
  // A KEK zeroized by a destruction while a write held it must never wrap (an all-zero key is public).
  if (k.kek.every((b) => b === 0)) throw new KeyDestroyedError(k.ns, 'its KEK was zeroized while a write held it');
  const iv = freshIv();
  return Buffer.concat([iv, seal(k.kek, iv, aadOf('dek', k.ns, path, k.version, extra), dek)]);
}

export function unwrapDataKey(kek: Buffer, ns: number, version: number, wrapped: Buffer, path: string, extra: string): Buffer {
  return open(kek, wrapped.subarray(0, IV_BYTES), aadOf('dek', ns, path, version, extra), wrapped.subarray(IV_BYTES), `data key of ${path}`);
}
