// The Store provider suite (spec §4.4): the spec's eight checks, plus streams, multipart,
// paths and the versioned extension (spec §9.9), as one set of cases run against every
// provider through a harness. Cases depend on capabilities, never on a provider's name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  comparePaths,
  isStoreError,
  type ByteRange,
  type ObjectInfo,
  type ObjectVersion,
  type Store,
  type StoreErrorCode,
} from '../../../src/store/index.js';
import { contentFor } from './content.js';
import { Child } from './spawn.js';

export interface Opened {
  /** A store over a fresh, empty namespace (its own directory or key prefix). */
  store: Store;
  /** A new handle over the same bytes, as a restarted process would open it. */
  reopen(): Promise<Store>;
  /** A URL another process can pass to openStore for the same namespace (durable providers). */
  url?: string;
}

export interface ProviderHarness {
  name: string;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  open(): Promise<Opened>;
  /** Environment a child process needs to open `url` (credentials). */
  childEnv?(): Record<string, string>;
  /** Restart the server that holds the bytes: gracefully, or by kill -9 (check 8). */
  restartServer?(kind: 'graceful' | 'kill9'): Promise<void>;
  /** A store with server-side encryption on, and a way to confirm an object is encrypted (check 3). */
  openSse?(): Promise<{ store: Store; isEncrypted(path: string): Promise<boolean> }>;
  /** A store over a versioned bucket (spec §9.9); absent when the provider has no versioning. */
  openVersioned?(): Promise<Store>;
  /** A store that uploads objects over `thresholdBytes` in parts; `open()` is used when absent. */
  openMultipart?(): Promise<{ store: Store; thresholdBytes: number }>;
}

/** Fail unless `p` rejects with a StoreError of `code`. */
export async function rejectsCode(p: Promise<unknown>, code: StoreErrorCode, what = ''): Promise<void> {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(isStoreError(e), `${what}: expected StoreError(${code}), got ${String(e)}`);
    assert.equal(e.code, code, `${what}: ${e.message}`);
    return true;
  });
}

/** Every page of a listing, checking page sizes and cursors on the way (bounded). */
export async function listAll(store: Store, prefix: string, limit: number): Promise<{ items: ObjectInfo[]; pages: number }> {
  const items: ObjectInfo[] = [];
  let after: string | undefined;
  for (let pages = 1; pages <= 10_000; pages++) {
    const page = await store.list(prefix, after === undefined ? { limit } : { after, limit });
    assert.ok(page.items.length <= limit, `a page holds at most ${limit}`);
    items.push(...page.items);
    if (page.next === undefined) return { items, pages };
    assert.equal(page.next, page.items[page.items.length - 1]?.path, 'next is the last path of the page');
    after = page.next;
  }
  throw new Error('listing did not end');
}

async function listAllVersions(store: Store, prefix: string, limit: number): Promise<ObjectVersion[]> {
  const items: ObjectVersion[] = [];
  let after: string | undefined;
  for (let pages = 1; pages <= 10_000; pages++) {
    const page = await store.listVersions(prefix, after === undefined ? { limit } : { after, limit });
    assert.ok(page.items.length <= limit);
    items.push(...page.items);
    if (page.next === undefined) return items;
    after = page.next;
  }
  throw new Error('version listing did not end');
}

const text = (s: string): Buffer => Buffer.from(s, 'utf8');

/** A multi-part-sized object whose bytes depend on `tag` and position. */
function bigObject(bytes: number, tag: number): Buffer {
  const b = Buffer.allocUnsafe(bytes);
  for (let i = 0; i < bytes; i++) b[i] = (Math.imul(i ^ tag, 2654435761) >>> 13) & 0xff;
  return b;
}

async function* chunks(parts: Buffer[]): AsyncIterable<Uint8Array> {
  for (const p of parts) yield p;
}

export function defineProviderSuite(h: ProviderHarness): void {
  const opened: Store[] = [];
  const open = async (): Promise<Opened> => {
    const o = await h.open();
    opened.push(o.store);
    return {
      ...o,
      reopen: async () => {
        const s = await o.reopen();
        opened.push(s);
        return s;
      },
    };
  };

  describe(`${h.name} provider`, () => {
    before(async () => {
      await h.setup?.();
    });
    after(async () => {
      for (const s of opened) await s.close().catch(() => undefined);
      await h.teardown?.();
    });

    test('1. 16 concurrent create-only puts on one key: exactly one succeeds, 15 get AlreadyExists', async () => {
      const { store } = await open();
      for (let round = 0; round < 3; round++) {
        const key = `race/key-${round}`;
        const results = await Promise.allSettled(
          Array.from({ length: 16 }, (_, i) => store.put(key, text(`writer-${i}`), { ifNoneMatch: '*' })),
        );
        const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [{ i, etag: r.value.etag }] : []));
        const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
        assert.equal(won.length, 1, `round ${round}: exactly one create-only put succeeds`);
        assert.equal(lost.length, 15);
        for (const e of lost) {
          assert.ok(isStoreError(e, 'AlreadyExists'), `the others get AlreadyExists, got ${String(e)}`);
        }
        const got = await store.get(key);
        assert.equal(got.bytes.toString(), `writer-${won[0]!.i}`, 'the stored bytes are the winner’s');
        assert.equal(got.etag, won[0]!.etag);
      }
    });

    test('2. an ifMatch chain v1 → v2 → v3; a stale ETag and a missing key get PreconditionFailed', async () => {
      const { store } = await open();
      const p = 'cas/doc';
      const v1 = await store.put(p, text('v1'), { ifNoneMatch: '*' });
      const v2 = await store.put(p, text('v2'), { ifMatch: v1.etag });
      const v3 = await store.put(p, text('v3'), { ifMatch: v2.etag });
      assert.notEqual(v1.etag, v2.etag);
      assert.notEqual(v2.etag, v3.etag);
      await rejectsCode(store.put(p, text('stale'), { ifMatch: v1.etag }), 'PreconditionFailed', 'stale v1');
      await rejectsCode(store.put(p, text('stale'), { ifMatch: v2.etag }), 'PreconditionFailed', 'stale v2');
      await rejectsCode(store.put('cas/missing', text('x'), { ifMatch: v3.etag }), 'PreconditionFailed', 'missing key');
      await rejectsCode(store.head('cas/missing'), 'NotFound', 'a failed ifMatch creates nothing');
      await rejectsCode(store.put(p, text('again'), { ifNoneMatch: '*' }), 'AlreadyExists', 'create-only on an existing key');
      const got = await store.get(p);
      assert.equal(got.bytes.toString(), 'v3');
      assert.equal(got.etag, v3.etag);
      await store.delete(p);
      await rejectsCode(store.put(p, text('v4'), { ifMatch: v3.etag }), 'PreconditionFailed', 'ifMatch after delete');
    });

    test('3. the ETag a put returns equals the ETag from head, get, a ranged get and list', async () => {
      const { store } = await open();
      for (const size of [0, 1, 1000, 300_000]) {
        const path = `etag/size-${size}`;
        const bytes = bigObject(size, size);
        const { etag } = await store.put(path, bytes);
        assert.match(etag, /^".+"$/, 'ETags are quoted, as S3 returns them');
        assert.equal((await store.head(path)).etag, etag, `head, ${size} bytes`);
        const got = await store.get(path);
        assert.equal(got.etag, etag, `get, ${size} bytes`);
        assert.ok(got.bytes.equals(bytes));
        if (size > 0) assert.equal((await store.get(path, { range: { start: 0, end: 1 } })).etag, etag, 'ranged get');
        const listed = (await store.list(path, { limit: 10 })).items.find((i) => i.path === path);
        assert.equal(listed?.etag, etag, 'list');
        assert.equal(listed?.size, size);
      }
    });

    if (h.openSse) {
      const openSse = h.openSse;
      test('3. (SSE) with server-side encryption on, put, head and get return the same ETag', async () => {
        const { store, isEncrypted } = await openSse();
        opened.push(store);
        for (const size of [1, 70_000]) {
          const path = `sse/obj-${size}`;
          const bytes = bigObject(size, 7);
          const { etag } = await store.put(path, bytes);
          assert.ok(await isEncrypted(path), 'the server reports the object encrypted');
          assert.equal((await store.head(path)).etag, etag);
          const got = await store.get(path);
          assert.equal(got.etag, etag);
          assert.ok(got.bytes.equals(bytes));
          const v2 = await store.put(path, text('next'), { ifMatch: etag });
          assert.equal((await store.head(path)).etag, v2.etag, 'ifMatch works on encrypted objects');
        }
      });
    }

    test('4. bounded ranges, ranges past the end and invalid ranges', async () => {
      const { store } = await open();
      const p = 'range/digits';
      await store.put(p, text('0123456789'));
      const read = async (range: ByteRange) => {
        const r = await store.get(p, { range });
        assert.equal(r.size, 10, 'size is the whole object’s');
        return { s: r.bytes.toString(), range: r.range };
      };
      assert.deepEqual(await read({ start: 2, end: 5 }), { s: '234', range: { start: 2, end: 5 } });
      assert.deepEqual(await read({ start: 0, end: 10 }), { s: '0123456789', range: { start: 0, end: 10 } });
      assert.deepEqual(await read({ start: 0 }), { s: '0123456789', range: { start: 0, end: 10 } });
      assert.deepEqual(await read({ start: 9 }), { s: '9', range: { start: 9, end: 10 } });
      assert.deepEqual(await read({ start: 9, end: 10 }), { s: '9', range: { start: 9, end: 10 } });
      // Past the end: clamped.
      assert.deepEqual(await read({ start: 8, end: 100 }), { s: '89', range: { start: 8, end: 10 } });
      // Suffixes.
      assert.deepEqual(await read({ suffix: 3 }), { s: '789', range: { start: 7, end: 10 } });
      assert.deepEqual(await read({ suffix: 10 }), { s: '0123456789', range: { start: 0, end: 10 } });
      assert.deepEqual(await read({ suffix: 50 }), { s: '0123456789', range: { start: 0, end: 10 } });
      // Unsatisfiable: starting at or past the end.
      await rejectsCode(store.get(p, { range: { start: 10 } }), 'InvalidRange', 'start = size');
      await rejectsCode(store.get(p, { range: { start: 11, end: 20 } }), 'InvalidRange', 'start > size');
      // Malformed.
      const bad: unknown[] = [
        { start: 5, end: 5 },
        { start: 6, end: 5 },
        { start: -1 },
        { start: 1.5 },
        { start: 0, end: Number.NaN },
        { suffix: 0 },
        { suffix: -2 },
        {},
      ];
      for (const range of bad) {
        await rejectsCode(store.get(p, { range: range as ByteRange }), 'InvalidRange', JSON.stringify(range));
      }
      // An empty object has no satisfiable range.
      await store.put('range/empty', Buffer.alloc(0));
      assert.equal((await store.get('range/empty')).size, 0);
      await rejectsCode(store.get('range/empty', { range: { start: 0 } }), 'InvalidRange', 'empty object, start 0');
      await rejectsCode(store.get('range/empty', { range: { suffix: 1 } }), 'InvalidRange', 'empty object, suffix');
      // A valid range on a missing object is NotFound.
      await rejectsCode(store.get('range/missing', { range: { start: 0, end: 1 } }), 'NotFound');
      // A larger object: ranges are exact slices.
      const big = bigObject(300_000, 3);
      await store.put('range/big', big);
      const mid = await store.get('range/big', { range: { start: 65_531, end: 200_003 } });
      assert.ok(mid.bytes.equals(big.subarray(65_531, 200_003)));
      const tail = await store.get('range/big', { range: { suffix: 12_345 } });
      assert.ok(tail.bytes.equals(big.subarray(300_000 - 12_345)));
    });

    test('5. a list right after a put includes the new key, also across pages', async () => {
      const { store } = await open();
      const names = Array.from({ length: 25 }, (_, i) => `list/k-${String(i).padStart(2, '0')}`);
      // Byte order, not locale order: "-" (0x2d) sorts before "/" (0x2f), "é" after "z".
      names.push('list/sub/a', 'list/sub-b', 'list/sub/c/d', 'list/zé', 'list/z');
      for (let i = 0; i < names.length; i += 8) await Promise.all(names.slice(i, i + 8).map((n) => store.put(n, text(n))));
      await store.put('lisz/outside', text('x'));
      await store.put('lista', text('not under list/'));

      await store.put('list/new', text('new'));
      const first = await store.list('list/', { limit: 1000 });
      assert.ok(first.items.some((i) => i.path === 'list/new'), 'the new key is listed at once');
      assert.equal(first.next, undefined);

      const expected = [...names, 'list/new'].sort(comparePaths);
      const paged = await listAll(store, 'list/', 7);
      assert.deepEqual(paged.items.map((i) => i.path), expected, 'pages hold every key once, in byte order');
      assert.equal(paged.pages, Math.ceil(expected.length / 7));
      for (const i of paged.items) assert.equal(i.size, Buffer.byteLength(i.path === 'list/new' ? 'new' : i.path));

      // A key put between pages, after the first page's end, shows up on a later page.
      const p1 = await store.list('list/', { limit: 5 });
      assert.ok(p1.next !== undefined);
      await store.put('list/k-99', text('late'));
      const rest: string[] = [];
      let after: string | undefined = p1.next;
      for (let n = 0; n < 100 && after !== undefined; n++) {
        const pg = await store.list('list/', { after, limit: 5 });
        rest.push(...pg.items.map((i) => i.path));
        after = pg.next;
      }
      assert.ok(rest.includes('list/k-99'), 'a key put between pages is listed');

      // A prefix part-way into a segment, and the whole store.
      assert.deepEqual((await store.list('list/sub', { limit: 100 })).items.map((i) => i.path), ['list/sub-b', 'list/sub/a', 'list/sub/c/d']);
      assert.deepEqual((await store.list('list/k-1', { limit: 100 })).items.length, 10);
      const all = await listAll(store, '', 1000);
      assert.ok(all.items.some((i) => i.path === 'lisz/outside') && all.items.some((i) => i.path === 'lista'));
      assert.deepEqual((await store.list('nothing/', { limit: 10 })).items, []);
      await rejectsCode(store.list('list/', { limit: 0 }), 'InvalidArgument', 'limit 0');
      await rejectsCode(store.list('list/', { limit: 1001 }), 'InvalidArgument', 'limit 1001');
    });

    test('6. deleting a missing key returns Ok', async () => {
      const { store } = await open();
      assert.equal(await store.delete('del/missing'), undefined);
      assert.equal(await store.delete('del/never/was/here'), undefined);
      await store.put('del/x', text('x'));
      await store.delete('del/x');
      await rejectsCode(store.get('del/x'), 'NotFound');
      await rejectsCode(store.head('del/x'), 'NotFound');
      assert.equal(await store.delete('del/x'), undefined, 'deleting twice is fine');
      assert.deepEqual((await store.list('del/', { limit: 10 })).items, []);
      await store.put('del/x', text('again'), { ifNoneMatch: '*' });
      assert.equal((await store.get('del/x')).bytes.toString(), 'again', 'a deleted key can be created again');
    });

    test('7. a read right after an overwrite returns the new bytes', async () => {
      const { store } = await open();
      const p = 'overwrite/doc';
      let prev: string | undefined;
      for (let i = 0; i < 20; i++) {
        const bytes = contentFor(i * 13);
        const { etag } = await store.put(p, bytes);
        if (prev !== undefined) assert.notEqual(etag, prev);
        const got = await store.get(p);
        assert.ok(got.bytes.equals(bytes), `overwrite ${i}: get returns the new bytes`);
        assert.equal(got.etag, etag);
        assert.deepEqual(await store.head(p), { etag, size: bytes.length });
        prev = etag;
      }
    });

    test('8. objects survive a restart and a kill -9 (of the server, and of a writing process)', async (t) => {
      const o = await open();
      const caps = o.store.capabilities();
      if (!caps.durable) {
        // A provider without durability says so; a new handle starts empty.
        assert.equal(caps.durable, false);
        await o.store.put('durable/x', text('x'));
        await rejectsCode((await o.reopen()).get('durable/x'), 'NotFound', 'a new in-process store is empty');
        t.diagnostic(`${h.name}: capabilities().durable is false; nothing to restart`);
        return;
      }
      const acked = new Map<string, { etag: string; i: number }>();
      const putAcked = async (store: Store, i: number): Promise<void> => {
        const path = `durable/obj-${String(i).padStart(5, '0')}`;
        const { etag } = await store.put(path, contentFor(i));
        acked.set(path, { etag, i });
      };
      const verify = async (store: Store, what: string): Promise<void> => {
        for (const [path, { etag, i }] of acked) {
          const got = await store.get(path);
          assert.equal(got.etag, etag, `${what}: ${path} keeps its ETag`);
          assert.ok(got.bytes.equals(contentFor(i)), `${what}: ${path} keeps its bytes`);
        }
      };
      for (let i = 0; i < 12; i++) await putAcked(o.store, i);

      await h.restartServer?.('graceful');
      await verify(await o.reopen(), 'after a restart');

      if (h.restartServer) {
        // Writes in flight while the server is killed: every acknowledged one survives.
        let stop = false;
        let failures = 0;
        const writer = (async () => {
          for (let i = 100; i < 400 && !stop; i++) {
            try {
              await putAcked(o.store, i);
            } catch (e) {
              assert.ok(isStoreError(e) && e.code === 'Retryable', `a write during the kill is Retryable: ${String(e)}`);
              failures++;
            }
          }
        })();
        const deadline = Date.now() + 30_000;
        while (acked.size < 17 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
        await h.restartServer('kill9');
        stop = true;
        await writer;
        t.diagnostic(`${acked.size} acknowledged objects, ${failures} writes failed while the server was down`);
        await verify(await o.reopen(), 'after kill -9 of the server');
      }

      if (o.url !== undefined) {
        // A writing process killed with SIGKILL: what it acknowledged is there, nothing is torn.
        const child = Child.start(['write', o.url, 'crash', '400'], h.childEnv?.() ?? {});
        try {
          await child.waitFor((ev) => ev.filter((e) => 'ack' in e).length >= 25, 60_000, '25 acknowledged writes');
          // Kill at an arbitrary moment, most likely in the middle of a put.
          await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 20)));
        } finally {
          await child.kill9();
        }
        const acks = child.events.filter((e) => 'ack' in e) as { ack: string; etag: string; i: number }[];
        const store = await o.reopen();
        for (const a of acks) {
          const got = await store.get(a.ack);
          assert.equal(got.etag, a.etag, `${a.ack}: acknowledged ETag`);
          assert.ok(got.bytes.equals(contentFor(a.i)), `${a.ack}: acknowledged bytes`);
        }
        const { items } = await listAll(store, 'crash/', 1000);
        assert.ok(items.length >= acks.length);
        for (const it of items) {
          const i = Number(it.path.slice('crash/obj-'.length));
          const got = await store.get(it.path);
          assert.ok(got.bytes.equals(contentFor(i)), `${it.path}: no torn object after the kill`);
        }
        t.diagnostic(`writer killed after ${acks.length} acknowledged puts; ${items.length} objects present`);
      }
    });

    test('streams: putStream writes the chunks in order, under the same conditions', async () => {
      const { store } = await open();
      const parts = [text('alpha-'), Buffer.alloc(0), bigObject(100_000, 1), text('-omega')];
      const whole = Buffer.concat(parts);
      const { etag } = await store.putStream('stream/a', chunks(parts), { ifNoneMatch: '*' });
      const got = await store.get('stream/a');
      assert.ok(got.bytes.equals(whole));
      assert.equal(got.etag, etag);
      assert.equal((await store.head('stream/a')).etag, etag);
      await rejectsCode(store.putStream('stream/a', chunks([text('x')]), { ifNoneMatch: '*' }), 'AlreadyExists');
      await rejectsCode(store.putStream('stream/a', chunks([text('x')]), { ifMatch: '"0"' }), 'PreconditionFailed');
      await rejectsCode(store.putStream('stream/none', chunks([text('x')]), { ifMatch: etag }), 'PreconditionFailed');
      const v2 = await store.putStream('stream/a', chunks([text('v2')]), { ifMatch: etag });
      assert.equal((await store.get('stream/a')).bytes.toString(), 'v2');
      assert.equal((await store.head('stream/a')).etag, v2.etag);
    });

    test('large objects (multipart where the provider has it) keep the conditions', async () => {
      const mp = h.openMultipart ? await h.openMultipart() : { store: (await open()).store, thresholdBytes: 0 };
      if (h.openMultipart) opened.push(mp.store);
      const store = mp.store;
      const size = Math.max(mp.thresholdBytes, 5 * 1024 * 1024) + 3 * 1024 * 1024 + 17;
      const a = bigObject(size, 11);
      const b = bigObject(size, 12);
      const { etag } = await store.put('big/obj', a, { ifNoneMatch: '*' });
      if (store.capabilities().multipart) assert.match(etag, /-\d+"$/, 'a multipart ETag names its part count');
      assert.equal((await store.head('big/obj')).etag, etag);
      assert.deepEqual(await store.head('big/obj'), { etag, size });
      assert.ok((await store.get('big/obj')).bytes.equals(a));
      await rejectsCode(store.put('big/obj', b, { ifNoneMatch: '*' }), 'AlreadyExists', 'create-only');
      await rejectsCode(store.put('big/obj', b, { ifMatch: '"00000000000000000000000000000000-2"' }), 'PreconditionFailed', 'stale');
      const v2 = await store.put('big/obj', b, { ifMatch: etag });
      assert.ok((await store.get('big/obj')).bytes.equals(b));
      assert.equal((await store.head('big/obj')).etag, v2.etag);
      const ranged = await store.get('big/obj', { range: { start: size - 1_000_000, end: size - 10 } });
      assert.ok(ranged.bytes.equals(b.subarray(size - 1_000_000, size - 10)));
      const streamed = await store.putStream('big/streamed', chunks([a.subarray(0, 4_000_000), a.subarray(4_000_000)]), {
        ifNoneMatch: '*',
      });
      assert.equal((await store.head('big/streamed')).etag, streamed.etag);
      assert.ok((await store.get('big/streamed')).bytes.equals(a));
    });

    test('paths: invalid paths are InvalidArgument on every call; Unicode paths work', async () => {
      const { store } = await open();
      const bad = ['', '/a', 'a/', 'a//b', 'a/../b', './a', 'a/.', 'a\\b', 'a\u0000b', 'a\nb', 'x'.repeat(1025), `a/${'y'.repeat(256)}`, 'bad\ud800'];
      for (const p of bad) {
        const what = JSON.stringify(p.slice(0, 20));
        await rejectsCode(store.put(p, text('x')), 'InvalidArgument', `put ${what}`);
        await rejectsCode(store.get(p), 'InvalidArgument', `get ${what}`);
        await rejectsCode(store.head(p), 'InvalidArgument', `head ${what}`);
        await rejectsCode(store.delete(p), 'InvalidArgument', `delete ${what}`);
      }
      await rejectsCode(store.list('/a', { limit: 1 }), 'InvalidArgument', 'prefix with a leading slash');
      await rejectsCode(store.put('ok', text('x'), { ifNoneMatch: '*', ifMatch: '"a"' } as never), 'InvalidArgument', 'two conditions');
      await rejectsCode(store.put('ok', text('x'), { ifNoneMatch: 'abc' } as never), 'InvalidArgument', 'ifNoneMatch other than *');
      const uni = 'ünï/côdé/😀 spaced+plus%25';
      await store.put(uni, text('u'));
      assert.equal((await store.get(uni)).bytes.toString(), 'u');
      assert.deepEqual((await store.list('ünï/', { limit: 10 })).items.map((i) => i.path), [uni]);
      // The longest path the store takes (1024 bytes, less an S3 key prefix), in segments of at most 255.
      const max = store.capabilities().maxPathBytes;
      assert.ok(max >= 512 && max <= 1024);
      let full = Math.floor(max / 201);
      let rest = max - full * 201;
      if (rest === 0) [full, rest] = [full - 1, 201];
      const longest = `${`${'a'.repeat(200)}/`.repeat(full)}${'b'.repeat(rest)}`;
      assert.equal(Buffer.byteLength(longest), max);
      await store.put(longest, text('long'));
      assert.equal((await store.get(longest)).bytes.toString(), 'long');
      await rejectsCode(store.put(`${longest}c`, text('x')), 'InvalidArgument', 'one byte over the limit');
    });

    if (h.openVersioned) {
      const openVersioned = h.openVersioned;
      test('versions (spec §9.9): put twice, listVersions shows both, deleteVersion removes each, then none remain', async () => {
        const store = await openVersioned();
        opened.push(store);
        assert.equal(store.capabilities().versioning, true);
        const a = await store.put('erase/doc', text('first'));
        const b = await store.put('erase/doc', text('second'));
        const vs = await listAllVersions(store, 'erase/', 100);
        assert.equal(vs.length, 2, 'both versions are listed');
        assert.ok(vs.every((v) => v.path === 'erase/doc' && !v.deleteMarker));
        assert.equal(vs.filter((v) => v.isLatest).length, 1);
        assert.equal(vs.find((v) => v.isLatest)?.etag, b.etag, 'the latest version is the second put');
        assert.equal(vs.find((v) => !v.isLatest)?.etag, a.etag);
        assert.notEqual(vs[0]!.versionId, vs[1]!.versionId);
        assert.equal(vs[0]!.isLatest, true, 'newest first');
        for (const v of vs) await store.deleteVersion(v.path, v.versionId);
        assert.deepEqual(await listAllVersions(store, 'erase/', 100), [], 'no version remains');
        await rejectsCode(store.get('erase/doc'), 'NotFound');
        assert.deepEqual((await store.list('erase/', { limit: 10 })).items, []);
        // Deleting a version that is already gone is fine (erasure retries).
        await store.deleteVersion('erase/doc', vs[0]!.versionId);
      });

      test('versions: a plain delete leaves a delete marker and the data; deleting by version removes both', async () => {
        const store = await openVersioned();
        opened.push(store);
        const put = await store.put('erase/marked', text('personal data'));
        await store.delete('erase/marked');
        await rejectsCode(store.get('erase/marked'), 'NotFound', 'a marker hides the object');
        const vs = await listAllVersions(store, 'erase/marked', 100);
        assert.equal(vs.length, 2);
        const marker = vs.find((v) => v.deleteMarker);
        assert.ok(marker?.isLatest, 'the delete marker is the latest');
        assert.equal(vs.find((v) => !v.deleteMarker)?.etag, put.etag, 'the data is still there as a noncurrent version');
        for (const v of vs) await store.deleteVersion(v.path, v.versionId);
        assert.deepEqual(await listAllVersions(store, 'erase/marked', 100), []);
      });

      test('versions: listVersions pages through many keys and versions', async () => {
        const store = await openVersioned();
        opened.push(store);
        for (let k = 0; k < 5; k++) for (let v = 0; v < 2; v++) await store.put(`vpage/k${k}`, text(`k${k}v${v}`));
        const vs = await listAllVersions(store, 'vpage/', 3);
        assert.equal(vs.length, 10);
        assert.equal(new Set(vs.map((v) => `${v.path}@${v.versionId}`)).size, 10, 'no version twice');
        assert.deepEqual([...new Set(vs.map((v) => v.path))], ['vpage/k0', 'vpage/k1', 'vpage/k2', 'vpage/k3', 'vpage/k4']);
        for (let k = 0; k < 5; k++) {
          const mine = vs.filter((v) => v.path === `vpage/k${k}`);
          assert.deepEqual(mine.map((v) => v.isLatest), [true, false], 'per key: newest first');
        }
        for (const v of vs) await store.deleteVersion(v.path, v.versionId);
        assert.deepEqual(await listAllVersions(store, 'vpage/', 3), []);
      });
    } else {
      test('versions: a provider without versioning says so and the calls are Unsupported', async () => {
        const { store } = await open();
        assert.equal(store.capabilities().versioning, false);
        await rejectsCode(store.listVersions('', { limit: 10 }), 'Unsupported');
        await rejectsCode(store.deleteVersion('a', 'v1'), 'Unsupported');
      });
    }
  });
}
