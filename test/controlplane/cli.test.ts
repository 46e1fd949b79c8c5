// `loam clusters create|list|keys` and `loam control-plane --check`, run through the CLI's
// own program (in this process, with stdout, stderr and exit captured): the agent key is
// printed once and only its hash is stored; a revoked key is listed as revoked; mistakes
// exit 1 with a message naming what to fix.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { program } from '../../src/cli/main.js';

let dir: string;
let config: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'loam-cp-cli-'));
  config = join(dir, 'control-plane.json');
  writeFileSync(config, JSON.stringify({ registry: `sqlite:${dir}/registry.db`, clusters: `sqlite:${dir}/clusters/{cluster}.db` }));
});
after(() => rmSync(dir, { recursive: true, force: true }));

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Runs `loam <args>` in process: what it printed and its exit code. */
async function loam(args: string): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const saved = { log: console.log, error: console.error, exit: process.exit };
  console.log = (...a: unknown[]) => void (stdout += `${a.join(' ')}\n`);
  console.error = (...a: unknown[]) => void (stderr += `${a.join(' ')}\n`);
  process.exit = ((code?: number) => {
    throw new Exit(code ?? 0);
  }) as typeof process.exit;
  try {
    await program().exitOverride().parseAsync(args.split(' '), { from: 'user' });
    return { code: 0, stdout, stderr };
  } catch (e) {
    if (e instanceof Exit) return { code: e.code, stdout, stderr };
    throw e;
  } finally {
    Object.assign(console, { log: saved.log, error: saved.error });
    process.exit = saved.exit;
  }
}

describe('loam clusters', () => {
  test('create prints the first agent key once; keys create, list and revoke; nothing stored holds a secret', async () => {
    const c = await loam(`clusters create acme-prod --config ${config}`);
    assert.equal(c.code, 0, c.stderr);
    const first = /loam_agent_([0-9a-f]{16})_([0-9a-f]{64})/.exec(c.stdout)!;
    assert.match(c.stdout, /shown ONCE/);
    assert.match(c.stdout, /LOAM_AGENT_KEY/);
    const again = await loam(`clusters create acme-prod --config ${config}`);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /cluster "acme-prod" already exists/);
    const second = await loam(`clusters keys create acme-prod --config ${config}`);
    assert.equal(second.code, 0, second.stderr);
    const secondId = /^loam_agent_([0-9a-f]{16})_/.exec(second.stdout.trim())![1]!;
    assert.equal((await loam(`clusters keys revoke acme-prod ${first[1]} --config ${config}`)).code, 0);
    const listed = await loam(`clusters keys list acme-prod --config ${config}`);
    const keys = JSON.parse(listed.stdout) as { keyId: string; revoked: number | null }[];
    assert.deepEqual(keys.map((k) => [k.keyId, k.revoked !== null]).sort(), [
      [first[1], true],
      [secondId, false],
    ].sort());
    assert.ok(!listed.stdout.includes(first[2]!));
    const clusters = JSON.parse((await loam(`clusters list --config ${config}`)).stdout) as { id: string; store: string }[];
    assert.deepEqual(clusters.map((x) => [x.id, x.store]), [['acme-prod', `sqlite:${dir}/clusters/acme-prod.db`]]);
    for (const f of (readdirSync(dir, { recursive: true }) as string[]).map((x) => join(dir, x)).filter((x) => statSync(x).isFile())) {
      assert.ok(!readFileSync(f).includes(first[2]!), `${f} holds the agent key's secret`);
    }
  });

  test('mistakes exit 1 saying what to fix', async () => {
    const bad = await loam(`clusters create Acme --config ${config}`);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /cluster_id: must be 3-40 characters of a-z 0-9 -, starting with a letter; got "Acme"/);
    const unknown = await loam(`clusters keys revoke nope-x 0123456789abcdef --config ${config}`);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /agent key 0123456789abcdef of cluster "nope-x" not found/);
  });
});

describe('loam control-plane --check', () => {
  test('prints the resolved config with passwords hidden, or names the setting to fix', async () => {
    const ok = join(dir, 'pg.json');
    writeFileSync(ok, JSON.stringify({ registry: 'postgres://cp:hunter2@db/cp', clusters: 'postgres://cp:hunter2@db/loam_{cluster}' }));
    const r = await loam(`control-plane --config ${ok} --check`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).port, 7443);
    assert.ok(!r.stdout.includes('hunter2'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ registry: `sqlite:${dir}/r.db`, clusters: `sqlite:${dir}/c.db` }));
    const b = await loam(`control-plane --config ${bad} --check`);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /configuration: clusters must contain \{cluster\}/);
  });
});

describe('loam control-plane on a port in use', () => {
  test('names the setting to change: port for the gRPC listener, metrics_port for /metrics', async () => {
    const { createServer } = await import('node:net');
    const held = createServer();
    await new Promise<void>((r) => held.listen(0, '127.0.0.1', () => r()));
    const port = (held.address() as { port: number }).port;
    try {
      const api = await loam(`control-plane --config ${config} --port ${port}`);
      assert.equal(api.code, 1);
      assert.match(api.stderr, new RegExp(`^loam: configuration: port ${port} on 127\\.0\\.0\\.1 is in use .*set port \\(LOAM_CP_PORT\\)`));
      assert.equal(api.stderr.trim().split('\n').length, 1, api.stderr);
      const cfg = join(dir, 'metrics-held.json');
      writeFileSync(cfg, JSON.stringify({ registry: `sqlite:${dir}/registry.db`, clusters: `sqlite:${dir}/clusters/{cluster}.db`, metrics_port: port }));
      const m = await loam(`control-plane --config ${cfg} --port 0`);
      assert.equal(m.code, 1);
      assert.match(m.stderr, new RegExp(`^loam: configuration: metrics_port ${port} on 127\\.0\\.0\\.1 is in use .*set metrics_port \\(LOAM_CP_METRICS_PORT\\)`));
    } finally {
      held.close();
    }
  });
});
