// A namespace's key as the HTTP API and the CLI show it (docs/encryption.md): its state and
// versions, never key material (the wrapped KEKs stay in the ControlStore).
import type { NamespaceKeyRecord } from './types.js';

export interface NamespaceKeyView {
  namespace: string;
  namespace_id: number;
  encrypted: boolean;
  /** none: written unencrypted (no key yet); destroyed: crypto-shredded. */
  state: 'none' | 'active' | 'destroyed';
  provider: 'local' | 'kms' | null;
  /** The version new data is sealed under (null: none, or destroyed). */
  current_version: number | null;
  versions: { version: number; provider: string; key_ref: string; state: 'active' | 'destroyed'; created: number; destroyed: number | null }[];
}

export function namespaceKeyView(ns: { id: number; name: string }, records: readonly NamespaceKeyRecord[]): NamespaceKeyView {
  const destroyed = records.some((r) => r.state === 'destroyed');
  const last = records[records.length - 1];
  return {
    namespace: ns.name,
    namespace_id: ns.id,
    encrypted: records.length > 0,
    state: records.length === 0 ? 'none' : destroyed ? 'destroyed' : 'active',
    provider: last?.provider ?? null,
    current_version: last && !destroyed ? last.version : null,
    versions: records.map((r) => ({ version: r.version, provider: r.provider, key_ref: r.keyRef, state: r.state, created: r.created, destroyed: r.destroyed })),
  };
}
