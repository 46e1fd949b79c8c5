// The provider suite (spec §4.4) against a real S3-compatible server: a MinIO server this
// file starts on 127.0.0.1 (helpers/minio.ts), or the endpoint in LOAM_TEST_S3_URL
// (s3://bucket/prefix?endpoint=…&forcePathStyle=true, credentials from the AWS chain).
// With an external endpoint the server cannot be restarted from here, so check 8 covers
// only the killed writing process.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  CreateBucketCommand,
  HeadObjectCommand,
  PutBucketVersioningCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { S3Store, openStore, type S3StoreOptions } from '../../src/store/index.js';
import { MinioServer, freePort } from './helpers/minio.js';
import { defineProviderSuite, rejectsCode } from './helpers/suite.js';

interface Target {
  bucket: string;
  versionedBucket: string;
  basePrefix: string;
  endpoint: string | undefined;
  forcePathStyle: boolean;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

let server: MinioServer | undefined;
let target: Target | undefined;
let admin: S3Client | undefined;
let seq = 0;
const run = randomBytes(4).toString('hex');

function external(): Target | undefined {
  const url = process.env.LOAM_TEST_S3_URL;
  if (!url) return undefined;
  const u = new URL(url);
  return {
    bucket: u.hostname,
    versionedBucket: `${u.hostname}-versioned`,
    basePrefix: u.pathname.replace(/^\/+|\/+$/g, ''),
    endpoint: u.searchParams.get('endpoint') ?? undefined,
    forcePathStyle: u.searchParams.get('forcePathStyle') === 'true',
    region: u.searchParams.get('region') ?? process.env.AWS_REGION ?? 'us-east-1',
  };
}

async function ensureBucket(bucket: string, versioned: boolean): Promise<void> {
  try {
    await admin!.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (e) {
    const name = (e as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw e;
  }
  if (versioned) {
    await admin!.send(new PutBucketVersioningCommand({ Bucket: bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  }
}

function options(bucket: string, prefix: string, extra: Partial<S3StoreOptions> = {}): S3StoreOptions {
  const t = target!;
  return {
    bucket,
    prefix,
    region: t.region,
    forcePathStyle: t.forcePathStyle,
    ...(t.endpoint ? { endpoint: t.endpoint } : {}),
    ...(t.credentials ? { credentials: t.credentials } : {}),
    ...extra,
  };
}

function freshPrefix(): string {
  const p = `${target!.basePrefix ? `${target!.basePrefix}/` : ''}suite-${run}-${++seq}`;
  return p;
}

defineProviderSuite({
  name: process.env.LOAM_TEST_S3_URL ? 's3 (LOAM_TEST_S3_URL)' : 's3 (MinIO)',
  async setup() {
    target = external();
    if (!target) {
      server = await MinioServer.start();
      target = {
        bucket: 'loam-test',
        versionedBucket: 'loam-test-versioned',
        basePrefix: '',
        endpoint: server.endpoint,
        forcePathStyle: true,
        region: 'us-east-1',
        credentials: server.credentials,
      };
    }
    const cfg: S3ClientConfig = {
      region: target.region,
      forcePathStyle: target.forcePathStyle,
      ...(target.endpoint ? { endpoint: target.endpoint } : {}),
      ...(target.credentials ? { credentials: target.credentials } : {}),
    };
    admin = new S3Client(cfg);
    await ensureBucket(target.bucket, false);
    await ensureBucket(target.versionedBucket, true);
  },
  async teardown() {
    admin?.destroy();
    await server?.stop();
  },
  async open() {
    const prefix = freshPrefix();
    const t = target!;
    const q = new URLSearchParams({ region: t.region, forcePathStyle: String(t.forcePathStyle) });
    if (t.endpoint) q.set('endpoint', t.endpoint);
    return {
      store: new S3Store(options(t.bucket, prefix)),
      reopen: async () => new S3Store(options(t.bucket, prefix)),
      url: `s3://${t.bucket}/${prefix}?${q.toString()}`,
    };
  },
  childEnv() {
    const c = target!.credentials;
    return {
      ...(c ? { AWS_ACCESS_KEY_ID: c.accessKeyId, AWS_SECRET_ACCESS_KEY: c.secretAccessKey } : {}),
      AWS_EC2_METADATA_DISABLED: 'true',
    };
  },
  ...(process.env.LOAM_TEST_S3_URL
    ? {}
    : {
        async restartServer(kind: 'graceful' | 'kill9') {
          if (kind === 'graceful') await server!.restart();
          else await server!.kill9AndRestart();
        },
      }),
  async openSse() {
    const prefix = freshPrefix();
    const store = new S3Store(options(target!.bucket, prefix, { sse: 'AES256' }));
    return {
      store,
      isEncrypted: async (path: string) => {
        const res = await admin!.send(new HeadObjectCommand({ Bucket: target!.bucket, Key: `${prefix}/${path}` }));
        return res.ServerSideEncryption === 'AES256';
      },
    };
  },
  async openVersioned() {
    return new S3Store(options(target!.versionedBucket, freshPrefix()));
  },
  async openMultipart() {
    const thresholdBytes = 6 * 1024 * 1024;
    return {
      store: new S3Store(options(target!.bucket, freshPrefix(), { partSizeBytes: 5 * 1024 * 1024, multipartThresholdBytes: thresholdBytes })),
      thresholdBytes,
    };
  },
});

describe('s3 provider: without a server', () => {
  test('an endpoint that refuses connections is Retryable (unavailable), not applied', async () => {
    const port = await freePort();
    const store = new S3Store({
      bucket: 'nobody-home',
      endpoint: `http://127.0.0.1:${port}`,
      forcePathStyle: true,
      credentials: { accessKeyId: 'x', secretAccessKey: 'y' },
      maxAttempts: 1,
    });
    try {
      await assert.rejects(store.get('a'), (e: unknown) => {
        const err = e as { code: string; details: { reason?: string; outcomeUnknown?: boolean } };
        assert.equal(err.code, 'Retryable');
        assert.equal(err.details.reason, 'unavailable');
        assert.equal(err.details.outcomeUnknown, false);
        return true;
      });
      await rejectsCode(store.put('a', Buffer.from('x'), { ifNoneMatch: '*' }), 'Retryable');
    } finally {
      await store.close();
    }
  });

  test('bad options are InvalidArgument before any request', async () => {
    const creds = { accessKeyId: 'x', secretAccessKey: 'y' };
    assert.throws(() => new S3Store({ bucket: 'Bad_Bucket', credentials: creds }), { code: 'InvalidArgument' });
    assert.throws(() => new S3Store({ bucket: 'ok-bucket', endpoint: 'not a url', credentials: creds }), { code: 'InvalidArgument' });
    assert.throws(() => new S3Store({ bucket: 'ok-bucket', endpoint: 'ftp://x', credentials: creds }), { code: 'InvalidArgument' });
    assert.throws(() => new S3Store({ bucket: 'ok-bucket', partSizeBytes: 1024, credentials: creds }), { code: 'InvalidArgument' });
    assert.throws(() => new S3Store({ bucket: 'ok-bucket', prefix: 'a//b', credentials: creds }), { code: 'InvalidArgument' });
    const s = openStore('s3://ok-bucket/some/prefix?endpoint=http://127.0.0.1:1&forcePathStyle=true&region=eu-west-1&sse=AES256');
    assert.ok(s instanceof S3Store);
    assert.equal(s.keyPrefix, 'some/prefix/');
    assert.equal(s.bucket, 'ok-bucket');
    await s.close();
  });
});
