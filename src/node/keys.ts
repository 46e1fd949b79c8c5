// Envelope encryption's composition (spec §9.8, docs/encryption.md): which key provider a node
// runs and where the local provider's master key comes from. The node's main thread and its
// worker thread build their key rings from the same settings, each over its own ControlStore
// handle, so encrypted work never has to leave the worker thread.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { MetaStore } from '../meta/contract.js';
import type { Logger } from 'pino';
import { controlStoreFor } from '../control/index.js';
import { localMasterKeyRefs } from '../control/embedded.js';
import { connectionOf } from '../meta/backends/registry.js';
import type { ControlStore } from '../control/types.js';
import { KeyRing } from '../crypto/keyring.js';
import { LocalKeyProvider, masterKeyId, parseMasterKey } from '../crypto/local.js';
import { KmsKeyProvider } from '../crypto/kms.js';
import type { KeyProvider } from '../crypto/provider.js';
import { KEY_BYTES } from '../crypto/envelope.js';
import { ConfigError, type NodeConfig } from './config.js';

/** The settings a key ring is built from (the worker thread gets exactly these). */
export type KeySettings = Pick<NodeConfig, 'encryption' | 'key_provider' | 'encryption_master_key' | 'kms_region' | 'kms_endpoint' | 'key_refresh_ms'>;

/** The file in an embedded node's data directory that holds its generated master key (mode 0600). */
export const MASTER_KEY_FILE = 'encryption.key';

/**
 * Where the local provider's master key comes from when the settings name none (the
 * embedded defaults, docs/encryption.md):
 *  - an embedded metastore on a file: `encryption.key` beside it, generated once (0600);
 *  - `dataDir` (a node whose metastore was handed in, e.g. by a test harness): the same file there;
 *  - a node-private in-memory metastore: a random key for this process (nothing outlives it);
 *  - otherwise (a shared metastore: every node needs the same key): none, and the node says so.
 */
export function defaultMasterKey(
  metastore: string,
  o: { handedIn: boolean; dataDir?: string; wrappedBy?: readonly string[] },
): { key: string; source: string } | null {
  let dir: string | undefined = o.dataDir;
  if (!dir && !o.handedIn && metastore.startsWith('sqlite:') && metastore !== 'sqlite::memory:') dir = dirname(metastore.slice('sqlite:'.length));
  if (dir) {
    const file = resolve(dir, MASTER_KEY_FILE);
    return { key: masterKeyFile(file, o.wrappedBy ?? []), source: file };
  }
  if (!o.handedIn && metastore === 'sqlite::memory:') return { key: randomBytes(KEY_BYTES).toString('base64'), source: 'generated for this in-memory metastore' };
  return null;
}

/**
 * Reads the master key file, creating it first (create-only, 0600) when it does not exist —
 * unless the metastore already holds namespace keys (`wrappedBy`, their master keys' ids): then
 * the file was lost, and a new key would start a node that can read none of them.
 */
export function masterKeyFile(file: string, wrappedBy: readonly string[] = []): string {
  if (!existsSync(file)) {
    if (wrappedBy.length > 0) {
      throw new ConfigError(
        'encryption_master_key',
        `${file} is missing, but the metastore's namespace keys are wrapped by master key ${wrappedBy.join(', ')}: restore the file from a backup of this data directory (or set encryption_master_key to that key); a new key could read none of them`,
      );
    }
    try {
      writeFileSync(file, `${randomBytes(KEY_BYTES).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (e) {
      // EEXIST: another process made it first: use theirs.
      if ((e as { code?: string }).code !== 'EEXIST') throw new ConfigError('encryption_master_key', `is kept in ${file}, which cannot be made (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  let value: string;
  try {
    const st = statSync(file);
    if (!st.isFile()) throw new ConfigError('encryption_master_key', `is read from ${file}, which is not a file`);
    if ((st.mode & 0o077) !== 0) throw new ConfigError('encryption_master_key', `is read from ${file}, which others may read: chmod 600 it`);
    value = readFileSync(file, 'utf8').trim();
  } catch (e) {
    if (e instanceof ConfigError) throw e;
    throw new ConfigError('encryption_master_key', `is read from ${file}, which cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  try {
    parseMasterKey(value, 'encryption_master_key');
  } catch {
    throw new ConfigError('encryption_master_key', `is read from ${file}, which does not hold 32 bytes in base64`);
  }
  return value;
}

/**
 * Refuses a master key that wraps none of the metastore's live namespace keys when there are
 * some (`wrappedBy`): such a node would start and answer every encrypted namespace with an
 * internal error. A metastore whose keys a changed master key wraps in part (a namespace
 * rotated since) is left alone.
 */
export function checkMasterKey(key: string, source: string, wrappedBy: readonly string[]): void {
  if (wrappedBy.length === 0) return;
  const id = masterKeyId(parseMasterKey(key, 'encryption_master_key'));
  if (wrappedBy.includes(id)) return;
  throw new ConfigError(
    'encryption_master_key',
    `(${source}) is not the master key that wraps this metastore's namespace keys (${wrappedBy.join(', ')}): use the key they were written with`,
  );
}

/**
 * The local provider's master key: the setting, else (the embedded defaults) the key file in
 * the data directory; null on a shared metastore without one (the node runs unencrypted and
 * says so). On an embedded file a key that wraps none of its namespace keys is refused.
 */
export function localMasterKey(config: NodeConfig, raw: MetaStore, o: { handedIn: boolean; dataDir?: string }, logger: Logger): string | null {
  let masterKey = config.encryption_master_key;
  if (config.key_provider !== 'local') return masterKey;
  const c = connectionOf(raw);
  const wrappedBy = c?.kind === 'sqlite' ? localMasterKeyRefs(c.db) : [];
  let source = 'the setting';
  if (masterKey === null) {
    const d = defaultMasterKey(config.metastore, { ...o, wrappedBy });
    if (d) {
      masterKey = d.key;
      source = `from ${d.source}`;
      logger.info({ master_key: d.source }, 'encryption: the local key provider uses the master key from its data directory');
    } else {
      logger.warn('encryption: key_provider is local but encryption_master_key is not set and the metastore is shared: new namespaces are written unencrypted; set encryption_master_key (the same on every node) or key_provider kms (docs/encryption.md)');
    }
  }
  if (masterKey !== null) checkMasterKey(masterKey, source, wrappedBy);
  return masterKey;
}

export function keyProviderFor(s: KeySettings, masterKey: string | null): KeyProvider {
  if (s.key_provider === 'kms') return new KmsKeyProvider({ region: s.kms_region, ...(s.kms_endpoint ? { endpoint: s.kms_endpoint } : {}) });
  if (masterKey === null) throw new ConfigError('encryption_master_key', 'is required with key_provider local');
  return new LocalKeyProvider(parseMasterKey(masterKey, 'encryption_master_key'));
}

/** A key ring over its own ControlStore handle on `raw` (a backend handle, not a client wrapper). */
export async function openKeyRing(s: KeySettings, masterKey: string | null, raw: MetaStore): Promise<{ ring: KeyRing; control: ControlStore; provider: KeyProvider }> {
  const control = await controlStoreFor(raw);
  await control.init();
  const provider = keyProviderFor(s, masterKey);
  const ring = new KeyRing({ control, provider, encryptNewNamespaces: s.encryption === 'on', refreshIntervalMs: s.key_refresh_ms });
  ring.start();
  return { ring, control, provider };
}
