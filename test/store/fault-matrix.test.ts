// The S3 fault matrix with a provider switch (spec §4.4): the same cells (fault-matrix.ts) run
// over the memory provider and over MinIO behind Toxiproxy (a latency toxic on the link), with
// FaultyStore around either, and both must produce the blessed table
// test/store/s3_fault_matrix.expected.md. With --bless (LOAM_BLESS=1) the memory run rewrites it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { FaultyStore } from '../../src/check/faulty-store.js';
import { MemoryStore, S3Store, type Store } from '../../src/store/index.js';
import { Toxiproxy } from '../harness/toxiproxy.js';
import { testNode } from '../node/helpers.js';
import { MinioServer } from './helpers/minio.js';
import { MATRIX_ATTEMPTS, MATRIX_FAULTS, MATRIX_GROUPS, armRule, renderMatrix, type MatrixCell } from './fault-matrix.js';

const expectedPath = new URL('./s3_fault_matrix.expected.md', import.meta.url).pathname;
/** Quick workers: GC's grace is just over twice the lease TTL. */
const MATRIX_NODE = { lease_ttl_ms: 200, gc_grace_ms: 500, gc_interval_ms: 100, maintenance_interval_ms: 50, apply_poll_ms: 50, segment_min_age_ms: 0 };

interface Provider {
  name: string;
  /** A fresh store over its own prefix. */
  store(): Promise<Store>;
  close(): Promise<void>;
}

const memory: Provider = { name: 'memory', store: async () => new MemoryStore(), close: async () => undefined };

function minioBehindToxiproxy(): Provider {
  let started: Promise<{ minio: MinioServer; toxiproxy: Toxiproxy; endpoint: string; bucket: string }> | undefined;
  const start = () =>
    (started ??= (async () => {
      const minio = await MinioServer.start().catch((e: Error) => {
        throw new Error(`service minio did not start: ${e.message}`);
      });
      const toxiproxy = await Toxiproxy.start().catch((e: Error) => {
        throw new Error(`service toxiproxy did not start: ${e.message}`);
      });
      const bucket = 'loam-matrix';
      const s3 = new S3Client({ endpoint: minio.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: minio.credentials });
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      s3.destroy();
      const p = await toxiproxy.proxy('store', `127.0.0.1:${new URL(minio.endpoint).port}`);
      // Only timing differs: every call pays 5-15 ms more.
      await toxiproxy.addToxic('store', { toxic: { type: 'latency', attributes: { latency: 10, jitter: 5 } } });
      return { minio, toxiproxy, endpoint: `http://${p.host}:${p.port}`, bucket };
    })());
  return {
    name: 'MinIO behind Toxiproxy',
    async store() {
      const s = await start();
      return new S3Store({ bucket: s.bucket, prefix: `m-${randomBytes(4).toString('hex')}`, endpoint: s.endpoint, forcePathStyle: true, region: 'us-east-1', credentials: s.minio.credentials });
    },
    async close() {
      if (!started) return;
      const s = await started;
      await s.toxiproxy.stop();
      await s.minio.stop();
    },
  };
}

const providers = [memory, minioBehindToxiproxy()];
const tables = new Map<string, string>();

for (const provider of providers) {
  describe(`S3 fault matrix over ${provider.name}`, () => {
    const cells: MatrixCell[] = [];
    after(() => provider.close());
    for (const g of MATRIX_GROUPS) {
      test(`${g.name}: ${MATRIX_FAULTS.length} faults × ${MATRIX_ATTEMPTS.length} attempts`, async () => {
        const raw = await provider.store();
        let faulty!: FaultyStore;
        const node = await testNode({ store: raw, wrap: (s) => (faulty = new FaultyStore(s)), config: { ...MATRIX_NODE, roles: g.roles } });
        try {
          assert.equal((await node.app.inject({ method: 'POST', url: '/v1/namespaces', payload: { name: 'm' } })).statusCode, 201);
          let i = 0;
          for (const attempt of MATRIX_ATTEMPTS) {
            for (const fault of MATRIX_FAULTS) {
              const coll = `c${i++}`;
              const created = await node.app.inject({ method: 'POST', url: '/v1/namespaces/m/collections', payload: { name: coll, primary_key: 'id', partitions: 1 } });
              assert.equal(created.statusCode, 201, created.body);
              const c = { node, faulty, raw, base: `/v1/namespaces/m/collections/${coll}`, ns: 'm', coll };
              await g.prepare?.(c);
              const before = faulty.injected.length;
              armRule(faulty, g, fault, attempt);
              const outcome = await g.run(c);
              faulty.clear();
              const fired = faulty.injected.length - before;
              assert.ok(fired >= 1, `${g.name} × ${fault} × ${attempt}: the fault fired`);
              cells.push({ group: g.name, fault, attempt, outcome, fired });
              console.log(`# ${provider.name}: ${g.name} × ${fault} × ${attempt}: ${outcome}`);
            }
          }
        } finally {
          await node.cleanup();
        }
      });
    }
    test('the outcomes match the blessed table', () => {
      const table = renderMatrix(cells);
      tables.set(provider.name, table);
      if (process.env.LOAM_BLESS === '1' && provider === memory) {
        writeFileSync(expectedPath, table);
        return;
      }
      assert.ok(existsSync(expectedPath), `no blessed table at ${expectedPath}; run npm run test:store -- --bless`);
      assert.equal(table, readFileSync(expectedPath, 'utf8'), `the S3 fault matrix over ${provider.name} differs from the blessed table`);
    });
  });
}

test('memory and MinIO behind Toxiproxy produce the same table', () => {
  assert.equal(tables.size, providers.length, 'every provider ran');
  assert.equal(tables.get('MinIO behind Toxiproxy'), tables.get('memory'));
});
