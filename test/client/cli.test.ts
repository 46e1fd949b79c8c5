// The data commands of `loam`, driven as a user does: the package's bin in a child process,
// LOAM_URL and LOAM_KEY in its environment, against a real node; stdout, stderr and the exit
// status checked. The progress bar is checked on a pseudo-terminal (script(1)) and off a pipe.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { program } from '../../src/cli/main.js';
import { BIN, freePort, keyedNode, raw, sh, type KeyedNode, type Run } from './helpers.js';

let n: KeyedNode;
let dir: string;

/** A command line run with the node's URL and key in the environment. */
const nodeSh = (line: string, o: { input?: string; env?: Record<string, string> } = {}): Promise<Run> =>
  sh(line, { ...o, env: { LOAM_URL: n.url, LOAM_KEY: n.admin, ...o.env } });

const loam = (args: string, o?: { input?: string; env?: Record<string, string> }) => nodeSh(`node ${BIN} ${args}`, o);

function ok(r: Run): string {
  assert.equal(r.code, 0, `exit ${r.code}: ${r.stderr}`);
  return r.stdout;
}

before(async () => {
  n = await keyedNode();
  dir = mkdtempSync(join(tmpdir(), 'loam-cli-'));
});
after(async () => {
  await n?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('loam CLI: data commands against a real node', () => {
  test('namespaces create, list, show, drop in table, json and jsonl; a 409 exits 1 with the server\'s message', async () => {
    assert.match(ok(await loam('namespaces create demo')), /^name\s+id\s+created\ndemo\s+\d+\s+\d{4}-\d\d-\d\dT/);
    ok(await loam('ns create other -o json'));
    const taken = await loam('namespaces create demo');
    assert.equal(taken.code, 1);
    const server = await raw(n.url, n.admin, 'POST', '/v1/namespaces', { name: 'demo' });
    assert.ok(taken.stderr.includes(server.body.error.message), taken.stderr);
    assert.match(taken.stderr, /HTTP 409 already_exists/);
    assert.equal(taken.stdout, '');
    const list = JSON.parse(ok(await loam('namespaces list -o json'))) as { name: string }[];
    assert.deepEqual(list.map((x) => x.name), ['demo', 'other']);
    assert.deepEqual(ok(await loam('namespaces list --prefix ot -o jsonl')).trim().split('\n').map((l) => JSON.parse(l).name), ['other']);
    const limited = await loam('namespaces list --limit 1 -o jsonl');
    assert.equal(ok(limited).trim().split('\n').length, 1);
    assert.match(limited.stderr, /showing the first 1; there are more/);
    assert.equal(JSON.parse(ok(await loam('namespaces show demo -o json'))).name, 'demo');
    ok(await loam('namespaces drop other'));
    const gone = await loam('namespaces show other');
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /namespace .*other.* not found/);
  });

  test('collections create with field types, list, show, drop', async () => {
    const c = JSON.parse(ok(await loam('collections create demo books --primary-key id --field year:number -o json')));
    assert.deepEqual(c.fields, { year: 'number', id: 'string' });
    ok(await loam('coll create demo scratch --primary-key k --partitions 2'));
    assert.match(ok(await loam('collections list demo')), /^name\s+namespace\s+primary_key\s+partitions[\s\S]*books[\s\S]*scratch/);
    assert.equal(JSON.parse(ok(await loam('collections show demo scratch -o json'))).partitions, 2);
    ok(await loam('collections drop demo scratch'));
    const bad = await loam('collections create demo bad --primary-key id --partitions 0');
    assert.equal(bad.code, 2, 'commander refuses 0 before anything is sent: a usage error');
  });

  test('collections retention: show, set one bound (the other kept), none, a bound out of range; a writer key is refused', async () => {
    ok(await loam('collections create demo logs --primary-key id'));
    assert.match(ok(await loam('collections retention demo logs')), /^collection\s+ms\s+bytes\ndemo\/logs\s+86400000\s+null$/m);
    assert.deepEqual(JSON.parse(ok(await loam('collections retention demo logs --bytes 2097152 -o json'))), { collection: 'demo/logs', ms: 86400000, bytes: 2097152 });
    assert.deepEqual(JSON.parse(ok(await loam('coll retention demo logs --ms 3600000 -o json'))), { collection: 'demo/logs', ms: 3600000, bytes: 2097152 });
    assert.deepEqual(JSON.parse(ok(await loam('collections retention demo logs --ms none --bytes none -o json'))), { collection: 'demo/logs', ms: null, bytes: null });
    assert.deepEqual((await raw(n.url, n.admin, 'GET', '/v1/namespaces/demo/collections/logs')).body.retention, { ms: null, bytes: null });
    // The server's bound, in its words; nothing changed.
    const low = await loam('collections retention demo logs --ms 10');
    assert.equal(low.code, 1);
    assert.match(low.stderr, /body\.ms must be >= 1000 \(HTTP 400 invalid_argument\)/);
    const typo = await loam('collections retention demo logs --ms 1h');
    assert.equal(typo.code, 2, 'commander refuses it before anything is sent: a usage error');
    assert.match(typo.stderr, /positive integer, or none/);
    const writer = (await raw(n.url, n.admin, 'POST', '/v1/keys', { role: 'writer', namespace: 'demo' })).body.key as string;
    const refused = await loam('collections retention demo logs --ms 1000', { env: { LOAM_KEY: writer } });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /HTTP 403 forbidden/);
    assert.deepEqual((await raw(n.url, n.admin, 'GET', '/v1/namespaces/demo/collections/logs')).body.retention, { ms: null, bytes: null });
    ok(await loam('collections drop demo logs'));
  });

  test('docs put from arguments, a JSON-lines file and stdin; get; delete; a refused batch writes nothing', async () => {
    const put = JSON.parse(ok(await loam(`docs put demo books '{"id":"b1","title":"Dune","year":1965}' '{"id":"b2","title":"Neuromancer","year":1984}' -o json`)));
    assert.equal(put.written, 2);
    assert.ok(put.token);
    const file = join(dir, 'books.jsonl');
    writeFileSync(file, Array.from({ length: 250 }, (_, i) => JSON.stringify({ id: `f${String(i).padStart(3, '0')}`, title: `t${i}`, year: 2000 + (i % 20) })).join('\n') + '\n');
    assert.equal(JSON.parse(ok(await loam(`docs put demo books --file ${file} --batch-size 100 -o json`))).written, 250);
    const stdin = JSON.stringify([{ id: 's1', title: 'from stdin', year: 1999 }, { id: 's2', title: 'also', year: 1998 }]);
    assert.equal(JSON.parse(ok(await loam('docs put demo books -o json', { input: stdin }))).written, 2);

    const got = ok(await loam('docs get demo books b2 f249 s1 -o jsonl')).trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(got.map((d) => d.title), ['Neuromancer', 't249', 'from stdin']);
    assert.match(ok(await loam('docs get demo books b1')), /^id\s+title\s+year\nb1\s+Dune\s+1965$/m);

    assert.equal(JSON.parse(ok(await loam('docs delete demo books b1 s2 -o json'))).deleted, 2);
    // A collection whose primary key is declared number takes its keys as numbers (--number), written out as JSON numbers.
    assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections', { name: 'scores', primary_key: 'id', fields: { id: 'number' } })).status, 201);
    ok(await loam(`docs put demo scores '{"id":0}' '{"id":17}'`));
    assert.equal(JSON.parse(ok(await loam('docs delete demo scores 17 --number -o json'))).deleted, 1);
    assert.equal((await loam('docs get demo scores 17')).code, 1, 'deleted');
    const notNumber = await loam(`docs delete demo scores '' --number`);
    assert.equal(notNumber.code, 1);
    assert.equal(notNumber.stderr, 'loam: --number: "" is not a number (a JSON number such as 17 or -2.5)\n');
    assert.equal((await loam('docs get demo scores 0')).code, 0, '"" is not read as 0');
    const missing = await loam('docs get demo books b1');
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /loam: document "b1" not found in collection "books" \(HTTP 404 not_found\)/);

    const refused = await loam(`docs put demo books '{"id":"b9","title":"ok"}' '{"title":"no id"}'`);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /upserts\[1\]\.id: the primary key is missing/);
    assert.match(refused.stderr, /the batch argument 1–argument 2 was not written \(upserts\[1\] is argument 2\)/, 'refused by the server: not written');
    assert.equal((await loam('docs get demo books b9')).code, 1, 'nothing of the refused batch was written');

    const broken = join(dir, 'broken.jsonl');
    writeFileSync(broken, '{"id":"x1"}\n{"id":"x2"}\n{"id": oops}\n');
    const bad = await loam(`docs put demo books --file ${broken}`);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /line 3: not JSON/);
    assert.equal((await loam('docs get demo books x1')).code, 1, 'bad JSON anywhere in a file writes none of it');

    for (const [file, says] of [
      [join(dir, 'no-such.jsonl'), /^loam: --file \S+no-such\.jsonl cannot be read: no such file\n$/],
      [dir, /^loam: --file \S+ is not a file\n$/],
    ] as const) {
      const unreadable = await loam(`docs put demo books --file ${file}`);
      assert.equal(unreadable.code, 1);
      assert.match(unreadable.stderr, says, 'one line naming the file, no stack trace');
    }
  });

  test('query with a JSON filter: pages followed, --limit and --all, table, json, jsonl', async () => {
    const all = ok(await loam(`query demo books '{"year":{"$gte":2015}}' --all --page-size 7 -o jsonl`)).trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(all.length, 60);
    assert.ok(all.every((d) => d.year >= 2015));
    assert.deepEqual(all.map((d) => d.id), [...all.map((d) => d.id)].sort(), 'in primary-key order');
    const few = await loam(`query demo books '{"year":{"$lt":2001}}' --limit 3 -o json`);
    assert.equal(JSON.parse(ok(few)).length, 3);
    assert.match(few.stderr, /showing the first 3; there are more/);
    assert.match(ok(await loam(`query demo books '{"id":"b2"}'`)), /^id\s+title\s+year\nb2\s+Neuromancer\s+1984$/m);
    const badFilter = await loam(`query demo books '{"year":{"$regex":"x"}}'`);
    assert.equal(badFilter.code, 1);
    assert.match(badFilter.stderr, /HTTP 400 invalid_argument/);
    assert.equal((await loam(`query demo books 'not json'`)).code, 2, 'a usage error');
  });

  test('bulk put shows a progress bar on a terminal and nothing on a pipe', async () => {
    const file = join(dir, 'bulk.jsonl');
    writeFileSync(file, Array.from({ length: 1000 }, (_, i) => JSON.stringify({ id: `p${i}`, year: 1 })).join('\n'));
    const tty = await nodeSh(`script -qec "node ${BIN} docs put demo books --file ${file} --batch-size 100" /dev/null`);
    assert.equal(tty.code, 0, tty.stderr);
    assert.match(tty.stdout, /docs put \|[=-]+\| 100% 1000\/1000 documents/);
    const piped = await loam(`docs put demo books --file ${file} --batch-size 100 | cat`);
    assert.equal(piped.code, 0);
    assert.doesNotMatch(piped.stdout + piped.stderr, /docs put \|/);
    assert.match(piped.stdout, /^written\s+token\n1000\s+\S+$/m);
    // From stdin the total is unknown: a terminal still sees how many were sent, and how long it took.
    const fromStdin = await nodeSh(`script -qec "node ${BIN} docs put demo books --batch-size 100 < ${file}" /dev/null`);
    assert.equal(fromStdin.code, 0, fromStdin.stdout + fromStdin.stderr);
    assert.match(fromStdin.stdout, /docs put: 1000 documents sent \| \d+s/);
    const stdinPiped = await loam(`docs put demo books --batch-size 100 < ${file} | cat`);
    assert.doesNotMatch(stdinPiped.stdout + stdinPiped.stderr, /documents sent/);
  });

  test('no key, a bad key, no node: exit 1 with the reason', async () => {
    const none = await loam('namespaces list', { env: { LOAM_KEY: '' } });
    assert.equal(none.code, 1);
    assert.match(none.stderr, /missing API key.*\(HTTP 401 unauthenticated\)/);
    const port = await freePort();
    const down = await loam(`namespaces list --url http://127.0.0.1:${port}`);
    assert.equal(down.code, 1);
    assert.ok(down.stderr.includes(`ECONNREFUSED (is a node running at http://127.0.0.1:${port}?`), down.stderr);
  });

  test('--help on every command, each with an example', async () => {
    // As a user types it, once…
    const put = await loam('docs put --help');
    assert.equal(put.code, 0);
    assert.match(put.stdout, /^Usage: loam docs put [\s\S]*Example:\n {2}loam docs put demo books/);
    // …and for every command of the program (one process, not one each).
    const helpOf = (c: Command): string => {
      let out = '';
      c.configureOutput({ writeOut: (s) => (out += s) });
      c.outputHelp();
      return out;
    };
    const walk = (c: Command, path: string[]): [string, Command][] => [[path.join(' '), c], ...c.commands.flatMap((s) => walk(s, [...path, s.name()]))];
    const all = walk(program(), []);
    const data = ['namespaces', 'namespaces create', 'namespaces list', 'namespaces show', 'namespaces drop', 'collections', 'collections create', 'collections list', 'collections show', 'collections drop', 'docs', 'docs put', 'docs get', 'docs delete', 'query'];
    for (const d of data) assert.ok(all.some(([name]) => name === d), `loam ${d} exists`);
    for (const [name, c] of all) assert.match(helpOf(c), /Example:\n {2}\S/, `loam ${name} --help has an example`);
  });
});
