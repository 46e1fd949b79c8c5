// `loam namespaces move` (docs/sharding.md "Moves"): the phases and counts it prints, the
// directory entry it leaves, and its clear errors, on a config with two sqlite shards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backendName } from '../harness/backends.js';
import { envOverrides, resolveConfig } from '../../src/node/config.js';
import { openMetastore } from '../../src/node/backends.js';
import { ShardedMetaStore } from '../../src/meta/backends/sharded/index.js';
import { MOVE_PHASES } from '../../src/meta/backends/sharded/move.js';
import { program } from '../../src/cli/main.js';

const LOAM = fileURLToPath(new URL('../../src/cli/loam.mjs', import.meta.url));
// The command's own config (two sqlite shards): it runs once, in the all-embedded stage.
const skip = backendName() === 'sharded' ? false : 'runs once, in the sharded stage';

function loam(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [LOAM, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    p.on('error', reject);
    p.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('loam namespaces move', { skip }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-move-cli-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  const metastore = { shards: [`sqlite:${join(dir, 's0.db')}`, `sqlite:${join(dir, 's1.db')}`], directory: `sqlite:${join(dir, 'dir.db')}` };
  const config = join(dir, 'loam.json');
  writeFileSync(config, JSON.stringify({ metastore, store: `file://${join(dir, 'store')}` }));

  test('prints every phase with the counts, and the namespace is on the target after; bad input is a clear error', async () => {
    const { meta } = await openMetastore(resolveConfig({ metastore, store: 'memory://' }, envOverrides()).metastore);
    assert.ok(meta instanceof ShardedMetaStore);
    const ns = await meta.createNamespace({ org: 'acme', name: 'prod' });
    for (let i = 0; i < 3; i++) await meta.createCollection({ ns: ns.id, name: `c${i}`, schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
    const from = (await meta.router.reload(ns.id)).shard;
    await meta.close();
    const to = from === 's0' ? 's1' : 's0';

    const bad = await loam(['namespaces', 'move', 'prod', '--org', 'acme', '--to', 'nowhere', '--config', config]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /^loam: to: unknown shard "nowhere"; the shards are s0, s1\n$/);
    const ok = await loam(['namespaces', 'move', 'prod', '--org', 'acme', '--to', to, '--config', config]);
    assert.equal(ok.code, 0, ok.stderr);
    const lines = ok.stdout.trim().split('\n');
    assert.deepEqual(lines.slice(0, MOVE_PHASES.length).map((l) => l.split(/\s+/)[0]), MOVE_PHASES);
    assert.match(lines[0]!, new RegExp(`namespace ${ns.id}: ${from} → ${to}, move epoch 1`));
    assert.match(lines.find((l) => l.startsWith('precopied'))!, /\d+ rows: 3 collections, 3 streams, 0 index entries/);
    assert.match(lines.find((l) => l.startsWith('synced'))!, /\d+ rows changed during the pre-copy/);
    assert.match(lines.find((l) => l.startsWith('copied'))!, /\d+ rows changed since/);
    assert.match(lines[lines.length - 1]!, new RegExp(`^acme/prod is on shard ${to} \\(\\d+ ms\\)$`));

    const { meta: after } = await openMetastore(resolveConfig({ metastore, store: 'memory://' }, envOverrides()).metastore);
    assert.ok(after instanceof ShardedMetaStore);
    const e = await after.router.reload(ns.id);
    await after.close();
    assert.deepEqual([e.shard, e.state], [to, 'live']);
    // The help text, in process (the every-command help test runs it as a user types it).
    const move = program().commands.find((c) => c.name() === 'namespaces')!.commands.find((c) => c.name() === 'move')!;
    let help = '';
    move.configureOutput({ writeOut: (s) => (help += s) });
    move.outputHelp();
    assert.match(help, /checked tracked precopied marked synced fenced copied flipped retired unfenced live removed done/);
    assert.match(help, /Example:\n {2}loam namespaces move prod --to eu/);
  });
});
