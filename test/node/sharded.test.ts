// Two nodes on a sharded metastore (docs/sharding.md: "metastore": { "shards", "directory" }
// in the config) and one bucket: namespaces land on different shards, a write on one node is
// read with its token on the other, the workers apply it, and `loam namespaces where` and
// `loam shards list` show the placement.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';
import { FAST, http, until } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);

test('two nodes on a sharded metastore: placement over the shards, tokens honoured across nodes, the CLI shows where', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-sharded-node-'));
  const metastore = {
    shards: [`sqlite:${join(dir, 'a.db')}`, `sqlite:${join(dir, 'b.db')}`, { name: 'eu', url: `sqlite:${join(dir, 'c.db')}` }],
    directory: `sqlite:${join(dir, 'directory.db')}`,
  };
  const configFile = join(dir, 'loam.json');
  writeFileSync(configFile, JSON.stringify({ metastore, store: 'memory://' }));
  const store = new MemoryStore();
  const config = resolveConfig({ metastore, store: 'memory://', port: 0, log_level: 'silent', ...FAST });
  const logger = pino({ level: process.env.LOAM_TEST_LOG ?? 'silent' });
  const a = await startNode(config, { store, logger });
  const b = await startNode(config, { store, logger });
  try {
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    for (const name of names) {
      assert.equal((await http(a.url, 'POST', '/v1/namespaces', { name })).status, 201);
      assert.equal((await http(b.url, 'POST', `/v1/namespaces/${name}/collections`, { name: 'kv', primary_key: 'k', partitions: 2 })).status, 201);
    }
    const listed = await http(b.url, 'GET', '/v1/namespaces?page_size=4');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.items.map((n: { name: string }) => n.name), names.slice(0, 4));
    for (const [i, name] of names.entries()) {
      const w = await http(a.url, 'POST', `/v1/namespaces/${name}/collections/kv/documents`, { upserts: [{ k: `k${i}`, name }] });
      assert.equal(w.status, 200, JSON.stringify(w.body));
      const r = await http(b.url, 'GET', `/v1/namespaces/${name}/collections/kv/documents/k${i}?token=${w.body.token}`);
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.name, name);
    }
    await until(async () => (await http(a.url, 'GET', `/v1/namespaces/foxtrot/collections/kv/documents/k5?consistency=eventual`)).status === 200, 15_000);

    // Placement over the shards is the sharded suite's; here the CLI reads it from the config.
    const where = new Map<string, string>();
    for (const name of ['alpha', 'bravo']) {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'namespaces', 'where', name, '--config', configFile, '-o', 'json'], { cwd: ROOT });
      const e = JSON.parse(stdout) as { shard: string; state: string; where: string };
      assert.equal(e.state, 'live');
      assert.ok(e.where.startsWith('sqlite:'), e.where);
      where.set(name, e.shard);
    }
    assert.notEqual(where.get('alpha'), where.get('bravo'), `placed on different shards: ${JSON.stringify([...where])}`);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'shards', 'list', '--config', configFile, '-o', 'json'], { cwd: ROOT });
    const shards = JSON.parse(stdout) as { directoryVersion: number; shards: { name: string }[] };
    assert.deepEqual(shards.shards.map((s) => s.name), ['s0', 's1', 'eu']);
    assert.ok(shards.directoryVersion >= names.length * 2, 'a reserve and a mark per namespace');
  } finally {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
