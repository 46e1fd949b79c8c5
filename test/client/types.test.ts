// The checked-in client types are what the running server's OpenAPI document generates; and
// `loam/client` works as a package export: built, imported by plain Node, type-checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentNode, fetchDocument, typesFor, TYPES_FILE } from './openapi-types.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');

test('src/client/api-types.ts is what the running server\'s /v1/openapi.json generates', async () => {
  const node = await documentNode();
  try {
    const want = await typesFor(await fetchDocument(node.url));
    const have = readFileSync(TYPES_FILE, 'utf8');
    assert.ok(have === want, 'src/client/api-types.ts is out of date with the server\'s OpenAPI document: run `npm run gen:client` and commit the result');
  } finally {
    await node.close();
  }
});

test('loam/client: built by npm run build:client, imported by name from plain Node, typed for a TypeScript user', () => {
  execFileSync(process.execPath, [TSC, '-p', 'src/client/tsconfig.json'], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  // Plain Node (no TypeScript loader) resolves the export through package.json.
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', "import { LoamClient, LoamError } from 'loam/client'; console.log(typeof LoamClient, new LoamError('x', 404, 'm').status)"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(out.trim(), 'function 404');
  // A user's TypeScript: what the types allow compiles, a wrong body does not.
  const dir = join(ROOT, 'dist', 'client-consumer-check');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const tsconfig = { compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: [] }, include: ['*.ts'] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const ok = `import { LoamClient, type Namespace } from 'loam/client';
const c = new LoamClient({ url: 'http://127.0.0.1:7070' });
export const n: Promise<Namespace> = c.namespaces.create('demo');
export const w = c.collection('demo', 'books').write({ upserts: [{ id: 'b1' }], deletes: ['b2'] });
`;
  writeFileSync(join(dir, 'user.ts'), ok);
  execFileSync(process.execPath, [TSC, '-p', dir], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  writeFileSync(join(dir, 'user.ts'), `${ok}export const bad = c.collections.create('demo', { name: 'x' });\n`);
  let failed = '';
  try {
    execFileSync(process.execPath, [TSC, '-p', dir], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  } catch (e) {
    failed = String((e as { stdout?: Buffer }).stdout ?? e);
  }
  assert.match(failed, /primary_key/, 'a collection without its primary_key does not type-check');
  rmSync(dir, { recursive: true, force: true });
});
