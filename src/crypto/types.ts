// The key records envelope encryption keeps (spec §9.8), and the narrow part of the
// ControlStore that holds them (src/control implements it on every backend).

/**
 * A namespace's key-encryption key, one version (spec §9.8). The KEK itself is never stored:
 * `wrapped` is it wrapped by the provider's root (the local master key, or the namespace's
 * KMS key named by `keyRef`). Destroying the namespace's keys clears `wrapped` and marks every
 * version destroyed; the row stays, so reads answer "destroyed", not "never encrypted".
 */
export interface NamespaceKeyRecord {
  ns: number;
  version: number;
  provider: 'local' | 'kms';
  /** The local master key's id, or the KMS key id (ARN). */
  keyRef: string;
  /** base64 of the wrapped KEK; '' once destroyed. */
  wrapped: string;
  state: 'active' | 'destroyed';
  created: number;
  destroyed: number | null;
}

/** Key versions per namespace, at most (rotation starts a new one). */
export const MAX_NAMESPACE_KEY_VERSIONS = 1_000;

/** Where a node's key ring reads and writes namespace key records (the ControlStore). */
export interface KeyRecords {
  createNamespaceKey(rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): Promise<NamespaceKeyRecord>;
  namespaceKeys(ns: number): Promise<NamespaceKeyRecord[]>;
  destroyNamespaceKeys(ns: number, at?: number): Promise<void>;
}

/** A change-feed entry as the key ring reads it (kind 'nskey', id the namespace). */
export interface KeyChange {
  kind: string;
  id: string;
}
