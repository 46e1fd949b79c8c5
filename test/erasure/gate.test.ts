// The erasure gate (spec §9 gate), on real services: the embedded metastore (a SQLite file) and
// Postgres, each with MinIO with bucket versioning on, workers in their own thread. Documents
// holding a unique marker (in a field and in the primary key) are applied, segmented, read
// (cached) and tagged; erased; the purge runs to completion with shortened, validated
// intervals. Then the key is unreadable by every route; a byte scan of every object version
// in the bucket (decoded where the formats compress) and of the metastore's files (the SQLite
// file and its -wal; a pg_dump) finds the marker nowhere; the tag names the rewritten
// manifest; the erasure log has both records and verify confirms the key.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { CreateBucketCommand, GetObjectCommand, ListObjectVersionsCommand, PutBucketVersioningCommand, S3Client } from '@aws-sdk/client-s3';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { MinioServer } from '../store/helpers/minio.js';
import { pgBinDir, startCluster, type Cluster } from '../harness/postgres.js';
import { FAST, http } from '../node/helpers.js';
import { ERASURE_FAST, completed, tagCurrent, unreadable, writeMarked } from './helpers.js';
import { markerCount } from './scan.js';

describe('the erasure gate: embedded and Postgres, each on MinIO with versioning on', () => {
  let minio: MinioServer;
  let admin: S3Client;
  let pg: Cluster;
  before(async () => {
    [minio, pg] = await Promise.all([MinioServer.start(), startCluster()]);
    admin = new S3Client({ endpoint: minio.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: minio.credentials });
    // The node's S3 client (and its worker thread's) take the credentials from the environment.
    process.env.AWS_ACCESS_KEY_ID = minio.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = minio.secretAccessKey;
  });
  after(async () => {
    admin?.destroy();
    await minio?.stop();
    await pg?.stop();
  });

  /** Every version of every object in the bucket, with the objects whose bytes hold the marker. */
  async function scanBucket(bucket: string, marker: string): Promise<{ versions: number; hits: string[] }> {
    const hits: string[] = [];
    let versions = 0;
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    for (let page = 0; page < 1_000; page++) {
      const r = await admin.send(new ListObjectVersionsCommand({ Bucket: bucket, KeyMarker: keyMarker, VersionIdMarker: versionMarker }));
      for (const v of r.Versions ?? []) {
        // The node runs while the scan does: GC may delete a listed version before it is read.
        // A version that is gone holds no bytes, so it is not counted and cannot hold the marker.
        const o = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: v.Key!, VersionId: v.VersionId! })).catch((e: unknown) => {
          if ((e as { name?: string }).name === 'NoSuchVersion' || (e as { name?: string }).name === 'NoSuchKey') return undefined;
          throw e;
        });
        if (!o) continue;
        versions++;
        const bytes = Buffer.from(await o.Body!.transformToByteArray());
        if (markerCount(bytes, marker) > 0) hits.push(`${v.Key}@${v.VersionId}`);
      }
      if (!r.IsTruncated) break;
      keyMarker = r.NextKeyMarker;
      versionMarker = r.NextVersionIdMarker;
    }
    return { versions, hits };
  }

  async function gate(name: string, metastore: string, scanMeta: (marker: string) => Record<string, number>): Promise<void> {
    const bucket = `gate-${name}`;
    await admin.send(new CreateBucketCommand({ Bucket: bucket }));
    await admin.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
    const marker = `mk${randomBytes(8).toString('hex')}`;
    const config = resolveConfig({
      metastore,
      store: `s3://${bucket}?endpoint=${encodeURIComponent(minio.endpoint)}&forcePathStyle=true&region=us-east-1`,
      port: 0,
      log_level: 'silent',
      // The byte scan proves the purge on the formats' plaintext (and deflated) bytes; with
      // encryption the marker would never show, before or after (that is the shred gate's).
      key_provider: 'none',
      ...FAST,
      ...ERASURE_FAST,
    });
    let node: LoamNode | undefined;
    try {
      node = await startNode(config, { logger: pino({ level: process.env.LOAM_TEST_LOG ?? 'silent' }) });
      const s = await writeMarked(node, marker);
      const tag = await tagCurrent(node, s, 'release-1');
      const before = await scanBucket(bucket, marker);
      assert.ok(before.hits.length >= 3, `the scan sees the marker before the erasure: ${before.hits.join(', ')}`);
      assert.ok(Object.values(scanMeta(marker)).every((n) => n === 0), 'the metastore never holds a document');

      const e = await http(node.url, 'POST', '/v1/namespaces/ns/collections/c/erase', { keys: [s.key] });
      assert.equal(e.status, 202, JSON.stringify(e.body));
      assert.equal((await http(node.url, 'GET', `/v1/namespaces/ns/collections/c/documents/${s.key}`)).status, 404, 'hidden at once');
      const done = await completed(node, e.body.erasure.id, 90_000);

      await unreadable(node, s);
      const after = await scanBucket(bucket, marker);
      assert.deepEqual(after.hits, [], `object versions holding the marker after the erasure (of ${after.versions})`);
      assert.deepEqual(scanMeta(marker), Object.fromEntries(Object.keys(scanMeta(marker)).map((k) => [k, 0])));
      const [t] = (await node.meta.listTags(s.ns, s.collection)).items;
      assert.equal(t!.rewrittenBy, done.id, 'the tag records the erasure');
      assert.equal(t!.manifestVersion, tag.version, 'and the version it was taken from');
      assert.notEqual(t!.manifestPath, tag.path, 'and names the rewritten manifest');
      const log = await http(node.url, 'GET', '/v1/erasures');
      assert.deepEqual(log.body.items.map((x: { id: string }) => x.id), [done.id]);
      for (const rec of ['request.rec', 'completion.rec']) {
        const o = await admin.send(new GetObjectCommand({ Bucket: bucket, Key: `_erasure/default/${done.id}/${rec}` }));
        const text = await o.Body!.transformToString();
        assert.ok(text.includes(done.key_hashes[0]) || rec === 'completion.rec', rec);
      }
      const v = await http(node.url, 'POST', `/v1/erasures/${done.id}/verify`, { key: s.key });
      assert.equal(v.status, 200);
      assert.equal(v.body.verified, true);
      assert.ok(done.counts.nodes_evicted >= 1);
    } finally {
      await node?.close();
    }
  }

  test('embedded (SQLite file) + MinIO with versioning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loam-gate-'));
    try {
      await gate('embedded', `sqlite:${join(dir, 'meta.db')}`, (marker) => {
        const out: Record<string, number> = {};
        for (const f of ['meta.db', 'meta.db-wal']) if (existsSync(join(dir, f))) out[f] = markerCount(readFileSync(join(dir, f)), marker);
        return out;
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('Postgres + MinIO with versioning', async () => {
    await gate('postgres', pg.url, (marker) => {
      const dump = execFileSync(join(pgBinDir(), 'pg_dump'), ['-h', '127.0.0.1', '-p', String(pg.port), '-U', 'postgres', 'postgres'], { maxBuffer: 256 << 20 });
      return { pg_dump: markerCount(dump, marker) };
    });
  });
});
