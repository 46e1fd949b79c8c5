// Where `loam docs put` reads documents from: arguments (one JSON object each), a file (a JSON
// array, or JSON lines: one document per line) or stdin (JSON lines or a JSON array). The CLI
// only parses JSON; whether a document is acceptable is the server's to say (one source of
// truth), and its message is shown with the file position of the document it names.
import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Documents per write request unless --batch-size says otherwise. */
export const DEFAULT_BATCH_DOCS = 500;
/** A batch is sent once its JSON reaches this many bytes, well under the server's body limit. */
export const MAX_BATCH_JSON_BYTES = 8 * 1024 * 1024;
/** A JSON array is parsed whole, so its size is bounded; JSON lines stream at any size. */
export const MAX_JSON_ARRAY_BYTES = 256 * 1024 * 1024;
/** Bytes looked at to tell a JSON array from JSON lines. */
const SNIFF_BYTES = 4096;

export class InputError extends Error {}

/** A document and where it came from ("line 12", "item 3", "argument 2"). */
export interface Located {
  doc: unknown;
  at: string;
}

function parse(text: string, at: string): Located {
  try {
    return { doc: JSON.parse(text) as unknown, at };
  } catch (e) {
    throw new InputError(`${at}: not JSON: ${(e as Error).message}`);
  }
}

export function fromArguments(args: readonly string[]): Located[] {
  return args.map((a, i) => parse(a, `argument ${i + 1}`));
}

function arrayItems(text: string, what: string): Located[] {
  const v = parse(text, what).doc;
  if (!Array.isArray(v)) throw new InputError(`${what}: expected a JSON array of documents or JSON lines`);
  return v.map((doc, i) => ({ doc, at: `item ${i + 1}` }));
}

async function* lines(input: Readable): AsyncGenerator<Located> {
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  for await (const line of rl) {
    n++;
    if (line.trim() === '') continue;
    yield parse(line, `line ${n}`);
  }
}

async function firstChar(path: string): Promise<string> {
  const f = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await f.read(Buffer.alloc(SNIFF_BYTES), 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').trimStart()[0] ?? '';
  } finally {
    await f.close();
  }
}

/**
 * A file's documents. Read once first to parse every document and count them (so bad JSON
 * anywhere in it writes nothing, and the progress bar knows its total), then again to send.
 */
export async function fromFile(path: string): Promise<{ total: number; docs: () => AsyncIterable<Located> }> {
  const size = await stat(path).then(
    (s) => {
      if (!s.isFile()) throw new InputError(`--file ${path} is not a file`);
      return s.size;
    },
    (e: NodeJS.ErrnoException) => {
      throw new InputError(`--file ${path} cannot be read: ${e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.message}`);
    },
  );
  if ((await firstChar(path)) === '[') {
    if (size > MAX_JSON_ARRAY_BYTES) throw new InputError(`${path} is a JSON array of ${size} bytes, over ${MAX_JSON_ARRAY_BYTES}; write it as JSON lines (one document per line), which stream`);
    const items = arrayItems(await readFile(path, 'utf8'), path);
    return { total: items.length, docs: async function* () { yield* items; } };
  }
  let total = 0;
  for await (const _ of lines(createReadStream(path))) total++;
  return { total, docs: () => lines(createReadStream(path)) };
}

/** Stdin's documents, as they arrive (JSON lines; a JSON array is read whole, within MAX_JSON_ARRAY_BYTES). */
export async function* fromStdin(input: Readable): AsyncGenerator<Located> {
  // A JSON array (possibly spread over lines) is collected and parsed whole.
  const rl = createInterface({ input, crlfDelay: Infinity });
  let n = 0;
  let array: string[] | null = null;
  let bytes = 0;
  for await (const line of rl) {
    n++;
    if (array === null && line.trim() === '') continue;
    if (array === null && line.trimStart().startsWith('[')) array = [];
    if (array !== null) {
      bytes += line.length + 1;
      if (bytes > MAX_JSON_ARRAY_BYTES) throw new InputError(`stdin: a JSON array over ${MAX_JSON_ARRAY_BYTES} bytes; send JSON lines (one document per line), which stream`);
      array.push(line);
      continue;
    }
    if (line.trim() === '') continue;
    yield parse(line, `line ${n}`);
  }
  if (array !== null) yield* arrayItems(array.join('\n'), 'stdin');
}

/** Groups documents into write batches by count and by JSON size. */
export async function* batches(docs: AsyncIterable<Located> | Iterable<Located>, maxDocs: number): AsyncGenerator<Located[]> {
  let batch: Located[] = [];
  let bytes = 0;
  for await (const d of docs) {
    const size = Buffer.byteLength(JSON.stringify(d.doc) ?? 'null');
    if (batch.length > 0 && (batch.length >= maxDocs || bytes + size > MAX_BATCH_JSON_BYTES)) {
      yield batch;
      batch = [];
      bytes = 0;
    }
    batch.push(d);
    bytes += size + 1;
  }
  if (batch.length > 0) yield batch;
}
