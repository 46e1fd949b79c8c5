// The sharded backend's registry entry. Its URL is the `metastore` setting's object form,
// as JSON after the scheme (src/node/config.ts writes it from the config file):
//   sharded:{"shards":["sqlite:/a.db",{"name":"eu","url":"postgres://…"}],"directory":"sqlite:/dir.db"}
// A shard is a backend URL (named s0, s1, … by its place in the list) or {name, url}. The
// directory is the backend URL of the ControlStore it lives beside. The directory's opener
// is given by the layer that owns it (src/control/directory: the metastore knows no
// ControlStore), in the open options.
import { resolve } from 'node:path';
import type { MetaStore } from '../../contract.js';
import { NAME_PATTERN, MAX_NAME_LENGTH, NAME_RULE } from '../../limits.js';
import type { BackendDescriptor, BackendOpenOptions } from '../descriptor.js';
import type { OpenedDirectory } from './index.js';
import { redactUrl, urlProblem } from '../../url.js';

export const SHARDED_SCHEME = 'sharded:';
/** Shards one sharded metastore may list (every shard is a connection of every node). */
export const MAX_SHARDS = 64;

export interface ShardUrl {
  name: string;
  url: string;
}

export interface ShardedUrl {
  shards: ShardUrl[];
  directory: string;
}

/** The error of a bad sharded setting: names the entry, never a password. */
export class ShardedConfigError extends Error {}

/** Where a backend URL points, without credentials: what the directory records per shard. */
export function shardIdentity(url: string): string {
  if (url.startsWith('sqlite:')) {
    const p = url.slice('sqlite:'.length).split('?')[0]!;
    if (p === ':memory:') throw new ShardedConfigError('a sqlite::memory: shard cannot be shared by nodes or found again; use a file');
    return `sqlite:${resolve(p.startsWith('//') ? p.slice(2) : p)}`;
  }
  try {
    const u = new URL(url);
    const scheme = u.protocol === 'postgresql:' ? 'postgres:' : u.protocol;
    return `${scheme}//${u.host}${u.pathname}`;
  } catch {
    throw new ShardedConfigError(`${url.split(':')[0]}: ${urlProblem(url, 'a backend URL')}`);
  }
}

export { redactUrl } from '../../url.js';

/** Parses and checks the object form ({shards, directory}); errors name the entry to fix. */
export function parseShardedSetting(v: unknown): ShardedUrl {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ShardedConfigError('must be a backend URL or { "shards": [...], "directory": "<URL>" }');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'shards' && k !== 'directory') throw new ShardedConfigError(`unknown key ${JSON.stringify(k)} (expected shards, directory)`);
  if (!Array.isArray(o.shards) || o.shards.length === 0) throw new ShardedConfigError('shards must be a non-empty list of backend URLs or { "name", "url" }');
  if (o.shards.length > MAX_SHARDS) throw new ShardedConfigError(`shards lists ${o.shards.length} shards; at most ${MAX_SHARDS}`);
  if (typeof o.directory !== 'string' || o.directory.trim() === '') throw new ShardedConfigError('directory must be the backend URL of the ControlStore the directory lives beside');
  const shards: ShardUrl[] = o.shards.map((s, i) => {
    const entry = typeof s === 'string' ? { name: `s${i}`, url: s } : s;
    if (typeof entry !== 'object' || entry === null || typeof (entry as ShardUrl).url !== 'string' || typeof (entry as ShardUrl).name !== 'string') {
      throw new ShardedConfigError(`shards[${i}] must be a backend URL or { "name", "url" }`);
    }
    const { name, url } = entry as ShardUrl;
    if (name.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(name)) throw new ShardedConfigError(`shards[${i}].name must be ${NAME_RULE}; got ${JSON.stringify(name)}`);
    if (url.startsWith(SHARDED_SCHEME)) throw new ShardedConfigError(`shards[${i}] is itself sharded; a shard is one backend`);
    return { name, url };
  });
  const seen = new Map<string, number>();
  const ids = new Map<string, number>();
  shards.forEach((s, i) => {
    if (seen.has(s.name)) throw new ShardedConfigError(`shards[${i}] has the name ${s.name} of shards[${seen.get(s.name)}]`);
    seen.set(s.name, i);
    let id: string;
    try {
      id = shardIdentity(s.url);
    } catch (e) {
      throw new ShardedConfigError(`shards[${i}] (${s.name}): ${(e as Error).message}`);
    }
    if (ids.has(id)) throw new ShardedConfigError(`shards[${i}] (${s.name}) is ${id}, the same database as shards[${ids.get(id)}]: a duplicate shard`);
    ids.set(id, i);
  });
  return { shards, directory: o.directory };
}

export function shardedUrl(setting: ShardedUrl): string {
  return SHARDED_SCHEME + JSON.stringify(setting);
}

export function parseShardedUrl(url: string): ShardedUrl {
  let v: unknown;
  try {
    v = JSON.parse(url.slice(SHARDED_SCHEME.length));
  } catch {
    throw new ShardedConfigError('a sharded: URL is sharded: followed by {"shards": [...], "directory": "<URL>"} as JSON');
  }
  return parseShardedSetting(v);
}

export interface ShardedOpenOptions extends BackendOpenOptions {
  /** Opens the directory at its backend URL (src/control/directory openDirectory). */
  openDirectory?: (url: string) => Promise<OpenedDirectory>;
  /** Opens one shard's backend (the registry's descriptors; given, since the registry imports this file). */
  openShard?: (url: string) => Promise<MetaStore>;
}

export const shardedDescriptor: BackendDescriptor = {
  name: 'sharded',
  schemes: [SHARDED_SCHEME],
  urlForm: 'sharded:{"shards":["<backend URL>" | {"name","url"}, …],"directory":"<backend URL>"}',
  // The setting's form; each shard's and the directory's URL is read by its backend (the registry's entry).
  parse(url) {
    parseShardedUrl(url);
  },
  async open(url, options?: ShardedOpenOptions) {
    const setting = parseShardedUrl(url);
    if (!options?.openDirectory || !options.openShard) throw new Error('the sharded metastore is opened by the node (it needs the directory beside the ControlStore)');
    const { openSharded } = await import('./index.js');
    const opened: MetaStore[] = [];
    let directory: OpenedDirectory | null = null;
    try {
      for (const [i, s] of setting.shards.entries()) {
        try {
          opened.push(await options.openShard(s.url));
        } catch (e) {
          throw new ShardedConfigError(`shards[${i}] (${s.name}, ${redactUrl(s.url)}) cannot be used: ${(e as Error).message}`);
        }
      }
      try {
        directory = await options.openDirectory(setting.directory);
      } catch (e) {
        throw new ShardedConfigError(`directory (${redactUrl(setting.directory)}) cannot be used: ${(e as Error).message}`);
      }
      const meta = await openSharded({
        directory,
        shards: setting.shards.map((s, i) => ({ name: s.name, identity: shardIdentity(s.url), store: opened[i]! })),
      });
      return { meta, connection: directory.connection, backend: 'sharded' };
    } catch (e) {
      for (const m of opened) await m.close().catch(() => undefined);
      await directory?.close().catch(() => undefined);
      throw e;
    }
  },
};
