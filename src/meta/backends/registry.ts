// The one backend registry (issue 12 item 3, DESIGN §5.1): a metastore URL's scheme names a
// backend descriptor, and the descriptor opens the backend. Each backend exports its
// descriptor from its own folder (`./<backend>/descriptor.ts`); adding a backend is one
// entry here.
//
// A descriptor opens the MetaStore and says which connection it runs on (`Connection`, a
// typed union), so the ControlStore can be opened on the same connection (spec §6) by the
// layer that owns it (src/control): the metastore knows no ControlStore, and nobody needs to
// look at a class name or into a backend's private fields.
import type { MetaStore } from '../contract.js';
import type { Connection } from './connections.js';
import { embeddedDescriptor } from './embedded/descriptor.js';
import { postgresDescriptor } from './postgres/descriptor.js';
import { dynamoDescriptor } from './dynamodb/descriptor.js';

export { connectionOf, registerConnection, type Connection } from './connections.js';

export interface OpenedBackend {
  meta: MetaStore;
  connection: Connection;
  /** The backend's name, for metrics and logs (never the URL: it may hold a password). */
  backend: string;
}

export interface BackendOpenOptions {
  /** Postgres: the application_name of its connections. */
  applicationName?: string;
}

export interface BackendDescriptor {
  /** The backend's name (embedded, postgres, dynamodb). */
  name: string;
  /** The URL schemes it serves, lower case with the colon ('sqlite:'). */
  schemes: readonly string[];
  /** One line of the URL forms, for help text and errors. */
  urlForm: string;
  /**
   * Opens (connects, migrates, creates the table when missing) and returns the handle; a bad
   * URL or an unreachable service is an Error saying why (never printing a password).
   * The returned meta is closed with meta.close().
   */
  open(url: string, options?: BackendOpenOptions): Promise<OpenedBackend>;
}

export const DESCRIPTORS: readonly BackendDescriptor[] = [embeddedDescriptor, postgresDescriptor, dynamoDescriptor];

export const METASTORE_SCHEMES: readonly string[] = DESCRIPTORS.flatMap((d) => d.schemes);

/** The descriptor serving a URL's scheme, or null. */
export function descriptorFor(url: string): BackendDescriptor | null {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  return DESCRIPTORS.find((d) => scheme !== undefined && d.schemes.includes(scheme)) ?? null;
}
