// The data CLI where things are not as they should be: --url naming a server that is not
// Loam (a real HTTP server started here on 127.0.0.1, answering what other services answer),
// a reader of stdout that goes away, Ctrl-C in the middle of a bulk put, a mistyped command.
// The bin runs in a child process, as a user runs it; stdout, stderr and the exit status are
// what is checked.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoamClient, LoamError } from '../../src/client/index.js';
import { BIN, CLI_DEADLINE_MS, keyedNode, raw, ROOT, sh, type KeyedNode } from './helpers.js';

let dir: string;

/** A real HTTP server on a free loopback port, answering every request with `answer` (once its body is read, unless `readBody: false`). */
async function server(answer: (req: IncomingMessage, res: ServerResponse) => void, o: { readBody?: boolean } = {}): Promise<{ url: string; close(): Promise<void> }> {
  const s: Server = createServer((req, res) => {
    if (o.readBody === false) return answer(req, res);
    req.resume();
    req.on('end', () => answer(req, res));
  });
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => s.close(() => done())),
  };
}

/** Another service's JSON: 200 and `{"hello":"world"}` to everything. */
const helloWorld = (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end('{"hello":"world"}');
};

/** What `python3 -m http.server` answers for a path it does not have. */
const PYTHON_404 = `<!DOCTYPE HTML>
<html lang="en">
    <head>
        <meta charset="utf-8">
        <title>Error response</title>
    </head>
    <body>
        <h1>Error response</h1>
        <p>Error code: 404</p>
        <p>Message: File not found.</p>
        <p>Error code explanation: 404 - Nothing matches the given URI.</p>
    </body>
</html>
`;

/** Documents in the file a bulk put is interrupted in, and per batch (small batches: many requests). */
const BIG_FILE_DOCS = 100_000;
const PUT_BATCH = 20;
/** How often the test looks whether the put has started. */
const POLL_MS = 50;

const lines = (s: string) => s.split('\n').filter((l) => l !== '');

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'loam-cli-hostile-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('loam CLI against a server that is not Loam', () => {
  test('the client: a 2xx without the route\'s fields is a bad_response LoamError, not a result', async () => {
    const other = await server(helloWorld);
    try {
      const loam = new LoamClient({ url: other.url });
      for (const call of [() => loam.write('DB', 'COLL', { upserts: [{ id: 'a' }] }), () => loam.namespaces.list(), () => loam.namespaces.drop('x'), () => loam.get('DB', 'COLL', 'a')]) {
        const e = await call().then(
          () => assert.fail(`${String(call)} resolved`),
          (x: unknown) => x,
        );
        assert.ok(e instanceof LoamError, String(e));
        assert.equal(e.code, 'bad_response');
        assert.equal(e.status, 200);
        assert.match(e.message, /^HTTP 200 from (POST|GET|DELETE) \/v1\/\S+: not a Loam answer \(/);
      }
    } finally {
      await other.close();
    }
  });

  test('a 200 with other JSON is not success: one line naming the request, "not a Loam answer", exit 1', async () => {
    const other = await server(helloWorld);
    try {
      const file = join(dir, 'docs.jsonl');
      writeFileSync(file, Array.from({ length: 1200 }, (_, i) => JSON.stringify({ id: `d${i}` })).join('\n') + '\n');
      const cases: [string, string][] = [
        [`docs put DB COLL --file ${file}`, 'POST /v1/namespaces/DB/collections/COLL/documents'],
        ['ns create x', 'POST /v1/namespaces'],
        ['ns drop x', 'DELETE /v1/namespaces/x'],
        ['docs delete DB COLL a b', 'POST /v1/namespaces/DB/collections/COLL/documents'],
        ['coll show DB COLL', 'GET /v1/namespaces/DB/collections/COLL'],
        ['docs get DB COLL a', 'GET /v1/namespaces/DB/collections/COLL/documents/a'],
        ['placement DB', 'GET /v1/placement'],
        // Defect 2: these were "TypeError: Cannot read properties of undefined (reading 'slice')".
        ['ns list', 'GET /v1/namespaces'],
        ['coll list DB -o jsonl', 'GET /v1/namespaces/DB/collections'],
        [`query DB COLL --all -o jsonl`, 'POST /v1/namespaces/DB/collections/COLL/query'],
      ];
      for (const [args, request] of cases) {
        const r = await sh(`node ${BIN} ${args} --url ${other.url}`);
        assert.equal(r.code, 1, `loam ${args}: exit ${r.code}, stdout ${JSON.stringify(r.stdout)}`);
        assert.equal(r.stdout, '', `loam ${args} printed nothing as a result`);
        assert.equal(lines(r.stderr).length, 1, `loam ${args}: one line: ${r.stderr}`);
        assert.ok(r.stderr.includes(` from ${request}: not a Loam answer (`), `loam ${args}: ${r.stderr}`);
        assert.ok(r.stderr.includes(`is ${other.url} a Loam node? (set --url or LOAM_URL)`), `loam ${args}: ${r.stderr}`);
        assert.doesNotMatch(r.stderr, /TypeError|\n\s+at /, `loam ${args}: no stack trace`);
      }
    } finally {
      await other.close();
    }
  });

  test('an error page that is not Loam\'s is one bounded line: status, request, "not a Loam answer (text/html)", the page cut', async () => {
    const page = await server((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html;charset=utf-8' });
      res.end(PYTHON_404);
    });
    // A long page with a terminal escape in it: neither reaches the terminal whole.
    const noisy = await server((_req, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`bad gateway\x1b[2J\n${'x'.repeat(10_000)}\n`);
    });
    try {
      const r = await sh(`node ${BIN} ns list --url ${page.url}`);
      assert.equal(r.code, 1);
      assert.equal(lines(r.stderr).length, 1, r.stderr);
      assert.ok(
        r.stderr.startsWith('loam: HTTP 404 from GET /v1/namespaces: not a Loam answer (text/html): <!DOCTYPE HTML> <html lang="en"> <head> <meta charset="utf-8"> <title>Error response</title>'),
        r.stderr,
      );
      assert.ok(r.stderr.includes(`is ${page.url} a Loam node?`), r.stderr);
      const long = await sh(`node ${BIN} docs get DB COLL a --url ${noisy.url}`);
      assert.equal(long.code, 1);
      assert.equal(lines(long.stderr).length, 1, long.stderr);
      assert.match(long.stderr, /^loam: HTTP 502 from GET \/v1\/namespaces\/DB\/collections\/COLL\/documents\/a: not a Loam answer \(text\/plain\): bad gateway \[2J x+…; is /);
      assert.ok(!long.stderr.includes('\x1b'), 'no escape code from the server reaches the terminal');
      assert.ok(long.stderr.length < 500, `bounded: ${long.stderr.length} characters`);
    } finally {
      await page.close();
      await noisy.close();
    }
  });
});

/**
 * Runs the bin with stdout to a reader that closes its end after the first line (as `| head -1`
 * does); resolves with the exit status, the signal, and stderr.
 */
function firstLineThenClose(args: string[], env: Record<string, string>): Promise<{ code: number | null; signal: string | null; first: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => {
      out += b.toString();
      if (out.includes('\n')) p.stdout.destroy();
    });
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const t = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`loam ${args.join(' ')}: no exit within ${CLI_DEADLINE_MS} ms`));
    }, CLI_DEADLINE_MS);
    p.on('exit', (code, signal) => {
      clearTimeout(t);
      resolve({ code, signal, first: out.split('\n')[0]!, stderr });
    });
  });
}

describe('loam CLI against a real node: a closed stdout, Ctrl-C', () => {
  let n: KeyedNode;
  before(async () => {
    n = await keyedNode();
    const loam = new LoamClient({ url: n.url, key: n.admin });
    // Two pages of namespaces (the server's default page is 100) and a collection whose
    // query output is far beyond a pipe's buffer.
    for (let i = 0; i < 150; i++) await loam.namespaces.create(`ns${String(i).padStart(3, '0')}`);
    await loam.collections.create('ns000', { name: 'books', primary_key: 'id' });
    for (let b = 0; b < 6; b++) await loam.write('ns000', 'books', { upserts: Array.from({ length: 500 }, (_, i) => ({ id: `d${b * 500 + i}`, pad: 'x'.repeat(100) })) });
  });
  after(async () => n?.close());

  test('piped to a reader that closes after the first line (| head -1): no EPIPE stack trace, exit 0', async () => {
    const env = { LOAM_URL: n.url, LOAM_KEY: n.admin };
    for (const args of [
      ['ns', 'list', '--all', '-o', 'jsonl'],
      ['ns', 'list', '--all', '-o', 'table'],
      ['query', 'ns000', 'books', '--all', '--page-size', '50', '-o', 'jsonl'],
      ['query', 'ns000', 'books', '--all', '-o', 'json'],
      ['query', 'ns000', 'books', '--all', '-o', 'table'],
    ]) {
      const r = await firstLineThenClose(args, env);
      assert.equal(r.stderr, '', `loam ${args.join(' ')}: nothing on stderr`);
      assert.equal(r.code, 0, `loam ${args.join(' ')}: exit ${r.code} (signal ${r.signal})`);
      assert.ok(r.first.length > 0, 'the reader got its line');
    }
  });

  test('piped to a reader that stops reading: the query waits for it instead of fetching every page into memory; all of it arrives once read', async () => {
    const queries = async () => {
      const text = await (await fetch(n.node.metricsUrl, { signal: AbortSignal.timeout(10_000) })).text();
      return [...text.matchAll(/^loam_http_requests_total\{[^}]*route="[^"]*\/query"[^}]*\} (\d+)$/gm)].reduce((a, m) => a + Number(m[1]), 0);
    };
    const before = await queries();
    // 300 pages of 10; a pipe holds about 500 of these lines.
    const p = spawn(process.execPath, [BIN, 'query', 'ns000', 'books', '--all', '--page-size', '10', '-o', 'jsonl'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOAM_URL: n.url, LOAM_KEY: n.admin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const done = exited(p);
    p.stdout!.pause();
    // Long enough to fetch all 300 pages were it not waiting for the reader.
    let stalled = 0;
    for (let last = -1; stalled !== last; ) {
      last = stalled;
      await new Promise((r) => setTimeout(r, 1_000));
      stalled = (await queries()) - before;
    }
    assert.ok(stalled < 150, `${stalled} of 300 pages fetched while nobody read: the output was held in memory`);
    let out = '';
    p.stdout!.on('data', (b: Buffer) => (out += b.toString()));
    p.stdout!.resume();
    assert.equal((await done).code, 0);
    assert.equal(lines(out).length, 3000, 'every document, once read');
  });

  /** A JSON-lines file far too long to be put before the test interrupts it: document i is {"id":"p<i>"} on line i. */
  function bigFile(): string {
    const file = join(dir, 'big.jsonl');
    writeFileSync(file, Array.from({ length: BIG_FILE_DOCS }, (_, i) => JSON.stringify({ id: `p${i + 1}` })).join('\n') + '\n');
    return file;
  }

  /** What a user checks after the message: the last document it says was written is there, the first after the batch is not. */
  async function checkHowFar(stderr: string): Promise<void> {
    const m = /^loam: (\d+) documents written \(through line (\d+)\); the batch line (\d+)–line (\d+) may or may not have been written \(interrupted while it was sent: check with a read\)$/m.exec(stderr);
    assert.ok(m, `stderr names how far it got: ${JSON.stringify(stderr)}`);
    const [written, through, from, to] = m.slice(1).map(Number) as [number, number, number, number];
    assert.ok(written > 0 && written === through && from === through + 1 && to === through + PUT_BATCH, m[0]);
    assert.equal((await raw(n.url, n.admin, 'GET', `/v1/namespaces/ns000/collections/put/documents/p${through}`)).status, 200, `line ${through} was written`);
    assert.equal((await raw(n.url, n.admin, 'GET', `/v1/namespaces/ns000/collections/put/documents/p${to + 1}`)).status, 404, `line ${to + 1} was never sent`);
  }

  function exited(p: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        p.kill('SIGKILL');
        reject(new Error(`no exit within ${CLI_DEADLINE_MS} ms`));
      }, CLI_DEADLINE_MS);
      p.on('exit', (code, signal) => {
        clearTimeout(t);
        resolve({ code, signal });
      });
    });
  }

  test('Ctrl-C on a terminal during docs put --file: the bar is stopped (cursor and line wrap restored), stderr says how far it got, exit 130', async () => {
    await raw(n.url, n.admin, 'POST', '/v1/namespaces/ns000/collections', { name: 'put', primary_key: 'id' });
    const file = bigFile();
    // A pseudo-terminal (script(1)): the bar shows, and a ^C typed into it is the terminal's SIGINT.
    const p = spawn('script', ['-qec', `node ${BIN} docs put ns000 put --file ${file} --batch-size ${PUT_BATCH}`, '/dev/null'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOAM_URL: n.url, LOAM_KEY: n.admin },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let typed = false;
    p.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      // Once a few batches are in, as a user would wait to see the bar move.
      const shown = [...out.matchAll(/(\d+)\/\d+ documents/g)].map((x) => Number(x[1]));
      if (!typed && shown.some((v) => v >= 2 * PUT_BATCH)) {
        typed = true;
        p.stdin!.write('\x03');
      }
    });
    const r = await exited(p);
    assert.ok(typed, `the bar showed progress: ${JSON.stringify(out.slice(-300))}`);
    assert.equal(r.code, 130, `exit ${r.code} (signal ${r.signal}): ${JSON.stringify(out.slice(-500))}`);
    const hidden = out.lastIndexOf('\x1b[?25l');
    assert.ok(hidden >= 0, 'the bar hid the cursor');
    assert.ok(out.indexOf('\x1b[?25h', hidden) > hidden, 'and shows it again');
    assert.ok(out.indexOf('\x1b[?7h', hidden) > hidden, 'and turns line wrap back on');
    await checkHowFar(out.replace(/\r/g, ''));
  });

  test('SIGINT off a terminal during docs put --file: one line on stderr saying how far it got, exit 130', async () => {
    await raw(n.url, n.admin, 'DELETE', '/v1/namespaces/ns000/collections/put');
    await raw(n.url, n.admin, 'POST', '/v1/namespaces/ns000/collections', { name: 'put', primary_key: 'id' });
    const file = bigFile();
    const p = spawn(process.execPath, [BIN, 'docs', 'put', 'ns000', 'put', '--file', file, '--batch-size', String(PUT_BATCH)], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOAM_URL: n.url, LOAM_KEY: n.admin },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout!.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
    const end = exited(p);
    // No bar off a terminal: the server says when a few batches are in.
    const started = Date.now();
    while ((await raw(n.url, n.admin, 'GET', `/v1/namespaces/ns000/collections/put/documents/p${2 * PUT_BATCH}`)).status !== 200) {
      assert.ok(Date.now() - started < CLI_DEADLINE_MS, 'the put got going');
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    p.kill('SIGINT');
    const r = await end;
    assert.equal(r.code, 130, `exit ${r.code} (signal ${r.signal}): ${stderr}`);
    assert.equal(stdout, '');
    assert.equal(lines(stderr).length, 1, stderr);
    await checkHowFar(stderr);
  });

  test('a connection that breaks after a batch was sent: "may or may not have been written", and here it was', async () => {
    await raw(n.url, n.admin, 'POST', '/v1/namespaces/ns000/collections', { name: 'reset', primary_key: 'id' });
    // Between the CLI and the node: passes every request on, and after passing on the third
    // write (the node commits it) breaks the connection instead of answering.
    let writes = 0;
    const proxy = await server((req, res) => {
      void (async () => {
        const chunks: Buffer[] = [];
        for await (const c of req) chunks.push(c as Buffer);
        const isWrite = req.method === 'POST' && req.url!.endsWith('/documents') && ++writes === 3;
        const answer = await fetch(n.url + req.url!, { method: req.method!, headers: { authorization: req.headers.authorization!, 'content-type': 'application/json' }, body: Buffer.concat(chunks) });
        const body = await answer.text();
        if (isWrite) return void req.socket.destroy();
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
        res.end(body);
      })();
    }, { readBody: false });
    try {
      const file = join(dir, 'reset.jsonl');
      writeFileSync(file, Array.from({ length: 100 }, (_, i) => JSON.stringify({ id: `r${i + 1}` })).join('\n') + '\n');
      const r = await sh(`node ${BIN} docs put ns000 reset --file ${file} --batch-size 10`, { env: { LOAM_URL: proxy.url, LOAM_KEY: n.admin } });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /^loam: 20 documents written \(through line 20\); the batch line 21–line 30 may or may not have been written \(the connection broke: check with a read\):\n/);
      // The read it asks for: the batch was committed; only its answer was lost.
      assert.equal((await raw(n.url, n.admin, 'GET', '/v1/namespaces/ns000/collections/reset/documents/r30')).status, 200);
      assert.equal((await raw(n.url, n.admin, 'GET', '/v1/namespaces/ns000/collections/reset/documents/r31')).status, 404);
    } finally {
      await proxy.close();
    }
  });
});

describe('loam CLI: a mistyped command line', () => {
  test('a usage error is its one line and a pointer to the command\'s help, exit 2; not the whole help', async () => {
    for (const [args, says, help] of [
      ['ns create', /^error: missing required argument 'name'$/, 'loam namespaces create --help'],
      ['coll create demo books', /^error: required option '--primary-key <field>' not specified$/, 'loam collections create --help'],
      ['ns list -o xml', /^error: option '-o, --output <format>' argument 'xml' is invalid\. Allowed choices are table, json, jsonl\.$/, 'loam namespaces list --help'],
      ['docs put demo books --batch-size 0', /^error: option '--batch-size <n>' argument '0' is invalid\. expected a positive integer$/, 'loam docs put --help'],
      ['query demo books --bogus', /^error: unknown option '--bogus'$/, 'loam query --help'],
      ['nosuch', /^error: unknown command 'nosuch'$/, 'loam --help'],
    ] as const) {
      const r = await sh(`node ${BIN} ${args}`);
      assert.equal(r.code, 2, `loam ${args}: exit ${r.code}`);
      assert.equal(r.stdout, '');
      const [line, hint, ...more] = lines(r.stderr);
      assert.match(line ?? '', says, `loam ${args}: ${r.stderr}`);
      assert.equal(hint, `(see ${help})`, `loam ${args}: ${r.stderr}`);
      assert.deepEqual(more, [], `loam ${args}: no help text after the hint`);
    }
    // A node address that is no http(s) URL, on the command line or in LOAM_URL (empty included).
    for (const [args, env, says] of [
      ['ns list --url notaurl', {}, /^error: option '--url <url>' argument 'notaurl' is invalid\. expected the node's http:\/\/ or https:\/\/ URL, e\.g\. http:\/\/127\.0\.0\.1:7070$/],
      ['docs get demo books b1 --url ftp://x', {}, /^error: option '--url <url>' argument 'ftp:\/\/x' is invalid\. expected the node's http:\/\/ or https:\/\/ URL/],
      ['ns list', { LOAM_URL: '' }, /^error: option '--url <url>' value '' from env 'LOAM_URL' is invalid\. expected the node's http:\/\/ or https:\/\/ URL/],
    ] as const) {
      const r = await sh(`node ${BIN} ${args}`, { env });
      assert.equal(r.code, 2, `loam ${args}: exit ${r.code}: ${r.stderr}`);
      const [line, hint, ...more] = lines(r.stderr);
      assert.match(line ?? '', says, `loam ${args}: ${r.stderr}`);
      assert.match(hint ?? '', /^\(see loam .* --help\)$/);
      assert.deepEqual(more, []);
    }
    // Asked for, the help is all there.
    const help = await sh(`node ${BIN} docs put --help`);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: loam docs put /);
  });
});

