// Metastore URL → backend (DESIGN §3).
//
//   sqlite:/abs/path/meta.db     the embedded backend on a file (relative paths: from the cwd)
//   sqlite::memory:              the embedded backend in memory (nothing survives the process)
//   postgres://user@host/db      the Postgres backend, once src/meta/backends/postgres exports openPostgres
//   dynamodb://table?endpoint=…  the DynamoDB backend, once src/meta/backends/dynamodb exports openDynamo
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MetaStore } from '../meta/contract.js';
import { openEmbedded } from '../meta/backends/embedded/index.js';
import { ConfigError } from './config.js';

export const METASTORE_SCHEMES = ['sqlite:', 'postgres:', 'postgresql:', 'dynamodb:'];

export interface OpenedMeta {
  meta: MetaStore;
  /** The backend's name, for metrics and logs (never the URL: it may hold a password). */
  backend: string;
}

/** Imports an optional backend module; null when it is not built yet. */
async function optionalBackend(dir: string, exportName: string): Promise<((opts: { url: string }) => MetaStore | Promise<MetaStore>) | null> {
  // A computed specifier: these backends are being built by others and may not exist yet.
  const spec = new URL(`../meta/backends/${dir}/index.js`, import.meta.url).href;
  try {
    const mod = (await import(spec)) as Record<string, unknown>;
    const fn = mod[exportName];
    return typeof fn === 'function' ? (fn as (opts: { url: string }) => MetaStore) : null;
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return null;
    throw e;
  }
}

export async function openMetastore(url: string): Promise<OpenedMeta> {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  switch (scheme) {
    case 'sqlite:': {
      let path = url.slice('sqlite:'.length);
      // ?synchronous=NORMAL trades durability on power loss (not on a process crash) for
      // speed (see the embedded backend); FULL, the default, fsyncs every commit.
      let synchronous: 'FULL' | 'NORMAL' = 'FULL';
      const q = path.indexOf('?');
      if (q >= 0) {
        const params = new URLSearchParams(path.slice(q + 1));
        path = path.slice(0, q);
        for (const [k, v] of params) {
          if (k !== 'synchronous' || (v !== 'FULL' && v !== 'NORMAL')) {
            throw new ConfigError('metastore', `sqlite: takes only ?synchronous=FULL|NORMAL; got ${k}=${v}`);
          }
          synchronous = v;
        }
      }
      if (path.startsWith('//')) {
        try {
          path = fileURLToPath(`file:${path}`);
        } catch {
          throw new ConfigError('metastore', `${url} is not a sqlite: URL (sqlite:/abs/path.db or sqlite::memory:)`);
        }
      }
      if (path === '') throw new ConfigError('metastore', 'sqlite: needs a path (sqlite:/abs/path.db or sqlite::memory:)');
      return { meta: openEmbedded({ path: path === ':memory:' ? ':memory:' : resolve(path), synchronous }), backend: 'embedded' };
    }
    case 'postgres:':
    case 'postgresql:': {
      const open = await optionalBackend('postgres', 'openPostgres');
      if (!open) throw new ConfigError('metastore', 'the postgres backend is not available yet in this build (src/meta/backends/postgres); use sqlite:');
      return { meta: await open({ url }), backend: 'postgres' };
    }
    case 'dynamodb:': {
      const open = await optionalBackend('dynamodb', 'openDynamo');
      if (!open) throw new ConfigError('metastore', 'the dynamodb backend is not available yet in this build (src/meta/backends/dynamodb); use sqlite:');
      return { meta: await open({ url }), backend: 'dynamodb' };
    }
    default:
      throw new ConfigError('metastore', `unknown metastore URL scheme in ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//…@'))} (expected ${METASTORE_SCHEMES.join(', ')})`);
  }
}
