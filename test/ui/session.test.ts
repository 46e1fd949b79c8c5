// The status page over HTTP: the login form and its cookie, authorization the same as the
// API's (the tenant fence, namespace-scoped keys, the operator), the API's paging limits,
// the backlog a collection's page shows, and the server's messages, never a stack trace.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { answerHead } from '../harness/raw-http.js';
import { LOGIN_BODY_LIMIT, SESSION_COOKIE } from '../../src/ui/routes.js';
import { MAX_PAGE_LIMIT } from '../../src/meta/limits.js';
import { api, secretOf, ui, uiNode, visible, type UiNode } from './helpers.js';

let n: UiNode;
let admin: string;
let operator: string;
const form = (body: string, headers: Record<string, string> = {}) => ({ method: 'POST', body, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers } });

before(async () => {
  n = await uiNode();
  admin = n.node.bootstrapKey!;
  operator = n.node.operatorKey!;
  for (const name of ['alpha', 'beta', 'beta2', 'gamma']) await api(n.node, admin, 'POST', '/v1/namespaces', { name });
  await api(n.node, admin, 'POST', '/v1/namespaces/alpha/collections', { name: 'books', primary_key: 'id' });
});
after(async () => n?.node.close());

test('without a key every page sends the browser to the login form; with a wrong key, the server\'s message', async () => {
  for (const path of ['/ui', '/ui/namespaces', '/ui/namespaces/alpha', '/ui/namespaces/alpha/collections/books', '/ui/usage', '/ui/cluster']) {
    const p = await ui(n.node, path, null);
    assert.equal(p.status, 303, path);
    assert.equal(p.headers.get('location'), '/ui/login');
  }
  const login = await ui(n.node, '/ui/login', null);
  assert.equal(login.status, 200);
  assert.match(login.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(login.text, /<form method="post" action="\/ui\/login">/);
  for (const [key, message] of [
    ['nope', 'malformed API key'],
    [`loam_0123456789abcdef_${'0'.repeat(64)}`, 'invalid API key'],
  ] as const) {
    const p = await ui(n.node, '/ui/login', null, form(`key=${key}`));
    assert.equal(p.status, 401);
    assert.ok(visible(p.text).includes(message), p.text);
    assert.equal(p.headers.get('set-cookie'), null, 'a refused key is not kept');
    assert.doesNotMatch(p.text, /\n\s+at |Error:|\.ts:\d+/, 'no stack trace');
  }
  const empty = await ui(n.node, '/ui/login', null, form('key='));
  assert.equal(empty.status, 400);
  assert.ok(visible(empty.text).includes('enter an API key'));
});

test('logging in keeps the key in a session cookie only the status page gets, and logging out clears it', async () => {
  const p = await ui(n.node, '/ui/login', null, form(`key=${admin}`));
  assert.equal(p.status, 303);
  assert.equal(p.headers.get('location'), '/ui/namespaces');
  const c = p.headers.get('set-cookie') ?? '';
  assert.ok(c.startsWith(`${SESSION_COOKIE}=${admin};`), c);
  assert.match(c, /; Path=\/ui(;|$)/);
  assert.match(c, /; HttpOnly/);
  assert.match(c, /; SameSite=Strict/);
  assert.doesNotMatch(c, /Max-Age|Expires/i, 'a session cookie');
  // Logging out is the page's own form: another site's link, image or form does not sign the user out.
  const get = await ui(n.node, '/ui/logout', admin);
  assert.ok([401, 405].includes(get.status), `a GET does not log out: ${get.status}`);
  assert.equal(get.headers.get('set-cookie'), null, 'a GET keeps the session');
  for (const h of [{ origin: 'https://elsewhere.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
    const cross = await ui(n.node, '/ui/logout', admin, form('', h));
    assert.equal(cross.status, 403);
    assert.equal(cross.headers.get('set-cookie'), null, 'the session is kept');
  }
  const out = await ui(n.node, '/ui/logout', admin, form(''));
  assert.equal(out.status, 303);
  assert.equal(out.headers.get('location'), '/ui/login');
  const cleared = out.headers.get('set-cookie') ?? '';
  assert.ok(cleared.startsWith(`${SESSION_COOKIE}=;`), cleared);
  assert.match(cleared, /Max-Age=0/);
  assert.match(cleared, /; Path=\/ui(;|$)/);
  assert.match(cleared, /; SameSite=Strict/);
  // The operator goes to the gateways page: it has no namespaces.
  assert.equal((await ui(n.node, '/ui/login', null, form(`key=${operator}`))).headers.get('location'), '/ui/cluster');
  // A form posted from another site's page is refused, and sets nothing.
  for (const h of [{ origin: 'https://elsewhere.example' }, { 'sec-fetch-site': 'cross-site' }] as Record<string, string>[]) {
    const cross = await ui(n.node, '/ui/login', null, form(`key=${admin}`, h));
    assert.equal(cross.status, 403);
    assert.equal(cross.headers.get('set-cookie'), null);
  }
});

test('the login form takes at most LOGIN_BODY_LIMIT bytes in any content type, refused before the rest is read', async () => {
  for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
    const big = type === 'application/json' ? JSON.stringify({ key: admin, pad: 'a'.repeat(LOGIN_BODY_LIMIT) }) : `key=${admin}&pad=${'a'.repeat(LOGIN_BODY_LIMIT)}`;
    const p = await ui(n.node, '/ui/login', null, { method: 'POST', body: big, headers: { 'content-type': type } });
    assert.ok([413, 415].includes(p.status), `${type}: ${p.status}`);
    assert.equal(p.headers.get('set-cookie'), null);
  }
  // Nobody's key is needed to reach the form: a body declared 30 MiB is answered at once, its bytes never read.
  const answer = await answerHead(n.node.url, `POST /ui/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${30 * 1024 * 1024}\r\n\r\n{"key":"`);
  assert.match(answer, /^HTTP\/1\.1 413 /);
});

test('every page forbids scripts and framing and is never cached', async () => {
  const p = await ui(n.node, '/ui/namespaces', admin);
  assert.equal(p.status, 200);
  const csp = p.headers.get('content-security-policy') ?? '';
  assert.match(csp, /default-src 'none'/);
  assert.doesNotMatch(csp, /script-src|unsafe-inline/);
  assert.equal(p.headers.get('cache-control'), 'no-store');
  assert.equal(p.headers.get('x-frame-options'), 'DENY');
  assert.doesNotMatch(p.text, /<script/);
});

test("the namespaces page lists the org's namespaces, by prefix, in pages of the API's size", async () => {
  const all = visible((await ui(n.node, '/ui/namespaces', admin)).text);
  for (const name of ['alpha', 'beta', 'beta2', 'gamma']) assert.ok(all.includes(name), name);
  const beta = visible((await ui(n.node, '/ui/namespaces?prefix=beta', admin)).text);
  assert.ok(beta.includes('beta2') && !beta.includes('alpha') && !beta.includes('gamma'));
  // Two at a time: the next page's link carries the cursor, and the pages together list each once.
  const first = await ui(n.node, '/ui/namespaces?page_size=2', admin);
  const next = /<a rel="next" href="([^"]+)"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
  assert.ok(next, 'a next page');
  const second = await ui(n.node, next, admin);
  const names = (t: string) => [...t.matchAll(/<a href="\/ui\/namespaces\/([^"/?]+)">/g)].map((m) => m[1]);
  assert.deepEqual([...names(first.text), ...names(second.text)], ['alpha', 'beta', 'beta2', 'gamma']);
  // Over the API's limit: the API's 400, as a page.
  const big = await ui(n.node, `/ui/namespaces?page_size=${MAX_PAGE_LIMIT + 1}`, admin);
  assert.equal(big.status, 400);
  assert.ok(visible(big.text).includes(`must be <= ${MAX_PAGE_LIMIT}`), big.text);
});

test('a key of another org sees none of it, and a namespace-scoped key only its namespaces', async () => {
  const other = (await api<{ admin_key: string }>(n.node, operator, 'POST', '/v1/orgs', { id: 'other' })).admin_key;
  const list = visible((await ui(n.node, '/ui/namespaces', other)).text);
  assert.ok(list.includes('Namespaces of other'));
  for (const name of ['alpha', 'beta', 'gamma']) assert.ok(!list.includes(name), name);
  for (const path of ['/ui/namespaces/alpha', '/ui/namespaces/alpha/collections/books']) {
    const p = await ui(n.node, path, other);
    assert.equal(p.status, 404, path);
    assert.ok(!visible(p.text).includes('books'));
  }
  assert.ok(!visible((await ui(n.node, '/ui/usage', other)).text).includes('alpha'));

  const scoped = (await api<{ key: string }>(n.node, admin, 'POST', '/v1/keys', { role: 'reader', namespace: 'beta' })).key;
  const seen = visible((await ui(n.node, '/ui/namespaces', scoped)).text);
  assert.ok(seen.includes('beta') && !seen.includes('alpha') && !seen.includes('gamma'), seen);
  assert.equal((await ui(n.node, '/ui/namespaces/beta', scoped)).status, 200);
  assert.equal((await ui(n.node, '/ui/namespaces/alpha', scoped)).status, 403);
  // The gateways page: a tenant sees how many, the operator which.
  const tenant = await ui(n.node, '/ui/cluster', admin);
  assert.ok(visible(tenant.text).includes('1 live gateway'));
  assert.ok(!tenant.text.includes(n.node.id));
  const op = await ui(n.node, '/ui/cluster', operator);
  assert.ok(visible(op.text).includes(`${n.node.id} (this node)`), op.text);
  assert.equal((await ui(n.node, '/ui/namespaces', operator)).status, 403);
});

test('a revoked key is sent back to the login form with the reason, and its cookie is cleared', async () => {
  const k = await api<{ key: string; keyId: string }>(n.node, admin, 'POST', '/v1/keys', { role: 'reader' });
  assert.equal((await ui(n.node, '/ui/namespaces', k.key)).status, 200);
  await api(n.node, admin, 'DELETE', `/v1/keys/${k.keyId}`);
  const p = await ui(n.node, '/ui/namespaces', k.key);
  assert.equal(p.status, 401);
  assert.ok(visible(p.text).includes(`API key ${k.keyId} was revoked`), p.text);
  assert.match(p.headers.get('set-cookie') ?? '', new RegExp(`^${SESSION_COOKIE}=;`));
});

test('no key secret reaches the log', () => {
  const log = n.log();
  assert.ok(log.length > 0, 'the node logged');
  for (const k of [admin, operator]) assert.ok(!log.includes(secretOf(k)), 'a secret in the log');
});

test("a collection's page shows its unapplied backlog: the log past the manifest, before any worker applied it", async () => {
  // No worker role: nothing is applied, so the backlog is exactly what was written.
  const w = await uiNode({ roles: ['log', 'query'] });
  try {
    const key = w.node.bootstrapKey!;
    await api(w.node, key, 'POST', '/v1/namespaces', { name: 'logs' });
    await api(w.node, key, 'POST', '/v1/namespaces/logs/collections', { name: 'events', primary_key: 'id', partitions: 2 });
    await api(w.node, key, 'POST', '/v1/namespaces/logs/collections/events/documents', { upserts: [{ id: 'a' }, { id: 'b' }, { id: 'c' }], deletes: ['d'] });
    const list = await ui(w.node, '/ui/namespaces/logs', key);
    assert.match(list.text, /<a href="\/ui\/namespaces\/logs\/collections\/events">events<\/a><\/td><td class="n">2<\/td><td class="n">4<\/td><td class="n">[1-9]\d* B<\/td>/, list.text);
    assert.ok(visible(list.text).includes('never'), 'no apply yet');
    const one = visible((await ui(w.node, '/ui/namespaces/logs/collections/events', key)).text);
    assert.ok(one.includes('Unapplied records 4'), one);
    assert.ok(one.includes('never: no manifest yet'), one);
  } finally {
    await w.node.close();
  }
  // With a worker, the backlog drains and the last apply is shown.
  await api(n.node, admin, 'POST', '/v1/namespaces/alpha/collections/books/documents', { upserts: [{ id: 'x' }] });
  const deadline = Date.now() + 10_000;
  let page = '';
  while (Date.now() < deadline) {
    page = visible((await ui(n.node, '/ui/namespaces/alpha/collections/books', admin)).text);
    if (page.includes('Unapplied records 0') && page.includes('manifest version')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(page.includes('Unapplied records 0') && /Last apply \d+ s ago/.test(page), page);
});

test('the usage page charts the last 24 hours of requests the gateway counted', async () => {
  await n.node.tenancy!.usage.drain();
  const p = await ui(n.node, '/ui/usage', admin);
  assert.equal(p.status, 200);
  assert.equal((p.text.match(/<svg class="chart"/g) ?? []).length, 2);
  assert.equal((p.text.match(/<rect class="bar"/g) ?? []).length, 48);
  const m = /Requests, last 24 hours \((\d[\d,]*)\)/.exec(visible(p.text));
  assert.ok(m && Number(m[1]!.replace(/,/g, '')) > 0, 'requests were counted');
  assert.ok(visible(p.text).includes('request_rate'));
});
