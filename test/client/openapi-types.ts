// The client's types come from the server's own OpenAPI document (/v1/openapi.json), through
// openapi-typescript, and are checked in as src/client/api-types.ts. `npm run gen:client`
// regenerates them from a node started here; test/client/types.test.ts fails while the
// checked-in file differs from what the running server's document generates.
import { writeFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { pino } from 'pino';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';

export const TYPES_FILE = new URL('../../src/client/api-types.ts', import.meta.url).pathname;

const HEADER = [
  '// GENERATED from the server\'s /v1/openapi.json by openapi-typescript: do not edit.',
  '// Regenerate with `npm run gen:client` (test/client/types.test.ts checks it is current).',
  '',
].join('\n');

/** A node like `loam dev` (API keys on, every route), in memory, on a free port. */
export async function documentNode(): Promise<LoamNode> {
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent' });
  return startNode(config, { logger: pino({ level: 'silent' }) });
}

/** The server's document, as it serves it. */
export async function fetchDocument(url: string): Promise<object> {
  const r = await fetch(`${url}/v1/openapi.json`, { signal: AbortSignal.timeout(15_000) });
  if (!r.ok) throw new Error(`GET /v1/openapi.json answered ${r.status}`);
  return (await r.json()) as object;
}

/** The TypeScript the document generates (what src/client/api-types.ts must hold). */
export async function typesFor(doc: object): Promise<string> {
  // The package's version changes with every release and is no part of the types.
  const d = { ...doc, info: { ...(doc as { info: object }).info, version: '0' } };
  const ast = await openapiTS(d as never, { alphabetize: true, emptyObjectsUnknown: true });
  return HEADER + astToString(ast);
}

const invokedDirectly = process.argv[1] !== undefined && /openapi-types\.ts$/.test(process.argv[1]);
if (invokedDirectly) {
  const node = await documentNode();
  try {
    writeFileSync(TYPES_FILE, await typesFor(await fetchDocument(node.url)));
    console.log(`wrote ${TYPES_FILE}`);
  } finally {
    await node.close();
  }
}
