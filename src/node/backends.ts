// Metastore URL → backend (DESIGN §3).
//
//   sqlite:/abs/path/meta.db     the embedded backend on a file (relative paths: from the cwd)
//   sqlite::memory:              the embedded backend in memory (nothing survives the process)
//   postgres://user:pw@host/db   the Postgres backend (connected and migrated at start)
//   dynamodb://[host:port]/table?region=…&profile=dynamodb|alternator&tls=…
//                                the DynamoDB backend (the table is created when missing)
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
      // Loaded on demand, so a node on another backend does not load the pg driver.
      const { connectPostgres } = await import('../meta/backends/postgres/index.js');
      try {
        return { meta: await connectPostgres({ url, applicationName: 'loam-node' }), backend: 'postgres' };
      } catch (e) {
        throw new ConfigError('metastore', `cannot use the postgres metastore: ${redact((e as Error).message, url)}`);
      }
    }
    case 'dynamodb:': {
      const { openDynamo, dynamoOptionsFromUrl } = await import('../meta/backends/dynamodb/index.js');
      let opts;
      try {
        opts = dynamoOptionsFromUrl(url);
      } catch (e) {
        throw new ConfigError('metastore', (e as Error).message);
      }
      const meta = openDynamo(opts);
      // Creates the table when it is missing (idempotent), so a new cluster starts from one URL.
      try {
        await meta.createTable();
      } catch (e) {
        await meta.close();
        throw new ConfigError('metastore', `cannot use the dynamodb table ${opts.table}: ${(e as Error).message}`);
      }
      return { meta, backend: opts.profile === 'alternator' ? 'alternator' : 'dynamodb' };
    }
    default:
      throw new ConfigError('metastore', `unknown metastore URL scheme in ${JSON.stringify(url.replace(/\/\/[^@/]*@/, '//…@'))} (expected ${METASTORE_SCHEMES.join(', ')})`);
  }
}

/** An error message without the URL's password. */
function redact(message: string, url: string): string {
  try {
    const u = new URL(url);
    return u.password ? message.split(u.password).join('…') : message;
  } catch {
    return message;
  }
}
