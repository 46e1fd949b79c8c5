// What a backend's registry entry is (src/meta/backends/registry.ts): its URL schemes and
// how it opens. Each backend exports one from `./<backend>/descriptor.ts`.
import type { MetaStore } from '../contract.js';
import type { Connection } from './connections.js';

export interface OpenedBackend {
  meta: MetaStore;
  connection: Connection;
  /** The backend's name, for metrics and logs (never the URL: it may hold a password). */
  backend: string;
}

export interface BackendOpenOptions {
  /** Postgres: the application_name of its connections. */
  applicationName?: string;
  /** Postgres: connections per pool (the read and the write pool each); a process holding many stores keeps each small. */
  poolSize?: number;
}

export interface BackendDescriptor {
  /** The backend's name (embedded, postgres, dynamodb). */
  name: string;
  /** The URL schemes it serves, lower case with the colon ('sqlite:'). */
  schemes: readonly string[];
  /** One line of the URL forms, for help text and errors. */
  urlForm: string;
  /**
   * Reads a URL without connecting, opening or writing anything: an Error saying what is
   * wrong (never printing a password) for one open() would refuse. The node's config runs it
   * when it is read, so `loam config-check` refuses what `loam serve` would; open() runs it too.
   */
  parse(url: string): void;
  /**
   * Checks, on this host and without changing anything, what open() needs and will not make
   * (the embedded backend: the metastore file's directory): an Error saying what to do.
   * `loam config-check` runs it. Absent: nothing to check.
   */
  preflight?(url: string): void;
  /**
   * Opens (connects, migrates, creates the table when missing) and returns the handle; a bad
   * URL or an unreachable service is an Error saying why (never printing a password).
   * The returned meta is closed with meta.close().
   */
  open(url: string, options?: BackendOpenOptions): Promise<OpenedBackend>;
  /**
   * Makes what open() needs and cannot make by itself, idempotently: the embedded backend's
   * directory, the Postgres database, a sharded metastore's shards and directory (DynamoDB's
   * open creates its table). The hosted control plane calls it for each cluster's store
   * (src/controlplane). Absent: open() makes everything itself.
   */
  provision?(url: string): Promise<void>;
}
