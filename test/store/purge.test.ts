// Versioned buckets (spec §9.9) on a real MinIO: the store asks the bucket whether it keeps
// versions, and GC's deletes leave no version and no delete marker behind.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CreateBucketCommand, ListObjectVersionsCommand, PutBucketVersioningCommand, S3Client } from '@aws-sdk/client-s3';
import { S3Store, purge, type S3StoreOptions } from '../../src/store/index.js';
import { gcCollection, gcOwner, type GcReport } from '../../src/gc/gc.js';
import { dataPath, manifestPrefix } from '../../src/collection/paths.js';
import { testNode } from '../node/helpers.js';
import { MinioServer } from './helpers/minio.js';

const HOUR = 3_600_000;

describe('s3 (MinIO): versioned buckets', () => {
  let server: MinioServer;
  let admin: S3Client;
  const opts = (bucket: string): S3StoreOptions => ({ bucket, endpoint: server.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: server.credentials });

  before(async () => {
    server = await MinioServer.start();
    admin = new S3Client({ endpoint: server.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: server.credentials });
    await admin.send(new CreateBucketCommand({ Bucket: 'plain' }));
    await admin.send(new CreateBucketCommand({ Bucket: 'versioned' }));
    await admin.send(new PutBucketVersioningCommand({ Bucket: 'versioned', VersioningConfiguration: { Status: 'Enabled' } }));
  });
  after(async () => {
    admin?.destroy();
    await server?.stop();
  });

  async function versionsOf(bucket: string, prefix: string): Promise<string[]> {
    const r = await admin.send(new ListObjectVersionsCommand({ Bucket: bucket, Prefix: prefix }));
    return [...(r.Versions ?? []), ...(r.DeleteMarkers ?? [])].map((v) => `${v.Key}@${v.VersionId}`);
  }

  test('versioning() asks the bucket, and capabilities() then reports what it said', async () => {
    const plain = new S3Store(opts('plain'));
    const versioned = new S3Store(opts('versioned'));
    assert.equal(await plain.versioning(), false);
    assert.equal(plain.capabilities().versioning, false);
    assert.equal(await versioned.versioning(), true);
    assert.equal(versioned.capabilities().versioning, true);
    await plain.close();
    await versioned.close();
  });

  test('purge deletes every version and delete marker of the path, and nothing of another path', async () => {
    const store = new S3Store(opts('versioned'));
    await store.put('p/doc', Buffer.from('one'));
    await store.put('p/doc', Buffer.from('two'));
    await store.delete('p/doc'); // a delete marker over two versions
    await store.put('p/doc2', Buffer.from('other'));
    assert.equal((await versionsOf('versioned', 'p/doc')).filter((v) => v.startsWith('p/doc@')).length, 3);
    await purge(store, 'p/doc');
    assert.deepEqual((await versionsOf('versioned', 'p/doc')).filter((v) => v.startsWith('p/doc@')), []);
    assert.equal((await store.get('p/doc2')).bytes.toString(), 'other');
    await store.close();
  });

  test('after GC on a versioned bucket, ListObjectVersions shows nothing of the objects it deleted', async () => {
    const store = new S3Store(opts('versioned'));
    const n = await testNode({ store, config: { gc_interval_ms: HOUR, maintenance_interval_ms: HOUR } });
    try {
      const ns = await n.meta.createNamespace({ org: 'default', name: 'v' });
      const c = await n.meta.createCollection({ ns: ns.id, name: 'docs', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
      // Garbage past the grace: a data file no manifest lists (written twice: two versions).
      const orphan = dataPath(c.ns, c.id, Date.now() - HOUR);
      await store.put(orphan, Buffer.from('personal data'));
      await store.put(orphan, Buffer.from('personal data, again'));
      const fence = (await n.workers!.leases.hold('cluster', 'gc'))!;
      const r: GcReport = { deleted: [], skipped: 0 };
      await gcCollection({ meta: n.meta, store, manifests: n.reader!.manifests, owner: gcOwner('gc-test', fence), graceMs: 1, fence }, c, r, Date.now());
      assert.ok(r.deleted.includes(orphan));
      assert.deepEqual(await versionsOf('versioned', orphan), [], 'no version or delete marker is left');
      assert.deepEqual(await versionsOf('versioned', manifestPrefix(c.ns, c.id)), []);
    } finally {
      await n.cleanup();
    }
  });
});
