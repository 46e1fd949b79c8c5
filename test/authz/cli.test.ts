// The operator's tenancy commands (`loam orgs|keys|roles|quotas|usage`), run as a user runs
// them: the real CLI in a child process against a `loam dev` data dir.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_REQUEST_RATE } from '../../src/quota/quota.js';
import { program } from '../../src/cli/main.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { controlStoreFor } from '../../src/control/index.js';
import { MAX_USAGE_ROWS } from '../../src/control/types.js';
import { MAX_KEY_TTL_S } from '../../src/authz/operations.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** One CLI run (a process start compiles the TypeScript): generous, but bounded. */
const RUN_DEADLINE_MS = 60_000;
let dir: string;

function loam(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOAM_')));
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'src/cli/loam.mjs'), ...args], { cwd: ROOT, env, timeout: RUN_DEADLINE_MS }, (e, out, err) => {
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : 1) : 0, out, err });
    });
  });
}
const at = () => ['--data-dir', dir];

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'loam-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('orgs, keys, roles, quotas and usage from the command line', async () => {
  const org = await loam('orgs', 'create', 'acme', ...at());
  assert.equal(org.code, 0, org.err);
  const adminKey = /loam_[0-9a-f]{16}_[0-9a-f]{64}/.exec(org.out)?.[0];
  assert.ok(adminKey, `the admin key is printed once: ${org.out}`);
  assert.equal((await loam('orgs', 'create', 'acme', ...at())).code, 1, 'an org name is taken once');
  assert.deepEqual(JSON.parse((await loam('orgs', 'list', ...at())).out).map((o: { id: string }) => o.id), ['acme']);

  const created = await loam('keys', 'create', '--org', 'acme', '--role', 'writer', '--ttl', '3600', ...at());
  assert.equal(created.code, 0, created.err);
  const writerKey = /loam_([0-9a-f]{16})_([0-9a-f]{64})/.exec(created.out);
  assert.ok(writerKey);
  const keyId = writerKey[1]!;
  const list = await loam('keys', 'list', '--org', 'acme', ...at());
  const keys = JSON.parse(list.out) as { keyId: string; expiry: number | null; revoked: number | null }[];
  assert.equal(keys.length, 2);
  assert.ok(keys.find((k) => k.keyId === keyId)!.expiry! > Date.now(), 'the ttl became an expiry');
  for (const secret of [writerKey[2]!, adminKey.slice(22)]) assert.ok(!list.out.includes(secret), 'a list never shows a secret');

  // A ttl out of range is the option's usage error, naming --ttl (not the API's ttl_s), before anything is written.
  for (const ttl of ['abc', '0', '1.5', String(MAX_KEY_TTL_S + 1)]) {
    const bad = await loam('keys', 'create', '--org', 'acme', '--ttl', ttl, ...at());
    assert.equal(bad.code, 2, `--ttl ${ttl}: ${bad.err}`);
    assert.match(bad.err, /--ttl/);
    assert.doesNotMatch(bad.err, /ttl_s/);
  }
  assert.equal(JSON.parse((await loam('keys', 'list', '--org', 'acme', ...at())).out).length, 2, 'no key was created');

  assert.equal((await loam('roles', 'grant', keyId, '--org', 'acme', '--role', 'reader', ...at())).code, 0);
  const revokeRole = await loam('roles', 'revoke', keyId, '--org', 'acme', '--role', 'reader', ...at());
  assert.equal(revokeRole.code, 0, revokeRole.err);

  assert.equal((await loam('quotas', 'set', 'request_rate', '50', '--org', 'acme', ...at())).code, 0);
  const shown = JSON.parse((await loam('quotas', 'show', '--org', 'acme', ...at())).out);
  assert.equal(shown.effective.request_rate, 50);
  assert.equal(shown.defaults.request_rate, DEFAULT_REQUEST_RATE, 'the default is shown beside the override');
  assert.deepEqual(shown.overrides.map((o: { name: string; value: number }) => [o.name, o.value]), [['request_rate', 50]]);
  const bad = await loam('quotas', 'set', 'request_rate', 'lots', '--org', 'acme', ...at());
  assert.equal(bad.code, 1);
  assert.match(bad.err, /value: request_rate must be a number in 1\.\.\d+/);
  const zero = await loam('quotas', 'set', 'request_rate', '0', '--org', 'acme', ...at());
  assert.equal(zero.code, 1, 'a request rate of 0 would lock the org out');
  assert.match(zero.err, /request_rate must be a number in 1\.\./);
  const unknown = await loam('usage', '--org', 'nobody', ...at());
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /org "nobody" not found/);

  assert.equal((await loam('keys', 'revoke', keyId, '--org', 'acme', ...at())).code, 0);
  const after = JSON.parse((await loam('keys', 'list', '--org', 'acme', ...at())).out) as { keyId: string; revoked: number | null }[];
  assert.ok(after.find((k) => k.keyId === keyId)!.revoked !== null, 'the key is marked revoked');
});

test('loam usage prints every row of an org, past one page of the store', async () => {
  assert.equal((await loam('orgs', 'create', 'wide', ...at())).code, 0);
  // Rows as the gateways' rollups write them: more than one page (MAX_USAGE_ROWS).
  const meta = openEmbedded({ path: join(dir, 'meta.db') });
  try {
    const cs = await controlStoreFor(meta);
    const rows = Array.from({ length: MAX_USAGE_ROWS + 250 }, (_, i) => ({ org: 'wide', ns: 1 + (i % 500), metric: 'requests', window: 3_600_000 * (1 + Math.floor(i / 500)), value: 1 }));
    for (let i = 0; i < rows.length; i += MAX_USAGE_ROWS) await cs.putUsage(rows.slice(i, i + MAX_USAGE_ROWS));
  } finally {
    await meta.close();
  }
  const shown = await loam('usage', '--org', 'wide', ...at());
  assert.equal(shown.code, 0, shown.err);
  const got = JSON.parse(shown.out) as { ns: number; window: number }[];
  assert.equal(got.length, MAX_USAGE_ROWS + 250);
  assert.equal(new Set(got.map((r) => `${r.ns}/${r.window}`)).size, got.length, 'each row once');
});

test('every tenancy command has help text', async () => {
  // As a user types it, once…
  const typed = await loam('orgs', 'create', '--help');
  assert.equal(typed.code, 0);
  assert.match(typed.out, /^Usage: loam orgs create /);
  // …and for every tenancy command, from the program in this process (one start, not eleven).
  const helpOf = (c: Command): string => {
    let out = '';
    c.configureOutput({ writeOut: (t) => (out += t) });
    c.outputHelp();
    return out;
  };
  const find = (path: string[]): Command | undefined => path.reduce<Command | undefined>((c, name) => c?.commands.find((s) => s.name() === name), program());
  for (const cmd of [['orgs'], ['orgs', 'create'], ['orgs', 'list'], ['keys', 'create'], ['keys', 'list'], ['keys', 'revoke'], ['roles', 'grant'], ['roles', 'revoke'], ['quotas', 'show'], ['quotas', 'set'], ['usage']]) {
    const c = find(cmd);
    assert.ok(c, `loam ${cmd.join(' ')} exists`);
    const out = helpOf(c);
    const description = out.split('\n').slice(1).find((l) => l.trim() !== '');
    assert.ok(description && !description.startsWith('Options'), `"loam ${cmd.join(' ')} --help" describes the command: ${out}`);
  }
});
