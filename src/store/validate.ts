// Argument checks shared by every provider, so a bad path or range is the same
// InvalidArgument / InvalidRange everywhere (spec §4.4) and no provider sees it.
import { createHash } from 'node:crypto';
import { storeErrors } from './errors.js';
import { LIST_PAGE_MAX, LIST_PAGE_MIN, MAX_PATH_BYTES, MAX_SEGMENT_BYTES } from './limits.js';
import type { ByteRange, ListOptions, PutCondition } from './types.js';

// Control characters, DEL and backslash: they break S3 XML listings, terminals or the
// file provider's mapping of paths to files.
const FORBIDDEN_CHARS = /[\u0000-\u001f\u007f\\]/;

/**
 * An object path: `seg/seg/…`, 1..MAX_PATH_BYTES bytes of UTF-8, no leading or trailing
 * slash, no empty, `.` or `..` segment, no control character or backslash.
 */
export function validatePath(path: unknown, field = 'path'): asserts path is string {
  if (typeof path !== 'string') throw storeErrors.invalid(field, 'must be a string');
  if (path.length === 0) throw storeErrors.invalid(field, 'must not be empty');
  // A lone surrogate does not survive a UTF-8 round trip: two paths would name one object.
  if (!path.isWellFormed()) throw storeErrors.invalid(field, 'must be well-formed Unicode');
  const bytes = Buffer.byteLength(path, 'utf8');
  if (bytes > MAX_PATH_BYTES) throw storeErrors.invalid(field, `is ${bytes} bytes; the limit is ${MAX_PATH_BYTES}`);
  if (FORBIDDEN_CHARS.test(path)) throw storeErrors.invalid(field, 'must not contain control characters or "\\"');
  if (path.startsWith('/') || path.endsWith('/')) throw storeErrors.invalid(field, 'must not start or end with "/"');
  for (const seg of path.split('/')) {
    if (seg === '') throw storeErrors.invalid(field, 'must not contain an empty segment ("//")');
    if (seg === '.' || seg === '..') throw storeErrors.invalid(field, 'must not contain a "." or ".." segment');
    if (Buffer.byteLength(seg, 'utf8') > MAX_SEGMENT_BYTES) {
      throw storeErrors.invalid(field, `has a segment over ${MAX_SEGMENT_BYTES} bytes`);
    }
  }
}

/** A listing prefix: '' or the start of a path; it may end with '/' or part-way into a segment. */
export function validatePrefix(prefix: unknown): asserts prefix is string {
  if (typeof prefix !== 'string') throw storeErrors.invalid('prefix', 'must be a string');
  if (prefix === '') return;
  if (!prefix.isWellFormed()) throw storeErrors.invalid('prefix', 'must be well-formed Unicode');
  if (Buffer.byteLength(prefix, 'utf8') > MAX_PATH_BYTES) throw storeErrors.invalid('prefix', `is over ${MAX_PATH_BYTES} bytes`);
  if (FORBIDDEN_CHARS.test(prefix)) throw storeErrors.invalid('prefix', 'must not contain control characters or "\\"');
  if (prefix.startsWith('/')) throw storeErrors.invalid('prefix', 'must not start with "/"');
  const segs = prefix.split('/');
  // Every complete segment (all but the last) follows the path rules; the last may be partial.
  for (const seg of segs.slice(0, -1)) {
    if (seg === '' || seg === '.' || seg === '..') throw storeErrors.invalid('prefix', 'has an empty, "." or ".." segment');
  }
}

export function validateListOptions(opts: ListOptions | undefined): { after: string | undefined; limit: number } {
  if (opts === undefined || opts === null || typeof opts !== 'object') throw storeErrors.invalid('limit', 'is required');
  const { after, limit } = opts;
  if (!Number.isInteger(limit) || limit < LIST_PAGE_MIN || limit > LIST_PAGE_MAX) {
    throw storeErrors.invalid('limit', `must be an integer in ${LIST_PAGE_MIN}..${LIST_PAGE_MAX}; got ${String(limit)}`);
  }
  if (after !== undefined) {
    if (typeof after !== 'string') throw storeErrors.invalid('after', 'must be a string');
    if (Buffer.byteLength(after, 'utf8') > MAX_PATH_BYTES * 2 + 64) throw storeErrors.invalid('after', 'is too long');
  }
  return { after, limit };
}

export function validateCondition(cond: PutCondition | undefined): PutCondition {
  if (cond === undefined || cond === null) return {};
  if (typeof cond !== 'object') throw storeErrors.invalid('condition', 'must be an object');
  const { ifNoneMatch, ifMatch } = cond as { ifNoneMatch?: unknown; ifMatch?: unknown };
  if (ifNoneMatch !== undefined && ifMatch !== undefined) {
    throw storeErrors.invalid('condition', 'ifNoneMatch and ifMatch cannot be combined');
  }
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch !== '*') throw storeErrors.invalid('ifNoneMatch', 'only "*" (create-only) is supported');
    return { ifNoneMatch: '*' };
  }
  if (ifMatch !== undefined) {
    if (typeof ifMatch !== 'string' || ifMatch.length === 0 || ifMatch === '*' || FORBIDDEN_CHARS.test(ifMatch)) {
      throw storeErrors.invalid('ifMatch', 'must be an ETag returned by put, head or get');
    }
    return { ifMatch };
  }
  return {};
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** Reject malformed ranges before any request (see ByteRange). */
export function validateRange(path: string, range: ByteRange): void {
  if (range === null || typeof range !== 'object') throw storeErrors.invalidRange(path, 'must be an object');
  if ('suffix' in range) {
    if (!isCount(range.suffix) || range.suffix < 1) throw storeErrors.invalidRange(path, 'suffix must be an integer ≥ 1');
    return;
  }
  const { start, end } = range as { start: unknown; end?: unknown };
  if (!isCount(start)) throw storeErrors.invalidRange(path, 'start must be an integer ≥ 0');
  if (end !== undefined) {
    if (!isCount(end)) throw storeErrors.invalidRange(path, 'end must be an integer ≥ 0');
    if (end <= start) throw storeErrors.invalidRange(path, `end (${end}) must be greater than start (${start})`);
  }
}

/** The served [start, end) of a valid range on an object of `size` bytes, or InvalidRange. */
export function resolveRange(path: string, range: ByteRange, size: number): { start: number; end: number } {
  validateRange(path, range);
  if ('suffix' in range) {
    if (size === 0) throw storeErrors.invalidRange(path, 'a suffix range of an empty object is unsatisfiable', size);
    return { start: Math.max(0, size - range.suffix), end: size };
  }
  if (range.start >= size) {
    throw storeErrors.invalidRange(path, `start ${range.start} is at or past the end of the object (${size} bytes)`, size);
  }
  return { start: range.start, end: Math.min(size, range.end ?? size) };
}

/** The HTTP Range header value for a valid range (end inclusive there). */
export function rangeHeader(range: ByteRange): string {
  if ('suffix' in range) return `bytes=-${range.suffix}`;
  return range.end === undefined ? `bytes=${range.start}-` : `bytes=${range.start}-${range.end - 1}`;
}

/** An S3-style ETag for bytes held whole: the MD5 hex in double quotes. */
export function md5Etag(bytes: Uint8Array): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}

/** Compare two paths in the byte order of their UTF-8 encodings, as S3 lists them. */
export function comparePaths(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Read a whole byte source into one Buffer, refusing more than maxBytes. */
export async function collectSource(
  source: AsyncIterable<Uint8Array>,
  maxBytes: number,
  what: string,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of source) {
    if (!(chunk instanceof Uint8Array)) throw storeErrors.invalid('source', 'must yield Uint8Array chunks');
    total += chunk.byteLength;
    if (total > maxBytes) throw storeErrors.invalid('source', `${what} holds objects up to ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(chunks, total);
}

export function toBuffer(bytes: Uint8Array): Buffer {
  if (!(bytes instanceof Uint8Array)) throw storeErrors.invalid('bytes', 'must be a Buffer or Uint8Array');
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
