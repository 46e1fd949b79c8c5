// The authorizer the security suites run with (test/run.ts sets LOAM_TEST_AUTHORIZER per
// pass): 'builtin' (the default) or 'openfga', against the OpenFGA test server, in a store of
// this process's own so files never see each other's tuples. Nodes of one file share it.
import { randomBytes } from 'node:crypto';
import { openFgaUrl } from './openfga.js';

export const TEST_AUTHORIZER: 'builtin' | 'openfga' = process.env.LOAM_TEST_AUTHORIZER === 'openfga' ? 'openfga' : 'builtin';
export const TEST_OPENFGA_STORE = `loam-test-${process.pid}-${randomBytes(4).toString('hex')}`;

/** Config settings selecting the test authorizer (spread into resolveConfig). */
export async function authorizerSettings(): Promise<Record<string, unknown>> {
  if (TEST_AUTHORIZER !== 'openfga') return {};
  return { authorizer: 'openfga', openfga_url: await openFgaUrl(), openfga_store: TEST_OPENFGA_STORE };
}
