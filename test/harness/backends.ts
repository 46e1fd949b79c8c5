// Backend factories for the shared suites (conformance, linearizability, faults).
// A suite asks for the backend named by LOAM_TEST_BACKEND (default: embedded) and selects
// its cases by capabilities(), never by backend name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetaStore } from '../../src/meta/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import { openEmbedded, type EmbeddedOptions } from '../../src/meta/backends/embedded/index.js';

export interface OpenOptions {
  /** Fault injection at the backend's transaction points (spec §4.2). */
  faults?: FaultHook;
}

export interface BackendFactory {
  readonly name: string;
  /** A fresh, empty metastore. */
  open(opts?: OpenOptions): Promise<MetaStore>;
  /** Another handle (connection) on the database of `store`, as a second node would have. */
  connect(store: MetaStore, opts?: OpenOptions): Promise<MetaStore>;
  /** How a worker thread or process opens a handle on the same database: plain data. */
  location(store: MetaStore): { backend: string; path: string };
  /** Closes every handle and removes everything the factory created. */
  cleanup(): Promise<void>;
}

export const BACKENDS = ['embedded'] as const;

export function backendName(): string {
  return process.env.LOAM_TEST_BACKEND ?? 'embedded';
}

export function backendFactory(name = backendName(), extra: Partial<EmbeddedOptions> = {}): BackendFactory {
  switch (name) {
    case 'embedded': {
      const dirs: string[] = [];
      const stores: MetaStore[] = [];
      const paths = new Map<MetaStore, string>();
      const openAt = (path: string, opts?: OpenOptions): MetaStore => {
        const s = openEmbedded({ path, ...extra, ...(opts?.faults ? { faults: opts.faults } : {}) });
        stores.push(s);
        paths.set(s, path);
        return s;
      };
      return {
        name,
        async open(opts) {
          // A file, not :memory:, so the suites run on the durable configuration users get.
          const dir = mkdtempSync(join(tmpdir(), 'loam-meta-'));
          dirs.push(dir);
          return openAt(join(dir, 'meta.db'), opts);
        },
        async connect(store, opts) {
          const path = paths.get(store);
          if (!path) throw new Error('connect: store was not opened by this factory');
          return openAt(path, opts);
        },
        location(store) {
          const path = paths.get(store);
          if (!path) throw new Error('location: store was not opened by this factory');
          return { backend: name, path };
        },
        async cleanup() {
          for (const s of stores.splice(0)) await s.close();
          paths.clear();
          for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
        },
      };
    }
    default:
      throw new Error(`unknown backend "${name}"; known: ${BACKENDS.join(', ')}`);
  }
}

/** Opens a handle from a location, inside a worker thread or child process. */
export function openLocation(loc: { backend: string; path: string }): MetaStore {
  switch (loc.backend) {
    case 'embedded':
      return openEmbedded({ path: loc.path });
    default:
      throw new Error(`unknown backend "${loc.backend}"`);
  }
}
