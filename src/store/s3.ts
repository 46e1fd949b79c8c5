// s3://bucket/prefix — a Store on any S3-compatible endpoint through @aws-sdk/client-s3
// (DESIGN §4, spec §4.4). Credentials come from the standard AWS chain (environment,
// shared config, SSO, instance roles) unless passed in. Conditional puts use S3's
// If-None-Match: * and If-Match headers, which the server checks atomically; large objects
// and streams use a multipart upload (@aws-sdk/lib-storage) whose completion carries the
// same condition. Versions (spec §9.9) are ListObjectVersions and DeleteObject by VersionId.
import { crc32c } from '@node-rs/crc32';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListObjectVersionsCommand,
  PutObjectCommand,
  S3Client,
  type ServerSideEncryption,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { StoreError, storeErrors } from './errors.js';
import {
  MAX_PATH_BYTES,
  MULTIPART_CONCURRENCY,
  MULTIPART_PART_BYTES,
  MULTIPART_THRESHOLD_BYTES,
  S3_CONDITIONAL_MAX_ATTEMPTS,
  S3_CONNECT_TIMEOUT_MS,
  S3_EMPTY_PAGE_FOLLOWS,
  S3_MAX_ATTEMPTS,
  S3_MIN_PART_BYTES,
  S3_REQUEST_DEADLINE_MS,
  S3_UPLOAD_DEADLINE_BASE_MS,
  S3_UPLOAD_MS_PER_MIB,
  VERSIONING_CHECK_MS,
} from './limits.js';
import type {
  ByteSource,
  GetOptions,
  GetResult,
  HeadResult,
  ListOptions,
  ListPage,
  ListVersionsOptions,
  ObjectInfo,
  ObjectVersion,
  PutCondition,
  PutResult,
  Store,
  StoreCapabilities,
} from './types.js';
import {
  comparePaths,
  rangeHeader,
  resolveRange,
  toBuffer,
  validateCondition,
  validateListOptions,
  validatePath,
  validatePrefix,
  validateRange,
} from './validate.js';

export interface S3StoreOptions {
  bucket: string;
  /** A key prefix under which every path lives ('' for the bucket's root). */
  prefix?: string;
  /** An S3-compatible endpoint, e.g. http://127.0.0.1:9000; AWS when absent. */
  endpoint?: string;
  /** AWS_REGION, else us-east-1. */
  region?: string;
  /** Path-style addressing (http://host/bucket/key), which most local servers need. */
  forcePathStyle?: boolean;
  /** Explicit credentials; without them the standard AWS chain is used. */
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  /** Server-side encryption for every put. */
  sse?: 'AES256' | 'aws:kms';
  sseKmsKeyId?: string;
  /** Buffered puts above this size use a multipart upload (MULTIPART_THRESHOLD_BYTES). */
  multipartThresholdBytes?: number;
  /** Part size of multipart uploads (MULTIPART_PART_BYTES; at least S3_MIN_PART_BYTES). */
  partSizeBytes?: number;
  /** Deadline of one request (S3_REQUEST_DEADLINE_MS). */
  requestDeadlineMs?: number;
  /** SDK attempts for idempotent requests (S3_MAX_ATTEMPTS). */
  maxAttempts?: number;
}

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

interface CallContext {
  op: string;
  path?: string;
  cond?: PutCondition;
  write?: boolean;
  versionId?: string;
}

function errField(e: unknown, k: string): unknown {
  return typeof e === 'object' && e !== null ? (e as Record<string, unknown>)[k] : undefined;
}

const CONNECT_REFUSED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
const CONNECTION_LOST = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Map an SDK or network error into a StoreError (spec §4.4). Exported for tests. */
export function mapS3Error(e: unknown, ctx: CallContext): StoreError {
  if (e instanceof StoreError) return e;
  const name = String(errField(e, 'name') ?? '');
  const code = String(errField(e, 'Code') ?? errField(e, 'code') ?? name);
  const meta = errField(e, '$metadata') as { httpStatusCode?: number } | undefined;
  const status = meta?.httpStatusCode;
  const path = ctx.path;
  const where = path === undefined ? ctx.op : `${ctx.op} ${path}`;
  const message = String(errField(e, 'message') ?? e);
  const base = { ...(path === undefined ? {} : { path }), ...(status === undefined ? {} : { status }), native: code };

  if (name === 'AbortError' || name === 'TimeoutError' || code === 'RequestTimeout' || code === 'RequestTimeoutException') {
    return storeErrors.retryable('timeout', `${where}: timed out (${message})`, { ...base, outcomeUnknown: ctx.write === true }, e);
  }
  if (CONNECT_REFUSED.has(code)) {
    return storeErrors.retryable('unavailable', `${where}: endpoint unreachable (${code})`, { ...base, outcomeUnknown: false }, e);
  }
  if (CONNECTION_LOST.has(code) || /socket hang up/i.test(message)) {
    return storeErrors.retryable('timeout', `${where}: connection lost (${code})`, { ...base, outcomeUnknown: ctx.write === true }, e);
  }
  if (status === 412 || code === 'PreconditionFailed') {
    if (path !== undefined && ctx.cond?.ifNoneMatch === '*') return storeErrors.alreadyExists(path, e);
    if (path !== undefined && ctx.cond?.ifMatch !== undefined) return storeErrors.preconditionFailedUnknownCurrent(path, ctx.cond.ifMatch, e);
    return new StoreError('PreconditionFailed', `${where}: precondition failed`, base, e);
  }
  if (code === 'NoSuchBucket') return storeErrors.invalid('bucket', `${where}: the bucket does not exist`);
  if (code === 'NoSuchUpload') {
    return storeErrors.retryable('conflict', `${where}: the multipart upload was aborted`, { ...base, outcomeUnknown: false }, e);
  }
  if (status === 404 || code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchVersion') {
    // If-Match on a missing key: S3 answers 404, the contract says PreconditionFailed.
    if (path !== undefined && ctx.cond?.ifMatch !== undefined) return storeErrors.preconditionFailed(path, ctx.cond.ifMatch, null, e);
    if (path !== undefined && ctx.versionId !== undefined) return storeErrors.versionNotFound(path, ctx.versionId, e);
    if (path !== undefined) return storeErrors.notFound(path, e);
    return new StoreError('NotFound', `${where}: not found`, base, e);
  }
  if (status === 416 || code === 'InvalidRange') {
    return new StoreError('InvalidRange', `${where}: range not satisfiable`, base, e);
  }
  if (status === 409 || code === 'ConditionalRequestConflict' || code === 'OperationAborted') {
    return storeErrors.retryable('conflict', `${where}: conflict (${code})`, { ...base, outcomeUnknown: false }, e);
  }
  if (status === 503 || code === 'SlowDown' || code === 'ServiceUnavailable' || code === 'Throttling' || code === 'ThrottlingException') {
    return storeErrors.retryable('throttle', `${where}: throttled (${code})`, { ...base, outcomeUnknown: false }, e);
  }
  if (status === 500 || status === 502 || status === 504 || code === 'InternalError') {
    return storeErrors.retryable('unavailable', `${where}: server error ${status ?? ''} (${code})`, { ...base, outcomeUnknown: ctx.write === true }, e);
  }
  if (status === 403 || code === 'AccessDenied' || code === 'InvalidAccessKeyId' || code === 'SignatureDoesNotMatch') {
    return storeErrors.permissionDenied(path, `${where}: access denied (${code})`, e);
  }
  if (status === 501 || code === 'NotImplemented') return storeErrors.unsupported('s3 endpoint', `${ctx.op} (${code})`);
  if (status === 400) return new StoreError('InvalidArgument', `${where}: the server refused the request (${code}: ${message})`, base, e);
  return storeErrors.internal(`${where}: ${code}: ${message}`, base, e);
}

function parseContentRange(v: string | undefined): { start: number; end: number; total: number } | undefined {
  const m = v === undefined ? null : /^bytes (\d+)-(\d+)\/(\d+)$/.exec(v.trim());
  return m ? { start: Number(m[1]), end: Number(m[2]) + 1, total: Number(m[3]) } : undefined;
}

/**
 * An S3 endpoint is an http(s) URL (the store URL's ?endpoint=, read with the config too). The
 * value is not quoted: it may carry credentials.
 */
export function checkS3Endpoint(endpoint: string): void {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    throw storeErrors.invalid('endpoint', 'is not a URL (http://host:port or https://host)');
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw storeErrors.invalid('endpoint', 'must be an http:// or https:// URL');
}

export class S3Store implements Store {
  readonly bucket: string;
  readonly keyPrefix: string;
  private readonly client: S3Client;
  /** One attempt only: see S3_CONDITIONAL_MAX_ATTEMPTS. */
  private readonly condClient: S3Client;
  private readonly sse: { ServerSideEncryption?: ServerSideEncryption; SSEKMSKeyId?: string };
  private readonly thresholdBytes: number;
  private readonly partBytes: number;
  private readonly deadlineMs: number;
  /** The bucket's versioning as last asked (versioning()), and when. */
  private bucketVersioning: { on: boolean; at: number } | null = null;

  constructor(opts: S3StoreOptions) {
    if (typeof opts.bucket !== 'string' || !BUCKET_NAME.test(opts.bucket)) {
      throw storeErrors.invalid('bucket', `must be an S3 bucket name (3-63 of a-z 0-9 . -); got ${JSON.stringify(opts.bucket)}`);
    }
    this.bucket = opts.bucket;
    const prefix = (opts.prefix ?? '').replace(/^\/+|\/+$/g, '');
    if (prefix !== '') validatePath(prefix, 'prefix');
    if (Buffer.byteLength(prefix, 'utf8') > MAX_PATH_BYTES / 2) {
      throw storeErrors.invalid('prefix', `must leave room for paths: at most ${MAX_PATH_BYTES / 2} bytes`);
    }
    this.keyPrefix = prefix === '' ? '' : `${prefix}/`;
    if (opts.endpoint !== undefined) checkS3Endpoint(opts.endpoint);
    if (opts.sse !== undefined && opts.sse !== 'AES256' && opts.sse !== 'aws:kms') {
      throw storeErrors.invalid('sse', 'must be AES256 or aws:kms');
    }
    this.thresholdBytes = opts.multipartThresholdBytes ?? MULTIPART_THRESHOLD_BYTES;
    this.partBytes = opts.partSizeBytes ?? MULTIPART_PART_BYTES;
    if (!Number.isInteger(this.partBytes) || this.partBytes < S3_MIN_PART_BYTES) {
      throw storeErrors.invalid('partSizeBytes', `must be an integer ≥ ${S3_MIN_PART_BYTES} (S3's smallest part)`);
    }
    if (!Number.isInteger(this.thresholdBytes) || this.thresholdBytes < this.partBytes) {
      throw storeErrors.invalid('multipartThresholdBytes', 'must be an integer ≥ the part size');
    }
    this.deadlineMs = opts.requestDeadlineMs ?? S3_REQUEST_DEADLINE_MS;
    const maxAttempts = opts.maxAttempts ?? S3_MAX_ATTEMPTS;
    if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw storeErrors.invalid('maxAttempts', 'must be an integer ≥ 1');
    this.sse = {
      ...(opts.sse ? { ServerSideEncryption: opts.sse as ServerSideEncryption } : {}),
      ...(opts.sseKmsKeyId ? { SSEKMSKeyId: opts.sseKmsKeyId } : {}),
    };
    const config = {
      region: opts.region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1',
      ...(opts.endpoint !== undefined ? { endpoint: opts.endpoint } : {}),
      forcePathStyle: opts.forcePathStyle === true,
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      requestHandler: { connectionTimeout: S3_CONNECT_TIMEOUT_MS, requestTimeout: this.deadlineMs },
      // Checksums only where S3 requires them: S3-compatible servers vary in the newer
      // flexible checksums; puts carry their CRC32C (x-amz-checksum-crc32c), which S3 and MinIO check.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    this.client = new S3Client({ ...config, maxAttempts });
    this.condClient = new S3Client({ ...config, maxAttempts: S3_CONDITIONAL_MAX_ATTEMPTS });
  }

  capabilities(): StoreCapabilities {
    return {
      provider: 's3',
      // Until the bucket was asked, assume it may keep versions: the version calls work on any bucket.
      versioning: this.bucketVersioning?.on ?? true,
      conditionalPut: true,
      crossProcess: true,
      multipart: true,
      durable: true,
      maxPathBytes: this.maxPathBytes,
    };
  }

  async versioning(): Promise<boolean> {
    const known = this.bucketVersioning;
    if (known && Date.now() - known.at < VERSIONING_CHECK_MS) return known.on;
    const res = await this.call({ op: 'versioning' }, (abortSignal) =>
      this.client.send(new GetBucketVersioningCommand({ Bucket: this.bucket }), { abortSignal }),
    );
    // Suspended keeps the versions written while it was on: they must be deleted by id too.
    const on = res.Status === 'Enabled' || res.Status === 'Suspended';
    this.bucketVersioning = { on, at: Date.now() };
    return on;
  }

  /** The longest path this store takes: S3's key limit less the prefix. */
  private get maxPathBytes(): number {
    return MAX_PATH_BYTES - Buffer.byteLength(this.keyPrefix, 'utf8');
  }

  private key(path: string): string {
    return this.keyPrefix + path;
  }

  private validate(path: string): void {
    validatePath(path);
    const bytes = Buffer.byteLength(path, 'utf8');
    if (bytes > this.maxPathBytes) {
      throw storeErrors.invalid('path', `is ${bytes} bytes; under the prefix "${this.keyPrefix}" the limit is ${this.maxPathBytes}`);
    }
  }

  /** Run one request under the deadline and map its errors. */
  private async call<T>(ctx: CallContext, fn: (signal: AbortSignal) => Promise<T>, deadlineMs = this.deadlineMs): Promise<T> {
    try {
      return await fn(AbortSignal.timeout(deadlineMs));
    } catch (e) {
      throw mapS3Error(e, ctx);
    }
  }

  async get(path: string, opts: GetOptions = {}): Promise<GetResult> {
    this.validate(path);
    const range = opts.range;
    if (range !== undefined) validateRange(path, range);
    const ctx: CallContext = { op: 'get', path };
    return this.call(ctx, async (abortSignal) => {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.key(path), ...(range ? { Range: rangeHeader(range) } : {}) }),
        { abortSignal },
      );
      const body = res.Body ? Buffer.from(await res.Body.transformToByteArray()) : Buffer.alloc(0);
      const etag = res.ETag ?? '';
      if (range === undefined) return { bytes: body, etag, size: body.length };
      const cr = parseContentRange(res.ContentRange);
      if (cr) {
        if (cr.end - cr.start !== body.length) throw storeErrors.internal(`get ${path}: Content-Range and body length disagree`, { path });
        // The server decided the range; check it against the contract's rules too.
        const want = resolveRange(path, range, cr.total);
        if (want.start !== cr.start || want.end !== cr.end) {
          throw storeErrors.internal(`get ${path}: asked for ${want.start}-${want.end}, got ${cr.start}-${cr.end}`, { path });
        }
        return { bytes: body, etag, size: cr.total, range: want };
      }
      // No Content-Range: the server sent the whole object (it may ignore a range it cannot serve).
      const r = resolveRange(path, range, body.length);
      return { bytes: body.subarray(r.start, r.end), etag, size: body.length, range: r };
    });
  }

  async head(path: string): Promise<HeadResult> {
    this.validate(path);
    return this.call({ op: 'head', path }, async (abortSignal) => {
      const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.key(path) }), { abortSignal });
      return { etag: res.ETag ?? '', size: res.ContentLength ?? 0 };
    });
  }

  private condHeaders(cond: PutCondition): { IfNoneMatch?: string; IfMatch?: string } {
    if (cond.ifNoneMatch === '*') return { IfNoneMatch: '*' };
    if (cond.ifMatch !== undefined) return { IfMatch: cond.ifMatch };
    return {};
  }

  private clientFor(cond: PutCondition): S3Client {
    return cond.ifNoneMatch !== undefined || cond.ifMatch !== undefined ? this.condClient : this.client;
  }

  async put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    this.validate(path);
    const c = validateCondition(cond);
    const buf = toBuffer(bytes);
    if (buf.length > this.thresholdBytes) return this.upload(path, buf, c, buf.length);
    const ctx: CallContext = { op: 'put', path, cond: c, write: true };
    return this.call(ctx, async (abortSignal) => {
      const res = await this.clientFor(c).send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.key(path),
          Body: buf,
          ContentLength: buf.length,
          // The body's integrity, checked by the server: CRC32C computed natively (a 4 MiB MD5
          // was about 7 ms of CPU per put, most of a large put's cost over the bare call).
          ChecksumCRC32C: crc32cBase64(buf),
          ...this.condHeaders(c),
          ...this.sse,
        }),
        { abortSignal },
      );
      return { etag: res.ETag ?? '' };
    });
  }

  async putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    this.validate(path);
    const c = validateCondition(cond);
    return this.upload(path, Readable.from(source, { objectMode: false }), c, undefined);
  }

  /**
   * A multipart upload (a single PutObject when the body fits in one part). The condition
   * rides on CompleteMultipartUpload, so it is checked atomically when the object appears.
   * On failure lib-storage aborts the upload, so no parts are left behind.
   */
  private async upload(path: string, body: Buffer | Readable, cond: PutCondition, size: number | undefined): Promise<PutResult> {
    const ctx: CallContext = { op: 'put (multipart)', path, cond, write: true };
    const deadline =
      S3_UPLOAD_DEADLINE_BASE_MS + (size === undefined ? 0 : Math.ceil(size / (1024 * 1024)) * S3_UPLOAD_MS_PER_MIB);
    const controller = new AbortController();
    const upload = new Upload({
      client: this.clientFor(cond),
      params: { Bucket: this.bucket, Key: this.key(path), Body: body, ...this.condHeaders(cond), ...this.sse },
      partSize: this.partBytes,
      queueSize: MULTIPART_CONCURRENCY,
      leavePartsOnError: false,
      abortController: controller,
    });
    // A streamed upload of unknown size gets the base deadline per part-sized window of progress.
    let timer: NodeJS.Timeout | undefined;
    const arm = (): void => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), deadline);
    };
    arm();
    if (size === undefined) upload.on('httpUploadProgress', arm);
    try {
      const res = await upload.done();
      return { etag: res.ETag ?? '' };
    } catch (e) {
      if (controller.signal.aborted) {
        throw storeErrors.retryable('timeout', `put ${path}: multipart upload passed its deadline`, { path, outcomeUnknown: true }, e);
      }
      throw mapS3Error(e, ctx);
    } finally {
      if (timer) clearTimeout(timer);
    }
  }

  async delete(path: string): Promise<void> {
    this.validate(path);
    try {
      await this.call({ op: 'delete', path, write: true }, (abortSignal) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(path) }), { abortSignal }),
      );
    } catch (e) {
      if (e instanceof StoreError && e.code === 'NotFound') return; // some servers answer 404: missing is fine
      throw e;
    }
  }

  async list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>> {
    validatePrefix(prefix);
    const { after, limit } = validateListOptions(opts);
    const items: ObjectInfo[] = [];
    let token: string | undefined;
    // A truncated page with no keys is possible in principle; follow it a bounded number of times.
    for (let page = 0; page <= S3_EMPTY_PAGE_FOLLOWS; page++) {
      const res = await this.call({ op: 'list', path: undefined }, (abortSignal) =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.bucket,
            Prefix: this.keyPrefix + prefix,
            MaxKeys: limit,
            ...(token !== undefined ? { ContinuationToken: token } : after !== undefined ? { StartAfter: this.keyPrefix + after } : {}),
          }),
          { abortSignal },
        ),
      );
      for (const o of res.Contents ?? []) {
        if (o.Key === undefined || !o.Key.startsWith(this.keyPrefix)) continue;
        items.push({ path: o.Key.slice(this.keyPrefix.length), size: o.Size ?? 0, etag: o.ETag ?? '' });
      }
      if (!res.IsTruncated) return { items };
      if (items.length > 0) return { items, next: items[items.length - 1]!.path };
      token = res.NextContinuationToken;
      if (token === undefined) break;
    }
    throw storeErrors.retryable('busy', `list ${prefix}: the server returned ${S3_EMPTY_PAGE_FOLLOWS} empty truncated pages`, {});
  }

  async listVersions(prefix: string, opts: ListVersionsOptions): Promise<ListPage<ObjectVersion>> {
    validatePrefix(prefix);
    const { after, limit } = validateListOptions(opts);
    let keyMarker: string | undefined;
    let versionMarker: string | undefined;
    if (after !== undefined) {
      try {
        const [k, v] = JSON.parse(after) as [unknown, unknown];
        if (typeof k !== 'string' || (v !== null && typeof v !== 'string')) throw new Error('shape');
        keyMarker = k;
        versionMarker = v ?? undefined;
      } catch {
        throw storeErrors.invalid('after', 'is not a cursor from a previous listVersions page');
      }
    }
    const res = await this.call({ op: 'listVersions' }, (abortSignal) =>
      this.client.send(
        new ListObjectVersionsCommand({
          Bucket: this.bucket,
          Prefix: this.keyPrefix + prefix,
          MaxKeys: limit,
          ...(keyMarker !== undefined ? { KeyMarker: keyMarker } : {}),
          ...(versionMarker !== undefined ? { VersionIdMarker: versionMarker } : {}),
        }),
        { abortSignal },
      ),
    );
    type Row = ObjectVersion & { modified: number };
    const rows: Row[] = [];
    for (const v of res.Versions ?? []) {
      if (v.Key === undefined || !v.Key.startsWith(this.keyPrefix)) continue;
      rows.push({
        path: v.Key.slice(this.keyPrefix.length),
        versionId: v.VersionId ?? 'null',
        isLatest: v.IsLatest === true,
        deleteMarker: false,
        size: v.Size ?? 0,
        etag: v.ETag ?? '',
        modified: v.LastModified?.getTime() ?? 0,
      });
    }
    for (const m of res.DeleteMarkers ?? []) {
      if (m.Key === undefined || !m.Key.startsWith(this.keyPrefix)) continue;
      rows.push({
        path: m.Key.slice(this.keyPrefix.length),
        versionId: m.VersionId ?? 'null',
        isLatest: m.IsLatest === true,
        deleteMarker: true,
        size: 0,
        modified: m.LastModified?.getTime() ?? 0,
      });
    }
    // The SDK splits versions and markers into two lists: restore S3's order (key, newest first).
    rows.sort((a, b) => comparePaths(a.path, b.path) || b.modified - a.modified || Number(b.isLatest) - Number(a.isLatest));
    const items = rows.map(({ modified: _m, ...v }) => v);
    if (res.IsTruncated && res.NextKeyMarker !== undefined) {
      return { items, next: JSON.stringify([res.NextKeyMarker, res.NextVersionIdMarker ?? null]) };
    }
    return { items };
  }

  async deleteVersion(path: string, versionId: string): Promise<void> {
    this.validate(path);
    if (typeof versionId !== 'string' || versionId === '') throw storeErrors.invalid('versionId', 'must be a non-empty string');
    try {
      await this.call({ op: 'deleteVersion', path, versionId, write: true }, (abortSignal) =>
        this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(path), VersionId: versionId }), { abortSignal }),
      );
    } catch (e) {
      if (e instanceof StoreError && e.code === 'NotFound') return; // a missing version is fine (erasure retries)
      throw e;
    }
  }

  async close(): Promise<void> {
    this.client.destroy();
    this.condClient.destroy();
  }
}

/** The CRC32C of bytes as S3's x-amz-checksum-crc32c header carries it (big-endian, base64). */
function crc32cBase64(buf: Buffer): string {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32BE(crc32c(buf) >>> 0);
  return b.toString('base64');
}
