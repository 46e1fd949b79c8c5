// The provider suite (spec §4.4) against file:///dir, and what only the file provider
// must show: its conditions hold across processes sharing the folder, stale locks are
// broken, temp files of crashed writers are swept, and the folder holds plain files.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync, existsSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, test } from 'node:test';
import { FileStore, openStore } from '../../src/store/index.js';
import { defineProviderSuite, rejectsCode } from './helpers/suite.js';
import { Child } from './helpers/spawn.js';

const roots: string[] = [];
function freshRoot(): string {
  const r = mkdtempSync(join(tmpdir(), 'loam-file-store-'));
  roots.push(r);
  return r;
}
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

defineProviderSuite({
  name: 'file',
  async open() {
    const root = freshRoot();
    return { store: new FileStore({ root }), reopen: async () => new FileStore({ root }), url: pathToFileURL(root).href };
  },
});

const lockFileOf = (root: string, path: string): string =>
  join(root, 'locks', `${createHash('sha256').update(path).digest('hex')}.lock`);

describe('file provider: across processes and crashes', () => {
  test('create-only puts from racing processes: each key has exactly one winner', async () => {
    const root = freshRoot();
    const url = pathToFileURL(root).href;
    const keys = 40;
    const children = ['A', 'B', 'C'].map((id) => ({ id, child: Child.start(['race', url, 'race', String(keys), id]) }));
    for (const { child } of children) await child.waitFor((ev) => ev.some((e) => e.ready), 30_000, 'ready');
    for (const { child } of children) child.send('go');
    const wins = new Map<number, string[]>();
    for (const { id, child } of children) {
      await child.done(60_000);
      const res = child.events.find((e) => 'won' in e) as { won: number[]; others: string[] };
      assert.deepEqual(res.others, [], `${id}: every loss is AlreadyExists`);
      for (const k of res.won) wins.set(k, [...(wins.get(k) ?? []), id]);
    }
    const store = new FileStore({ root });
    for (let k = 0; k < keys; k++) {
      const w = wins.get(k) ?? [];
      assert.equal(w.length, 1, `key ${k}: exactly one process won (${w.join(',')})`);
      assert.equal((await store.get(`race/k${k}`)).bytes.toString(), w[0], `key ${k}: holds the winner's bytes`);
    }
  });

  test('ifMatch read-modify-write from racing processes loses no increment', async (t) => {
    const root = freshRoot();
    const url = pathToFileURL(root).href;
    const store = new FileStore({ root });
    await store.put('counter', Buffer.from('0'));
    const perChild = 40;
    const children = ['A', 'B', 'C'].map(() => Child.start(['cas', url, 'counter', String(perChild)]));
    for (const c of children) await c.waitFor((ev) => ev.some((e) => e.ready), 30_000, 'ready');
    for (const c of children) c.send('go');
    let conflicts = 0;
    for (const c of children) {
      await c.done(120_000);
      conflicts += Number((c.events.find((e) => 'done' in e) as { conflicts: number }).conflicts);
    }
    assert.equal((await store.get('counter')).bytes.toString(), String(3 * perChild), 'every increment applied once');
    t.diagnostic(`${conflicts} ifMatch puts lost a race and retried`);
  });

  test('a lock left by a dead process is broken at once; a live fresh lock makes writers wait, then Retryable', async () => {
    const root = freshRoot();
    const store = new FileStore({ root, lockWaitMs: 300 });
    await store.put('locked', Buffer.from('v1'));
    const lock = lockFileOf(root, 'locked');
    // A dead process (a pid that cannot exist) on this host.
    writeFileSync(lock, JSON.stringify({ token: 'dead', pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), at: Date.now() }));
    const t0 = Date.now();
    await store.put('locked', Buffer.from('v2'));
    assert.ok(Date.now() - t0 < 2_000, 'a dead holder’s lock is broken without waiting for staleness');
    assert.equal((await store.get('locked')).bytes.toString(), 'v2');
    assert.ok(!existsSync(lock), 'the lock is released after the put');

    // A live holder (this process) with a fresh lock: the writer waits out its deadline.
    writeFileSync(lock, JSON.stringify({ token: 'live', pid: process.pid, host: 'another-host', at: Date.now() }));
    const t1 = Date.now();
    await rejectsCode(store.put('locked', Buffer.from('v3')), 'Retryable', 'held lock');
    assert.ok(Date.now() - t1 >= 250, 'it waited for the lock');
    await rejectsCode(store.delete('locked'), 'Retryable', 'delete waits for the same lock');
    assert.equal((await store.get('locked')).bytes.toString(), 'v2', 'nothing changed under a held lock');
    // Create-only needs no lock: it is link(2), atomic on its own.
    await store.put('other', Buffer.from('x'), { ifNoneMatch: '*' });

    // The same lock, once older than the stale limit, is broken.
    const old = new Date(Date.now() - 60_000);
    utimesSync(lock, old, old);
    await store.put('locked', Buffer.from('v4'));
    assert.equal((await store.get('locked')).bytes.toString(), 'v4');
  });

  test('a stale lock is broken by one waiter only (the breaker lock), and every writer gets through', async () => {
    const root = freshRoot();
    const store = new FileStore({ root });
    await store.put('hot', Buffer.from('0'));
    const lock = lockFileOf(root, 'hot');
    writeFileSync(lock, JSON.stringify({ token: 'stale', pid: 1, host: 'gone-host', at: 0 }));
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old);
    const results = await Promise.allSettled(Array.from({ length: 12 }, (_, i) => store.put('hot', Buffer.from(String(i)))));
    assert.deepEqual(results.filter((r) => r.status === 'rejected'), []);
    assert.ok(!existsSync(lock) && !existsSync(`${lock}.break`));
  });

  test('temp files of crashed writers are swept when a store opens; objects are plain files', async () => {
    const root = freshRoot();
    const first = new FileStore({ root });
    await first.put('plain/file.txt', Buffer.from('hello'));
    assert.equal(readFileSync(join(root, 'objects', 'plain', 'file.txt'), 'utf8'), 'hello', 'the object is the file, byte for byte');
    const oldTmp = join(root, 'tmp', 'crashed.tmp');
    const newTmp = join(root, 'tmp', 'in-flight.tmp');
    writeFileSync(oldTmp, 'partial');
    writeFileSync(newTmp, 'partial');
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(oldTmp, old, old);
    const second = new FileStore({ root });
    await second.head('plain/file.txt');
    assert.ok(!existsSync(oldTmp), 'an old temp file is swept');
    assert.ok(existsSync(newTmp), 'a recent one may belong to a live writer and stays');
    assert.deepEqual((await second.list('', { limit: 10 })).items.map((i) => i.path), ['plain/file.txt'], 'temp files are never listed');
  });

  test('one path cannot be both an object and a prefix of objects; a leftover empty directory is no obstacle', async () => {
    const root = freshRoot();
    const store = new FileStore({ root });
    await store.put('a', Buffer.from('object a'));
    await rejectsCode(store.put('a/b', Buffer.from('x')), 'InvalidArgument', 'a/b under object a');
    await store.put('c/d', Buffer.from('x'));
    await rejectsCode(store.put('c', Buffer.from('x')), 'InvalidArgument', 'c over prefix c/');
    await rejectsCode(store.put('c', Buffer.from('x'), { ifNoneMatch: '*' }), 'InvalidArgument', 'create-only c over prefix c/');
    await rejectsCode(store.get('c'), 'NotFound', 'a directory is no object');
    await store.delete('c');
    await store.delete('c/d');
    // c/ is now an empty directory: an object may take its name.
    await store.put('c', Buffer.from('now an object'), { ifNoneMatch: '*' });
    assert.equal((await store.get('c')).bytes.toString(), 'now an object');
    mkdirSync(join(root, 'objects', 'e'));
    await store.put('e', Buffer.from('e'));
    assert.equal((await store.get('e')).bytes.toString(), 'e');
  });

  test('a file outside the rules (not a valid path) is not listed; openStore opens the same folder', async () => {
    const root = freshRoot();
    const store = openStore(pathToFileURL(root).href);
    await store.put('x/y', Buffer.from('1'));
    // A file whose name is no valid path (put there by hand) is not an object.
    writeFileSync(join(root, 'objects', 'x', 'back\\slash'), 'z');
    assert.deepEqual((await store.list('', { limit: 10 })).items.map((i) => i.path), ['x/y']);
    const other = openStore(`file://${root}`);
    assert.equal((await other.get('x/y')).bytes.toString(), '1');
    assert.deepEqual(readdirSync(root).sort(), ['locks', 'objects', 'tmp']);
    await rejectsCode(
      (async () => {
        const s = new FileStore({ root: join(root, 'objects', 'x', 'y') });
        await s.head('z');
      })(),
      'InvalidArgument',
      'a root that is a file',
    );
  });
});
