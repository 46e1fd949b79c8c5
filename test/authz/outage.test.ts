// A ControlStore outage: the gateway's background tasks keep failing, and say so in the log
// once per FAILURE_LOG_INTERVAL_MS per task (with a count), not on every poll.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { Tenancy } from '../../src/authz/tenancy.js';
import { FAILURE_LOG_INTERVAL_MS } from '../../src/authz/task-failures.js';
import { BuiltinAuthorizer } from '../../src/authz/authorizer.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { Catalog } from '../../src/collection/catalog.js';

test('a failing change-feed poll is logged once per interval, with the failures in between', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-outage-'));
  const meta = openEmbedded({ path: join(dir, 'meta.db') });
  const cs = openEmbeddedControl(join(dir, 'meta.db'));
  await cs.init();
  const lines: { msg: string; task?: string; failures_since_last_log?: number }[] = [];
  const sink = new Writable({
    write(chunk, _enc, cb) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  let now = 1_000_000;
  const t = new Tenancy({ control: cs, authorizer: new BuiltinAuthorizer(cs), catalog: new Catalog(meta), meta, logger: pino({ level: 'warn' }, sink), now: () => now });
  try {
    await cs.close(); // the outage: every call on the store fails from here on
    for (let i = 0; i < 10; i++) {
      await t.pollFeed();
      now += 250;
    }
    now += FAILURE_LOG_INTERVAL_MS;
    await t.pollFeed();
    await new Promise((r) => setImmediate(r));
    const feed = lines.filter((l) => l.task === 'feed');
    assert.equal(feed.length, 2, `one line at the start, one after the interval: ${JSON.stringify(lines)}`);
    assert.match(feed[0]!.msg, /change feed poll failed/);
    assert.equal(feed[1]!.failures_since_last_log, 9);
  } finally {
    await meta.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
