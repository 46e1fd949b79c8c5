// The local key provider (spec §9.8): KEKs are random 256-bit keys wrapped by the deployment's
// master key (setting encryption.master_key / LOAM_ENCRYPTION_MASTER_KEY: 32 bytes, base64)
// with AES-256-GCM, and stored in the ControlStore. Destroying a namespace's key clears the
// wrapped KEKs there; with no other copy, its data keys cannot be unwrapped again. (Backups of
// the ControlStore keep wrapped KEKs: use the KMS provider where backups must be shredded too.)
import { createHash } from 'node:crypto';
import type { NamespaceKeyRecord } from './types.js';
import { aadOf, DecryptFailed, freshIv, freshKey, IV_BYTES, KEY_BYTES, open, seal } from './envelope.js';
import { KeyDestroyedError, type KeyProvider, type NewKek } from './provider.js';

/** The master key's public id: a hash prefix, so records name the master key that wraps them without disclosing it. */
export function masterKeyId(master: Buffer): string {
  return `local:${createHash('sha256').update('loam master key id').update(master).digest('hex').slice(0, 16)}`;
}

/** Parses a base64 master key; the error names the setting, never the value. */
export function parseMasterKey(value: string, setting: string): Buffer {
  const b = /^[A-Za-z0-9+/]+={0,2}$/.test(value.trim()) ? Buffer.from(value.trim(), 'base64') : Buffer.alloc(0);
  if (b.length !== KEY_BYTES) throw new Error(`${setting}: must be ${KEY_BYTES} bytes in base64 (e.g. openssl rand -base64 32)`);
  return b;
}

export class LocalKeyProvider implements KeyProvider {
  readonly name = 'local' as const;
  private readonly id: string;
  constructor(private readonly master: Buffer) {
    if (master.length !== KEY_BYTES) throw new Error(`the master key must be ${KEY_BYTES} bytes`);
    this.id = masterKeyId(master);
  }

  async newKek(ns: number, version: number): Promise<NewKek> {
    const kek = freshKey();
    const iv = freshIv();
    const wrapped = Buffer.concat([iv, seal(this.master, iv, aadOf('kek', ns, '', version), kek)]);
    return { keyRef: this.id, wrapped, kek };
  }

  async unwrapKek(rec: NamespaceKeyRecord): Promise<Buffer> {
    if (rec.state === 'destroyed' || rec.wrapped === '') throw new KeyDestroyedError(rec.ns, 'its KEK was destroyed');
    if (rec.keyRef !== this.id) throw new Error(`namespace ${rec.ns} key version ${rec.version} is wrapped by master key ${rec.keyRef}, not by the configured one (${this.id})`);
    const w = Buffer.from(rec.wrapped, 'base64');
    try {
      return open(this.master, w.subarray(0, IV_BYTES), aadOf('kek', rec.ns, '', rec.version), w.subarray(IV_BYTES), `KEK of namespace ${rec.ns}`);
    } catch (e) {
      if (e instanceof DecryptFailed) throw new Error(`namespace ${rec.ns} key version ${rec.version}: the stored KEK does not unwrap under the master key (altered record)`);
      throw e;
    }
  }

  async destroy(): Promise<void> {
    // The only copy of each KEK is its wrapped form in the ControlStore, which the keyring clears.
  }

  async close(): Promise<void> {
    this.master.fill(0);
  }
}
