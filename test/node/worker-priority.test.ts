// worker_nice (docs/operations.md): the worker thread runs below the request path's CPU
// priority, and only it — the main thread, which acknowledges writes, keeps its own.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { resolveConfig, sqliteUrl } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';
import { FAST } from './helpers.js';

/** The nice value of every thread of this process, by thread id (field 19 of /proc/…/stat). */
function niceByThread(): Map<number, number> {
  const out = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    out.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
  }
  return out;
}

test('the worker thread runs at worker_nice, the main thread at its own priority', { skip: process.platform !== 'linux' ? 'per-thread priorities are Linux' : false }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-nice-'));
  mkdirSync(join(dir, 'objects'));
  const before = new Set(niceByThread().keys());
  const node = await startNode(
    resolveConfig({ metastore: sqliteUrl(join(dir, 'meta.db')), store: pathToFileURL(join(dir, 'objects')).href, port: 0, log_level: 'silent', worker_nice: 7, ...FAST }),
    { logger: pino({ level: 'silent' }) },
  );
  try {
    const now = niceByThread();
    const mainNice = now.get(process.pid)!;
    const lowered = [...now].filter(([tid, n]) => !before.has(tid) && n === mainNice + 7);
    assert.equal(lowered.length, 1, `one new thread at nice ${mainNice + 7}: ${JSON.stringify([...now])}`);
    assert.equal(niceByThread().get(process.pid), mainNice, 'the main thread keeps its priority');
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('worker_nice outside 0–19 is refused, naming the setting', () => {
  assert.throws(() => resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', worker_nice: 25 }), /worker_nice/);
});
