// The outbox drainer killed for real (SIGKILL, in its own process) between writing a batch to
// OpenFGA and acknowledging it: the next lease holder, after the dead one's lease lapses,
// delivers every entry, and the tuples are exactly what the ControlStore holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openFgaUrl } from '../harness/openfga.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { newKey } from '../../src/control/keys.js';
import { OpenFgaAuthorizer } from '../../src/authz/openfga/authorizer.js';
import { isBookkeeping, tupleId } from '../../src/authz/openfga/tuples.js';

test('a drainer killed with SIGKILL mid-batch: the next one delivers everything, nothing is orphaned', async () => {
  const url = await openFgaUrl();
  const path = join(mkdtempSync(join(tmpdir(), 'loam-killed-')), 'meta.db');
  const meta = openEmbedded({ path });
  const cs = openEmbeddedControl(path, { outbox: true });
  await cs.init();
  await cs.createOrg('acme');
  const subjects: string[] = [];
  for (let i = 0; i < 250; i++) {
    const k = newKey();
    await cs.createKey({ keyId: k.keyId, org: 'acme', secretHash: k.secretHash, scopes: ['*'], expiry: null, createdBy: 'test', created: Date.now() });
    await cs.grant({ org: 'acme', subject: `key:${k.keyId}`, role: 'writer', target: { kind: 'org' } });
    subjects.push(`key:${k.keyId}`);
  }
  const store = `t-killed-${process.pid}`;
  const child = spawn(process.execPath, ['--import', 'tsx', new URL('./_drainer-child.ts', import.meta.url).pathname, path, url, store], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('the child wrote no batch within 60 s')), 60_000);
    child.stdout!.on('data', (b: Buffer) => {
      if (b.toString().includes('wrote')) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  child.kill('SIGKILL');
  await exited;
  assert.equal((await cs.outbox(100)).length, 100, 'the killed drainer acknowledged nothing');
  // Changes while nobody drains.
  await cs.revokeGrant({ org: 'acme', subject: subjects[0]!, role: 'writer', target: { kind: 'org' } });
  await cs.revokeKey('acme', subjects[1]!.slice(4));
  const next = new OpenFgaAuthorizer({ url, store, control: cs, meta, logger: pino({ level: 'silent' }), owner: 'next', drain: { pollMs: 20, leaseTtlMs: 1_000, reconcileIntervalMs: 3_600_000 } });
  await next.start();
  const t0 = Date.now();
  while ((await cs.outbox(1)).length > 0) {
    assert.ok(Date.now() - t0 < 20_000, 'the outbox drains once the dead drainer\'s lease lapses');
    await new Promise((r) => setTimeout(r, 50));
  }
  const fga = next.store.client;
  const have = new Set<string>();
  let token: string | undefined;
  for (let i = 0; i < 100; i++) {
    const r = await fga.read({}, { pageSize: 100, ...(token ? { continuationToken: token } : {}) });
    for (const t of r.tuples) if (!isBookkeeping(t.key)) have.add(tupleId(t.key));
    token = r.continuation_token || undefined;
    if (!token) break;
  }
  const want = new Set<string>();
  for (const s of subjects.slice(1)) want.add(tupleId({ user: `api_key:${s.slice(4)}`, relation: 'writer', object: 'org:acme' }));
  for (const s of subjects.slice(2)) want.add(tupleId({ user: `api_key:${s.slice(4)}`, relation: 'member', object: 'org:acme' }));
  want.add(tupleId({ user: `api_key:${subjects[0]!.slice(4)}`, relation: 'member', object: 'org:acme' }));
  assert.deepEqual(have, want);
  await next.close();
  await cs.close();
  await meta.close();
});
