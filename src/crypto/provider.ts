// Key providers (spec §9.8): where a namespace's key-encryption key (KEK) comes from and how it
// is destroyed. A provider makes a KEK version and wraps it by its root of trust (the local
// master key, or a KMS key made for the namespace); the wrapped form is kept in the
// ControlStore (NamespaceKeyRecord). Data keys are wrapped by the KEK (src/crypto/keyring.ts),
// so one KEK unwrap per namespace version serves every chunk and object.
import type { NamespaceKeyRecord } from './types.js';

export interface NewKek {
  /** The provider root that wraps this KEK: the master key id, or the KMS key id. */
  keyRef: string;
  /** The KEK wrapped by that root. */
  wrapped: Buffer;
  /** The KEK itself (the caller zeroizes it when it drops it). */
  kek: Buffer;
}

export interface KeyProvider {
  readonly name: 'local' | 'kms';
  /** Makes KEK `version` of namespace `ns`. */
  newKek(ns: number, version: number): Promise<NewKek>;
  /** Unwraps a stored KEK. KeyDestroyedError when the root refuses for good (destroyed, disabled, scheduled for deletion). */
  unwrapKek(rec: NamespaceKeyRecord): Promise<Buffer>;
  /**
   * Destroys the roots of these versions where the provider has its own (KMS: disable and
   * schedule deletion). The keyring then clears the wrapped KEKs in the ControlStore.
   */
  destroy(records: readonly NamespaceKeyRecord[]): Promise<void>;
  close(): Promise<void>;
}

/** The root refused to unwrap for good: the namespace's key is destroyed. */
export class KeyDestroyedError extends Error {
  constructor(
    readonly ns: number,
    why: string,
  ) {
    super(`the key of namespace ${ns} is destroyed: ${why}`);
    this.name = 'KeyDestroyedError';
  }
}

/** The provider could not be reached (retryable). */
export class KeyUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyUnavailableError';
  }
}
