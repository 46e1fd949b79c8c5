// Backend factories for the shared suites (conformance, linearizability, faults).
// A suite asks for the backend named by LOAM_TEST_BACKEND (default: embedded) and selects
// its cases by capabilities(), never by backend name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetaStore } from '../../src/meta/index.js';
import { openEmbedded, type EmbeddedOptions } from '../../src/meta/backends/embedded/index.js';

export interface BackendFactory {
  readonly name: string;
  /** A fresh, empty metastore. */
  open(): Promise<MetaStore>;
  /** A second handle on the same database as `open()`'s most recent store, when the backend has one. */
  /** Removes everything the factory created. */
  cleanup(): Promise<void>;
}

export const BACKENDS = ['embedded'] as const;

export function backendName(): string {
  return process.env.LOAM_TEST_BACKEND ?? 'embedded';
}

export function backendFactory(name = backendName(), opts: Partial<EmbeddedOptions> = {}): BackendFactory {
  switch (name) {
    case 'embedded': {
      const dirs: string[] = [];
      const stores: MetaStore[] = [];
      return {
        name,
        async open() {
          // A file, not :memory:, so the suite runs on the durable configuration users get.
          const dir = mkdtempSync(join(tmpdir(), 'loam-meta-'));
          dirs.push(dir);
          const s = openEmbedded({ path: join(dir, 'meta.db'), ...opts });
          stores.push(s);
          return s;
        },
        async cleanup() {
          for (const s of stores.splice(0)) await s.close();
          for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
        },
      };
    }
    default:
      throw new Error(`unknown backend "${name}"; known: ${BACKENDS.join(', ')}`);
  }
}
