// openStore(url) and the errors a caller can match on without a server.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  FileStore,
  MemoryStore,
  S3Store,
  StoreError,
  isStoreError,
  mapS3Error,
  openStore,
  resolveRange,
  type StoreErrorCode,
} from '../../src/store/index.js';

function throwsInvalid(url: string, pattern: RegExp): void {
  assert.throws(
    () => openStore(url),
    (e: unknown) => {
      assert.ok(isStoreError(e, 'InvalidArgument'), `${url}: ${String(e)}`);
      assert.equal(e.details.field, 'url');
      assert.match(e.message, pattern, url);
      return true;
    },
  );
}

describe('openStore', () => {
  test('opens memory://, file:///abs/dir and s3://bucket/prefix', async () => {
    const m = openStore('memory://');
    assert.ok(m instanceof MemoryStore);
    assert.equal(m.capabilities().versioning, false);
    assert.equal(openStore('memory://?versioning=true').capabilities().versioning, true);
    const dir = mkdtempSync(join(tmpdir(), 'loam-open-'));
    try {
      const f = openStore(`file://${dir}/store`);
      assert.ok(f instanceof FileStore);
      assert.equal(f.root, `${dir}/store`);
      await f.put('x', Buffer.from('1'));
      assert.equal((await openStore(`file://localhost${dir}/store/`).get('x')).bytes.toString(), '1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const s = openStore('s3://my-bucket/tenant%20a/data?endpoint=http://127.0.0.1:9000&forcePathStyle=true&region=eu-west-1');
    assert.ok(s instanceof S3Store);
    assert.equal(s.bucket, 'my-bucket');
    assert.equal(s.keyPrefix, 'tenant a/data/');
    assert.equal(openStore('s3://my-bucket').capabilities().provider, 's3');
    await s.close();
  });

  test('an unknown scheme or a malformed URL is a clear InvalidArgument', () => {
    throwsInvalid('', /required/);
    throwsInvalid('not a url', /not a URL/);
    throwsInvalid('/abs/dir', /not a URL/);
    throwsInvalid('gs://bucket/x', /unknown store scheme "gs:"/);
    throwsInvalid('http://example.com/x', /unknown store scheme "http:"/);
    throwsInvalid('memory://name/path', /no host or path/);
    throwsInvalid('memory://?versioning=maybe', /true or false/);
    throwsInvalid('memory://?color=blue', /unknown parameter "color"/);
    throwsInvalid('file://server/share/dir', /local directory/);
    throwsInvalid('file:///', /not the filesystem root/);
    throwsInvalid('file:///tmp/x?sync=false', /unknown parameter "sync"/);
    throwsInvalid('s3:///prefix', /needs a bucket/);
    throwsInvalid('s3://user:pw@bucket/x', /not credentials/);
    throwsInvalid('s3://bucket/x?endpoint=a&endpoint=b', /given twice/);
    throwsInvalid('s3://bucket/x?sse=rot13', /AES256 or aws:kms/);
    throwsInvalid('s3://bucket/x?forcePathStyle=yes', /true or false/);
    throwsInvalid('s3://bucket/x?bucket=other', /unknown parameter "bucket"/);
    assert.throws(() => openStore('s3://Not_A_Bucket/x'), { code: 'InvalidArgument' });
    assert.throws(() => openStore('s3://bucket/x?endpoint=nope'), { code: 'InvalidArgument' });
    assert.throws(() => new FileStore({ root: 'relative/dir' }), { code: 'InvalidArgument' });
  });
});

describe('typed errors', () => {
  const s3err = (name: string, status: number | undefined, extra: Record<string, unknown> = {}) =>
    Object.assign(new Error(`${name} from the server`), { name, ...(status ? { $metadata: { httpStatusCode: status } } : {}), ...extra });
  const code = (e: StoreError): StoreErrorCode => e.code;

  test('S3 errors map to StoreError codes by status and name, with the call’s condition', () => {
    const put = { op: 'put', path: 'k', write: true };
    assert.equal(code(mapS3Error(s3err('PreconditionFailed', 412), { ...put, cond: { ifNoneMatch: '*' } })), 'AlreadyExists');
    assert.equal(code(mapS3Error(s3err('PreconditionFailed', 412), { ...put, cond: { ifMatch: '"a"' } })), 'PreconditionFailed');
    assert.equal(code(mapS3Error(s3err('NoSuchKey', 404), { ...put, cond: { ifMatch: '"a"' } })), 'PreconditionFailed');
    assert.equal(code(mapS3Error(s3err('NoSuchKey', 404), { op: 'get', path: 'k' })), 'NotFound');
    assert.equal(code(mapS3Error(s3err('NotFound', 404), { op: 'head', path: 'k' })), 'NotFound');
    assert.equal(code(mapS3Error(s3err('NoSuchBucket', 404), { op: 'get', path: 'k' })), 'InvalidArgument');
    assert.equal(code(mapS3Error(s3err('InvalidRange', 416), { op: 'get', path: 'k' })), 'InvalidRange');
    assert.equal(code(mapS3Error(s3err('AccessDenied', 403), { op: 'get', path: 'k' })), 'PermissionDenied');
    assert.equal(code(mapS3Error(s3err('NotImplemented', 501), { op: 'put', path: 'k' })), 'Unsupported');
    assert.equal(code(mapS3Error(s3err('Weird', 418), { op: 'put', path: 'k' })), 'Internal');
    const retryable: [string, number | undefined, string, boolean][] = [
      ['ConditionalRequestConflict', 409, 'conflict', false],
      ['OperationAborted', 409, 'conflict', false],
      ['SlowDown', 503, 'throttle', false],
      ['ServiceUnavailable', 503, 'throttle', false],
      ['InternalError', 500, 'unavailable', true],
      ['TimeoutError', undefined, 'timeout', true],
      ['AbortError', undefined, 'timeout', true],
      ['RequestTimeout', 400, 'timeout', true],
    ];
    for (const [name, status, reason, unknown] of retryable) {
      const e = mapS3Error(s3err(name, status), put);
      assert.equal(e.code, 'Retryable', name);
      assert.equal(e.details.reason, reason, name);
      assert.equal(e.details.outcomeUnknown, unknown, name);
      assert.equal(e.retryable, true);
    }
    const refused = mapS3Error(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), put);
    assert.deepEqual([refused.code, refused.details.reason, refused.details.outcomeUnknown], ['Retryable', 'unavailable', false]);
    const reset = mapS3Error(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), put);
    assert.deepEqual([reset.code, reset.details.reason, reset.details.outcomeUnknown], ['Retryable', 'timeout', true]);
    const readReset = mapS3Error(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), { op: 'get', path: 'k' });
    assert.equal(readReset.details.outcomeUnknown, false, 'a read changes nothing');
  });

  test('errors are plain data: JSON round trip keeps code and details', () => {
    const e = mapS3Error(s3err('SlowDown', 503), { op: 'put', path: 'k', write: true });
    const back = StoreError.fromJSON(JSON.parse(JSON.stringify(e)) as ReturnType<StoreError['toJSON']>);
    assert.equal(back.code, 'Retryable');
    assert.deepEqual(back.details, e.details);
    assert.equal(back.name, 'StoreError(Retryable)');
  });

  test('resolveRange: the contract’s range rules without a provider', () => {
    assert.deepEqual(resolveRange('p', { start: 2, end: 5 }, 10), { start: 2, end: 5 });
    assert.deepEqual(resolveRange('p', { start: 2, end: 50 }, 10), { start: 2, end: 10 });
    assert.deepEqual(resolveRange('p', { suffix: 4 }, 10), { start: 6, end: 10 });
    assert.throws(() => resolveRange('p', { start: 10 }, 10), { code: 'InvalidRange' });
    assert.throws(() => resolveRange('p', { suffix: 1 }, 0), { code: 'InvalidRange' });
    assert.throws(() => resolveRange('p', { start: 3, end: 3 }, 10), { code: 'InvalidRange' });
  });
});
