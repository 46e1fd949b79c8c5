// The data commands of `loam` (issue 21 §2): namespaces, collections, documents and queries,
// against a running node over its HTTP API, through the TypeScript client (src/client). The
// node is --url or LOAM_URL; the API key is LOAM_KEY (an environment variable, not a flag,
// so it stays out of shell history and process lists). Any 4xx/5xx answer ends the command
// with exit status 1 and the server's message on stderr.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CLIENT_ERROR_CODES, LoamError, type Doc, type Page } from '../client/index.js';
import { formatOne, formatRows, OUTPUT_FORMATS, type OutputFormat } from './output.js';
import { MIN_LOG_RETENTION_BYTES, MIN_LOG_RETENTION_MS } from '../collection/retention.js';
import { DEFAULT_COLLECTION_LOG_RETENTION_MS } from '../meta/limits.js';
import { DEFAULT_BATCH_DOCS, InputError } from './docs-input.js';
import { putDocuments } from './docs-put.js';
import { clientFor, print, printStreamed, type Remote } from './connection.js';

export { clientFor, print, type Remote };

/** The node the data commands talk to unless --url or LOAM_URL says otherwise (what `loam dev` listens on). */
export const DEFAULT_URL = 'http://127.0.0.1:7070';
/** Items a list or query prints unless --limit (or --all) says otherwise. */
export const DEFAULT_PRINT_LIMIT = 100;
/** Items a list or query prints at most with --all in a table or json (they are held to be laid out); jsonl streams. */
export const MAX_BUFFERED_ROWS = 100_000;

function positiveInt(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

/** A JSON number, written out: Number() alone would read "" as 0 and "0x10" as 16, naming another document. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Primary key values given with --number: each must be a JSON number (a wrong one is refused, never read as another key). */
export function numberKeys(values: readonly string[]): number[] {
  return values.map((v) => {
    const n = Number(v);
    if (!JSON_NUMBER.test(v) || !Number.isFinite(n)) throw new InputError(`--number: ${JSON.stringify(v)} is not a number (a JSON number such as 17 or -2.5)`);
    return n;
  });
}

export function jsonObject(v: string): Record<string, unknown> {
  try {
    const x = JSON.parse(v) as unknown;
    if (x === null || typeof x !== 'object' || Array.isArray(x)) throw new Error('not an object');
    return x as Record<string, unknown>;
  } catch {
    throw new InvalidArgumentError(`expected a JSON object, e.g. '{"year":{"$gte":1980}}'`);
  }
}

/** --url / LOAM_URL: refused as a usage error unless an http(s) URL (fetch's own errors name neither the option nor the fix). */
export function nodeUrl(v: string): string {
  let u: URL | null = null;
  try {
    u = new URL(v);
  } catch {
    // not a URL at all: refused below
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '') throw new InvalidArgumentError(`expected the node's http:// or https:// URL, e.g. ${DEFAULT_URL}`);
  return v;
}

/** The options every data command takes, and its example. */
export function remote(c: Command, example: string): Command {
  return c
    .addOption(new Option('--url <url>', 'the node').env('LOAM_URL').default(DEFAULT_URL).argParser(nodeUrl))
    .addOption(new Option('-o, --output <format>', 'how to print the answer').choices([...OUTPUT_FORMATS]).default('table'))
    .addHelpText('after', `\nThe API key is read from LOAM_KEY.\n\nExample:\n  ${example}\n`);
}

/** Reports a failure the way a user can act on: the server's message, unchanged, and exit status 1. */
function failed(e: unknown, o: { url?: string }): void {
  if (e instanceof LoamError) {
    if (e.status === 0) console.error(`loam: ${e.message} (is a node running at ${o.url}? set --url or LOAM_URL)`);
    // Its message names the status and the request already.
    else if (e.code === CLIENT_ERROR_CODES.badResponse) console.error(`loam: ${e.message}; is ${o.url} a Loam node? (set --url or LOAM_URL)`);
    else console.error(`loam: ${e.message} (HTTP ${e.status} ${e.code})`);
  } else if (e instanceof InputError || e instanceof CommanderError) console.error(`loam: ${e.message}`);
  else console.error(`loam: ${(e as Error).stack ?? String(e)}`);
  process.exitCode = 1;
}

/** Runs a command's body; the options object is the one commander passes after the arguments. */
export function act<A extends unknown[]>(fn: (...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    const o = args.find((a, i) => i >= args.length - 2 && a !== null && typeof a === 'object' && !(a instanceof Command)) as { url?: string } | undefined;
    try {
      await fn(...args);
    } catch (e) {
      failed(e, o ?? {});
    }
  };
}

/** Follows pages up to `limit` items; prints them (jsonl as they arrive). Says on stderr when it stopped before the end. */
async function printPages<T extends object>(pages: AsyncIterable<{ items: T[]; more: boolean }>, o: Remote & { limit?: number; all?: boolean }, columns?: readonly string[]): Promise<void> {
  const limit = o.all ? (o.output === 'jsonl' ? Infinity : MAX_BUFFERED_ROWS) : (o.limit ?? DEFAULT_PRINT_LIMIT);
  const held: T[] = [];
  let shown = 0;
  let more = false;
  for await (const p of pages) {
    const take = p.items.slice(0, limit - shown);
    shown += take.length;
    if (o.output === 'jsonl') await printStreamed(formatRows(take as Record<string, unknown>[], 'jsonl'));
    else held.push(...take);
    if (shown >= limit) {
      more = take.length < p.items.length || p.more;
      break;
    }
  }
  if (o.output !== 'jsonl') print(formatRows(held as Record<string, unknown>[], o.output, columns));
  if (more) console.error(`loam: showing the first ${shown}; there are more (--limit N, or --all${o.output === 'jsonl' ? '' : ' with -o jsonl to stream them all'})`);
}

async function* items<T>(pages: AsyncIterable<Page<T>>): AsyncGenerator<{ items: T[]; more: boolean }> {
  for await (const p of pages) yield { items: p.items, more: p.next_cursor !== null };
}

const NS_COLUMNS = ['name', 'id', 'created'];
const COLL_COLUMNS = ['name', 'namespace', 'primary_key', 'partitions', 'fields', 'id', 'created'];

function namespaceCommands(p: Command): void {
  const ns = p
    .command('namespaces')
    .alias('ns')
    .description('Create, list, show and drop namespaces (on a running node, with LOAM_KEY).')
    .addHelpText('after', '\nExample:\n  LOAM_URL=http://127.0.0.1:7070 LOAM_KEY=loam_… loam namespaces list\n');
  remote(ns.command('create').argument('<name>').description('Create a namespace in the key\'s org.'), 'loam namespaces create demo').action(
    act(async (name: string, o: Remote) => print(formatOne(await clientFor(o).namespaces.create(name), o.output, NS_COLUMNS))),
  );
  remote(
    ns.command('list').description('List namespaces by name.').option('--prefix <prefix>', 'only names starting with this').option('--limit <n>', `print at most this many (default ${DEFAULT_PRINT_LIMIT})`, positiveInt).option('--all', 'print every one'),
    'loam namespaces list --prefix de -o json',
  ).action(
    act(async (o: Remote & { prefix?: string; limit?: number; all?: boolean }) =>
      printPages(items(clientFor(o).namespaces.pages(o.prefix ? { prefix: o.prefix } : {})), o, NS_COLUMNS),
    ),
  );
  remote(ns.command('show').argument('<name>').description('Show one namespace.'), 'loam namespaces show demo').action(
    act(async (name: string, o: Remote) => print(formatOne(await clientFor(o).namespaces.get(name), o.output, NS_COLUMNS))),
  );
  remote(ns.command('drop').argument('<name>').description('Drop a namespace (it must have no collections).'), 'loam namespaces drop demo').action(
    act(async (name: string, o: Remote) => {
      await clientFor(o).namespaces.drop(name);
      print(formatOne({ dropped: name }, o.output));
    }),
  );
}

function fieldType(v: string, prev: Record<string, string> = {}): Record<string, string> {
  const m = /^([^:]+):(.+)$/.exec(v);
  if (!m) throw new InvalidArgumentError('expected name:type, e.g. year:number');
  return { ...prev, [m[1]!]: m[2]! };
}

/** A retention bound: a positive integer, or `none` (no bound; kept as the word, since commander turns a parsed null into ''). */
function bound(v: string): number | 'none' {
  if (v === 'none') return v;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer, or none for no bound');
  return n;
}

const RETENTION_COLUMNS = ['collection', 'ms', 'bytes'];

/**
 * `loam collections retention`: shows the log retention, or sets the bounds given (a bound
 * not given keeps its value). The server checks each bound's range and names the field.
 */
async function retention(ns: string, name: string, o: Remote & { ms?: number | 'none'; bytes?: number | 'none' }): Promise<void> {
  const loam = clientFor(o);
  let c = await loam.collections.get(ns, name);
  if (o.ms !== undefined || o.bytes !== undefined) {
    const now = c.retention ?? { ms: null, bytes: null };
    const given = (v: number | 'none' | undefined, kept: number | null) => (v === undefined ? kept : v === 'none' ? null : v);
    c = await loam.collections.setRetention(ns, name, { ms: given(o.ms, now.ms), bytes: given(o.bytes, now.bytes) });
  }
  print(formatOne({ collection: `${ns}/${name}`, ms: c.retention?.ms ?? null, bytes: c.retention?.bytes ?? null }, o.output, RETENTION_COLUMNS));
}

function collectionCommands(p: Command): void {
  const coll = p
    .command('collections')
    .alias('coll')
    .description('Create, list, show and drop collections of a namespace, and set their log retention.')
    .addHelpText('after', '\nExample:\n  loam collections create demo books --primary-key id\n');
  remote(
    coll
      .command('create')
      .argument('<namespace>')
      .argument('<name>')
      .description('Create a collection of JSON documents with a primary key.')
      .requiredOption('--primary-key <field>', 'the field that identifies a document')
      .option('--partitions <n>', 'partitions of its log (the server\'s default when not given)', positiveInt)
      .option('--field <name:type>', 'a field type checked on write and in filters (string, number, boolean, json); repeatable', fieldType),
    'loam collections create demo books --primary-key id --field year:number',
  ).action(
    act(async (ns: string, name: string, o: Remote & { primaryKey: string; partitions?: number; field?: Record<string, string> }) => {
      const c = await clientFor(o).collections.create(ns, {
        name,
        primary_key: o.primaryKey,
        ...(o.partitions !== undefined ? { partitions: o.partitions } : {}),
        ...(o.field ? { fields: o.field as Record<string, 'string' | 'number' | 'boolean' | 'json'> } : {}),
      });
      print(formatOne(c, o.output, COLL_COLUMNS));
    }),
  );
  remote(
    coll.command('list').argument('<namespace>').description('List a namespace\'s collections by name.').option('--prefix <prefix>', 'only names starting with this').option('--limit <n>', `print at most this many (default ${DEFAULT_PRINT_LIMIT})`, positiveInt).option('--all', 'print every one'),
    'loam collections list demo',
  ).action(
    act(async (ns: string, o: Remote & { prefix?: string; limit?: number; all?: boolean }) =>
      printPages(items(clientFor(o).collections.pages(ns, o.prefix ? { prefix: o.prefix } : {})), o, COLL_COLUMNS),
    ),
  );
  remote(coll.command('show').argument('<namespace>').argument('<name>').description('Show one collection.'), 'loam collections show demo books').action(
    act(async (ns: string, name: string, o: Remote) => print(formatOne(await clientFor(o).collections.get(ns, name), o.output, COLL_COLUMNS))),
  );
  remote(
    coll
      .command('retention')
      .argument('<namespace>')
      .argument('<name>')
      .description(
        "Show or set a collection's log retention. A record of its log is trimmed once every retained manifest has applied it and " +
          `it is older than --ms or beyond its partition's last --bytes. New collections: --ms ${DEFAULT_COLLECTION_LOG_RETENTION_MS} (24 h) --bytes none; ` +
          '--ms none --bytes none keeps the log for ever. A bound not given keeps its value; with neither, the retention is shown. ' +
          "Setting it takes a namespace admin's key.",
      )
      .option('--ms <n|none>', `records older than this many milliseconds may be trimmed (${MIN_LOG_RETENTION_MS} or more), or none`, bound)
      .option('--bytes <n|none>', `each partition keeps at most about this many bytes of log (${MIN_LOG_RETENTION_BYTES} or more), or none`, bound),
    'loam collections retention demo books --ms 3600000 --bytes none',
  ).action(act(async (ns: string, name: string, o: Remote & { ms?: number | 'none'; bytes?: number | 'none' }) => retention(ns, name, o)));
  remote(coll.command('drop').argument('<namespace>').argument('<name>').description('Drop a collection and its documents.'), 'loam collections drop demo books').action(
    act(async (ns: string, name: string, o: Remote) => {
      await clientFor(o).collections.drop(ns, name);
      print(formatOne({ dropped: `${ns}/${name}` }, o.output));
    }),
  );
}

function documentCommands(p: Command): void {
  const docs = p
    .command('docs')
    .description('Put, get and delete documents of a collection.')
    .addHelpText('after', '\nExample:\n  loam docs put demo books --file books.jsonl\n');
  remote(
    docs
      .command('put')
      .argument('<namespace>')
      .argument('<collection>')
      .argument('[documents...]', 'documents as JSON objects')
      .description('Upsert documents: from arguments, from --file (a JSON array or JSON lines), or from stdin. A file shows a progress bar on a terminal.')
      .option('-f, --file <path>', 'a JSON array or JSON lines file ("-" for stdin)')
      .option('--batch-size <n>', 'documents per write request', positiveInt, DEFAULT_BATCH_DOCS),
    `loam docs put demo books '{"id":"b1","title":"Dune","year":1965}'   (or: loam docs put demo books --file books.jsonl)`,
  ).action(act(async (ns: string, coll: string, args: string[], o: Remote & { file?: string; batchSize: number }) => putDocuments(ns, coll, args, o)));
  remote(
    docs
      .command('get')
      .argument('<namespace>')
      .argument('<collection>')
      .argument('<ids...>', 'primary keys')
      .description('Get documents by primary key (a missing one is an error).')
      .addOption(new Option('--consistency <level>', 'strong sees every acknowledged write; eventual may lag').choices(['strong', 'eventual']))
      .option('--token <token>', 'a consistency token a write printed: the read sees that write'),
    'loam docs get demo books b1 b2 -o json',
  ).action(
    act(async (ns: string, coll: string, ids: string[], o: Remote & { consistency?: 'strong' | 'eventual'; token?: string }) => {
      const loam = clientFor(o);
      const read = { ...(o.consistency ? { consistency: o.consistency } : {}), ...(o.token ? { token: o.token } : {}) };
      const got: Doc[] = [];
      for (const id of ids) {
        const d = await loam.get(ns, coll, id, read);
        if (o.output === 'jsonl') await printStreamed(JSON.stringify(d));
        else got.push(d);
      }
      if (o.output !== 'jsonl') print(ids.length === 1 && got[0] ? formatOne(got[0], o.output) : formatRows(got, o.output));
    }),
  );
  remote(
    docs
      .command('delete')
      .argument('<namespace>')
      .argument('<collection>')
      .argument('<ids...>', 'primary keys')
      .option('--number', 'the keys are numbers (a collection whose primary key is declared number)')
      .description('Delete documents by primary key, in one write.'),
    'loam docs delete demo books b1 b3   |   loam docs delete demo scores 17 --number',
  ).action(
    act(async (ns: string, coll: string, ids: string[], o: Remote & { number?: boolean }) => {
      const r = await clientFor(o).write(ns, coll, { deletes: o.number ? numberKeys(ids) : ids });
      print(formatOne({ deleted: ids.length, token: r.token ?? null }, o.output));
    }),
  );
}

function queryCommand(p: Command): void {
  remote(
    p
      .command('query')
      .argument('<namespace>')
      .argument('<collection>')
      .argument('[filter]', 'a filter as JSON: $eq $ne $gt $gte $lt $lte $in, $and $or $not', jsonObject)
      .description('Query a collection with a filter, in primary-key order, following pages.')
      .option('--limit <n>', `print at most this many documents (default ${DEFAULT_PRINT_LIMIT})`, positiveInt)
      .option('--all', 'print every matching document (with -o jsonl, streamed page by page)')
      .option('--page-size <n>', 'documents per request (the server\'s default when not given)', positiveInt)
      .addOption(new Option('--consistency <level>', 'strong sees every acknowledged write; eventual may lag').choices(['strong', 'eventual']))
      .option('--token <token>', 'a consistency token a write printed: the query sees that write'),
    `loam query demo books '{"year":{"$gte":1980}}' -o jsonl`,
  ).action(
    act(async (ns: string, coll: string, filter: Record<string, unknown> | undefined, o: Remote & { limit?: number; all?: boolean; pageSize?: number; consistency?: 'strong' | 'eventual'; token?: string }) => {
      const q = {
        ...(filter ? { filter } : {}),
        ...(o.pageSize ? { limit: o.pageSize } : {}),
        ...(o.consistency ? { consistency: o.consistency } : {}),
        ...(o.token ? { token: o.token } : {}),
      };
      async function* pages() {
        for await (const page of clientFor(o).query(ns, coll, q)) yield { items: page.documents, more: page.next_cursor !== null };
      }
      await printPages(pages(), o);
    }),
  );
}

/** Registers the data commands on the `loam` program. */
export function dataCommands(p: Command): void {
  namespaceCommands(p);
  collectionCommands(p);
  documentCommands(p);
  queryCommand(p);
}
