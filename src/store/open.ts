// openStore(url): the one way configuration names a store (DESIGN §4).
//
//   memory://                      a fresh in-process store
//   memory://?versioning=true      … that keeps versions like a versioned bucket
//   file:///abs/dir                a folder (created when missing)
//   s3://bucket[/prefix][?endpoint=http://host:port&forcePathStyle=true&region=…&sse=AES256|aws:kms&sseKmsKeyId=…]
//
// Anything else (an unknown scheme, a relative file path, an unknown or repeated query
// parameter, a malformed URL) is InvalidArgument with the field to fix.
import { fileURLToPath } from 'node:url';
import { storeErrors } from './errors.js';
import { FileStore, type FileStoreOptions } from './file.js';
import { MemoryStore } from './memory.js';
import { checkS3Endpoint, S3Store, type S3StoreOptions } from './s3.js';
import type { Store } from './types.js';

export interface OpenStoreOverrides {
  /** Options the URL cannot carry (credentials, part sizes, deadlines). */
  s3?: Partial<Omit<S3StoreOptions, 'bucket' | 'prefix'>>;
  file?: Partial<Omit<FileStoreOptions, 'root'>>;
}

export const STORE_URL_SCHEMES = ['memory:', 'file:', 's3:'] as const;

function params(u: URL, allowed: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of u.searchParams) {
    if (!allowed.includes(k)) {
      throw storeErrors.invalid('url', `unknown parameter "${k}" for ${u.protocol}// (allowed: ${allowed.join(', ') || 'none'})`);
    }
    if (out.has(k)) throw storeErrors.invalid('url', `parameter "${k}" is given twice`);
    out.set(k, v);
  }
  return out;
}

function bool(v: string | undefined, name: string): boolean | undefined {
  if (v === undefined) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw storeErrors.invalid('url', `parameter "${name}" must be true or false; got "${v}"`);
}

/** What a store URL names, read without opening anything (parseStoreUrl). */
export type StoreSpec =
  | { kind: 'memory'; versioning: boolean }
  | { kind: 'file'; root: string }
  | ({ kind: 's3' } & Pick<S3StoreOptions, 'bucket' | 'prefix' | 'endpoint' | 'forcePathStyle' | 'region' | 'sse' | 'sseKmsKeyId'>);

/**
 * Reads a store URL without opening anything (no directory made, no client built), so a
 * config is refused before a node starts: InvalidArgument naming what to fix.
 */
export function parseStoreUrl(url: string): StoreSpec {
  if (typeof url !== 'string' || url.trim() === '') throw storeErrors.invalid('url', 'a store URL is required');
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw storeErrors.invalid('url', `not a URL: ${JSON.stringify(url)} (expected memory://, file:///abs/dir or s3://bucket/prefix)`);
  }
  switch (u.protocol) {
    case 'memory:': {
      const p = params(u, ['versioning']);
      if (u.host !== '' || (u.pathname !== '' && u.pathname !== '/')) {
        throw storeErrors.invalid('url', `memory:// takes no host or path; got ${JSON.stringify(url)}`);
      }
      return { kind: 'memory', versioning: bool(p.get('versioning'), 'versioning') === true };
    }
    case 'file:': {
      params(u, []);
      if (u.host !== '' && u.host !== 'localhost') {
        throw storeErrors.invalid('url', `file:// URLs name a local directory: file:///abs/dir (got host "${u.host}")`);
      }
      let root: string;
      try {
        root = fileURLToPath(u);
      } catch (e) {
        throw storeErrors.invalid('url', `not a file path: ${String((e as Error).message)}`);
      }
      if (root === '/' || root === '') throw storeErrors.invalid('url', 'file:/// needs a directory, not the filesystem root');
      return { kind: 'file', root: root.replace(/\/+$/, '') };
    }
    case 's3:': {
      const p = params(u, ['endpoint', 'forcePathStyle', 'region', 'sse', 'sseKmsKeyId']);
      if (u.hostname === '') throw storeErrors.invalid('url', 's3:// needs a bucket: s3://bucket/prefix');
      if (u.username !== '' || u.password !== '' || u.port !== '') {
        throw storeErrors.invalid('url', 's3:// takes a bucket, not credentials or a port (use ?endpoint=)');
      }
      const sse = p.get('sse');
      if (sse !== undefined && sse !== 'AES256' && sse !== 'aws:kms') throw storeErrors.invalid('url', 'sse must be AES256 or aws:kms');
      const forcePathStyle = bool(p.get('forcePathStyle'), 'forcePathStyle');
      const endpoint = p.get('endpoint');
      if (endpoint !== undefined) checkS3Endpoint(endpoint);
      const region = p.get('region');
      const sseKmsKeyId = p.get('sseKmsKeyId');
      return {
        kind: 's3',
        bucket: u.hostname,
        prefix: decodeURIComponent(u.pathname),
        ...(endpoint !== undefined ? { endpoint } : {}),
        ...(forcePathStyle !== undefined ? { forcePathStyle } : {}),
        ...(region !== undefined ? { region } : {}),
        ...(sse !== undefined ? { sse } : {}),
        ...(sseKmsKeyId !== undefined ? { sseKmsKeyId } : {}),
      };
    }
    default:
      throw storeErrors.invalid('url', `unknown store scheme "${u.protocol}" (expected ${STORE_URL_SCHEMES.join(', ')})`);
  }
}

/** Open the store a URL names. Throws InvalidArgument for a URL it cannot use. */
export function openStore(url: string, overrides: OpenStoreOverrides = {}): Store {
  const spec = parseStoreUrl(url);
  switch (spec.kind) {
    case 'memory':
      return new MemoryStore({ versioning: spec.versioning });
    case 'file':
      return new FileStore({ ...overrides.file, root: spec.root });
    case 's3': {
      const { kind: _kind, ...s3 } = spec;
      return new S3Store({ ...overrides.s3, ...s3 });
    }
  }
}
