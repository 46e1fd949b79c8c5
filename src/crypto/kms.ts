// The KMS key provider (spec §9.8, customer-managed keys): one KMS key per namespace key
// version; the KEK is a KMS data key (GenerateDataKey, AES_256) under it, and only its
// ciphertext blob is stored. Destroying the namespace disables its KMS keys and schedules
// their deletion: from then on KMS refuses Decrypt, so no copy of the wrapped KEK (the
// ControlStore, its backups) unwraps again, and neither do the data keys under it.
import {
  CreateKeyCommand,
  DecryptCommand,
  DisableKeyCommand,
  GenerateDataKeyCommand,
  KMSClient,
  ScheduleKeyDeletionCommand,
} from '@aws-sdk/client-kms';
import type { NamespaceKeyRecord } from './types.js';
import { ownedBytes } from './owned.js';
import { KeyDestroyedError, KeyUnavailableError, type KeyProvider, type NewKek } from './provider.js';

/** KMS's shortest deletion window (days): the key is disabled at once, deleted after this. */
export const KMS_DELETION_WINDOW_DAYS = 7;
/** Every KMS call has this deadline. */
export const KMS_CALL_DEADLINE_MS = 10_000;
/** KMS errors that mean the key will not decrypt again: it is disabled, pending deletion, deleted or not ours. */
const DESTROYED_ERRORS = new Set(['DisabledException', 'KMSInvalidStateException', 'NotFoundException', 'AccessDeniedException']);

export interface KmsProviderOptions {
  /** The KMS endpoint (a VPC endpoint, or a local-kms in tests); the SDK's default when absent. */
  endpoint?: string;
  region: string;
  /** Explicit credentials (tests); otherwise the SDK's default chain. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export class KmsKeyProvider implements KeyProvider {
  readonly name = 'kms' as const;
  private readonly client: KMSClient;
  constructor(o: KmsProviderOptions) {
    this.client = new KMSClient({
      region: o.region,
      ...(o.endpoint ? { endpoint: o.endpoint } : {}),
      ...(o.credentials ? { credentials: o.credentials } : {}),
      maxAttempts: 3,
    });
  }

  private async call<T>(what: string, ns: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    try {
      return await fn(AbortSignal.timeout(KMS_CALL_DEADLINE_MS));
    } catch (e) {
      const name = (e as { name?: string }).name ?? '';
      if (DESTROYED_ERRORS.has(name)) throw new KeyDestroyedError(ns, `KMS refused ${what} (${name})`);
      throw new KeyUnavailableError(`KMS ${what} for namespace ${ns} failed: ${name || (e as Error).message}`);
    }
  }

  private static context(ns: number, version: number): Record<string, string> {
    return { loam_ns: String(ns), loam_key_version: String(version) };
  }

  async newKek(ns: number, version: number): Promise<NewKek> {
    const created = await this.call('CreateKey', ns, (abortSignal) =>
      this.client.send(new CreateKeyCommand({ Description: `loam namespace ${ns} key version ${version}`, KeyUsage: 'ENCRYPT_DECRYPT' }), { abortSignal }),
    );
    const keyRef = created.KeyMetadata?.Arn ?? created.KeyMetadata?.KeyId;
    if (!keyRef) throw new KeyUnavailableError(`KMS CreateKey for namespace ${ns} returned no key id`);
    const dk = await this.call('GenerateDataKey', ns, (abortSignal) =>
      this.client.send(new GenerateDataKeyCommand({ KeyId: keyRef, KeySpec: 'AES_256', EncryptionContext: KmsKeyProvider.context(ns, version) }), { abortSignal }),
    );
    if (!dk.Plaintext || !dk.CiphertextBlob) throw new KeyUnavailableError(`KMS GenerateDataKey for namespace ${ns} returned no key`);
    return { keyRef, wrapped: Buffer.from(dk.CiphertextBlob), kek: Buffer.from(dk.Plaintext) };
  }

  async unwrapKek(rec: NamespaceKeyRecord): Promise<Buffer> {
    if (rec.state === 'destroyed' || rec.wrapped === '') throw new KeyDestroyedError(rec.ns, 'its KEK was destroyed');
    const r = await this.call('Decrypt', rec.ns, (abortSignal) =>
      this.client.send(
        new DecryptCommand({ KeyId: rec.keyRef, CiphertextBlob: Buffer.from(rec.wrapped, 'base64'), EncryptionContext: KmsKeyProvider.context(rec.ns, rec.version) }),
        { abortSignal },
      ),
    );
    if (!r.Plaintext) throw new KeyUnavailableError(`KMS Decrypt for namespace ${rec.ns} returned no key`);
    // Memory of its own (not Buffer.from's pool): the key ring caches it.
    return ownedBytes(r.Plaintext);
  }

  /** Disables each version's KMS key, then schedules its deletion (both idempotent). */
  async destroy(records: readonly NamespaceKeyRecord[]): Promise<void> {
    for (const rec of records) {
      try {
        await this.call('DisableKey', rec.ns, (abortSignal) => this.client.send(new DisableKeyCommand({ KeyId: rec.keyRef }), { abortSignal }));
      } catch (e) {
        if (!(e instanceof KeyDestroyedError)) throw e; // already disabled or pending deletion
      }
      try {
        await this.call('ScheduleKeyDeletion', rec.ns, (abortSignal) =>
          this.client.send(new ScheduleKeyDeletionCommand({ KeyId: rec.keyRef, PendingWindowInDays: KMS_DELETION_WINDOW_DAYS }), { abortSignal }),
        );
      } catch (e) {
        if (!(e instanceof KeyDestroyedError)) throw e;
      }
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
