// The status page in a real browser (Debian's Chromium, driven by playwright-core): log in
// with a key, see a namespace created through the API, follow the links to a collection, with
// no console error (a style or script the Content-Security-Policy refused would be one), a
// screenshot saved as a test artifact; markup in a search prefix stays text; the cookie is a
// session cookie no script can read; and a key of another org sees none of it.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { SESSION_COOKIE } from '../../src/ui/routes.js';
import { api, DEADLINE_MS, secretOf, uiNode, type UiNode } from './helpers.js';

/** Debian's Chromium, installed by test/setup/install.sh. */
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(new URL('../..', import.meta.url).pathname, '.artifacts', 'ui');

let n: UiNode;
let browser: Browser;
let admin: string;

before(async () => {
  n = await uiNode();
  admin = n.node.bootstrapKey!;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    // As root on CI: no sandbox; and nothing the browser would fetch on its own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    timeout: DEADLINE_MS,
  });
});
after(async () => {
  await browser?.close();
  await n?.node.close();
});

/** A fresh browser session, with what its pages print to the console and every URL it requests. */
async function session(): Promise<{ page: Page; problems: string[]; urls: string[]; close: () => Promise<void> }> {
  const ctx = await browser.newContext();
  ctx.setDefaultTimeout(DEADLINE_MS);
  const page = await ctx.newPage();
  const problems: string[] = [];
  const urls: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('request', (r) => urls.push(r.url()));
  return { page, problems, urls, close: () => ctx.close() };
}

async function logIn(page: Page, key: string): Promise<void> {
  await page.goto(`${n.node.url}/ui`);
  await page.locator('#key').fill(key);
  await Promise.all([page.waitForURL(/\/ui\/(namespaces|cluster)$/), page.getByRole('button', { name: 'Sign in' }).click()]);
}

test('log in, see a namespace created through the API, follow links to its collection; no console error', { timeout: 120_000 }, async () => {
  await api(n.node, admin, 'POST', '/v1/namespaces', { name: 'shelf' });
  await api(n.node, admin, 'POST', '/v1/namespaces/shelf/collections', { name: 'books', primary_key: 'id', fields: { year: 'number' } });
  await api(n.node, admin, 'POST', '/v1/namespaces/shelf/collections/books/documents', { upserts: [{ id: 'b1', year: 1965 }, { id: 'b2', year: 1984 }] });

  const s = await session();
  try {
    await logIn(s.page, admin);
    assert.equal(await s.page.locator('h1').textContent(), 'Namespaces of default');
    await Promise.all([s.page.waitForURL(/\/ui\/namespaces\/shelf$/), s.page.getByRole('link', { name: 'shelf', exact: true }).click()]);
    assert.equal(await s.page.locator('h1').textContent(), 'Namespace shelf');
    mkdirSync(ARTIFACTS, { recursive: true });
    await s.page.screenshot({ path: join(ARTIFACTS, 'namespace.png'), fullPage: true });
    console.log(`screenshot: ${join(ARTIFACTS, 'namespace.png')}`);
    await Promise.all([s.page.waitForURL(/\/ui\/namespaces\/shelf\/collections\/books$/), s.page.getByRole('link', { name: 'books', exact: true }).click()]);
    assert.equal(await s.page.locator('h1').textContent(), 'Collection shelf/books');
    assert.match((await s.page.locator('main').textContent()) ?? '', /Unapplied records\s*\d/);
    // The style sheet applied (the policy allowed it by its hash): the header is laid out as flex.
    assert.equal(await s.page.locator('header').evaluate((e) => getComputedStyle(e).display), 'flex');

    const shot = join(ARTIFACTS, 'collection.png');
    await s.page.screenshot({ path: shot, fullPage: true });
    console.log(`screenshot: ${shot}`);
    await n.node.tenancy!.usage.drain(); // the counted requests, into this hour's rollup
    await Promise.all([s.page.waitForURL(/\/ui\/usage$/), s.page.getByRole('link', { name: 'Quotas & usage' }).click()]);
    assert.equal(await s.page.locator('svg.chart').count(), 2);
    assert.ok((await s.page.locator('svg.chart rect.bar[height]:not([height="0.0"])').count()) >= 1, 'this hour has a bar');
    await s.page.screenshot({ path: join(ARTIFACTS, 'usage.png'), fullPage: true });
    console.log(`screenshot: ${join(ARTIFACTS, 'usage.png')}`);

    // The key: a session cookie for /ui that no script can read, never in a URL.
    const cookies = await s.page.context().cookies();
    const c = cookies.find((x) => x.name === SESSION_COOKIE);
    assert.ok(c, 'the session cookie');
    assert.equal(c.httpOnly, true);
    assert.equal(c.sameSite, 'Strict');
    assert.equal(c.path, '/ui');
    assert.equal(c.expires, -1, 'a session cookie (no expiry)');
    assert.equal(await s.page.evaluate(() => document.cookie), '');
    assert.ok(s.urls.length > 0 && s.urls.every((u) => !u.includes(secretOf(admin))), 'no URL carries the key');
    assert.deepEqual(s.problems, []);

    await Promise.all([s.page.waitForURL(/\/ui\/login$/), s.page.getByRole('button', { name: 'Log out' }).click()]);
    assert.equal((await s.page.context().cookies()).find((x) => x.name === SESSION_COOKIE), undefined, 'logging out forgets the key');
  } finally {
    await s.close();
  }
});

test('markup in a search prefix renders as text and runs nothing', { timeout: 60_000 }, async () => {
  const s = await session();
  try {
    await logIn(s.page, admin);
    // Within the API's prefix limit (63 characters).
    const evil = '<script>__ran=1</script><img src=x onerror=__ran=2>';
    await s.page.locator('input[name=prefix]').fill(evil);
    await Promise.all([s.page.waitForURL(/prefix=/), s.page.getByRole('button', { name: 'Search' }).click()]);
    assert.equal(await s.page.locator('input[name=prefix]').inputValue(), evil);
    assert.ok(((await s.page.locator('main').textContent()) ?? '').includes(evil), 'shown as text');
    assert.equal(await s.page.locator('main script, main img').count(), 0);
    assert.equal(await s.page.evaluate(() => (window as unknown as { __ran?: number }).__ran), undefined);
    assert.deepEqual(s.problems, []);
  } finally {
    await s.close();
  }
});

test('a key of another org sees none of it', { timeout: 60_000 }, async () => {
  await api(n.node, admin, 'POST', '/v1/namespaces', { name: 'private' }).catch(() => undefined);
  const other = (await api<{ admin_key: string }>(n.node, n.node.operatorKey!, 'POST', '/v1/orgs', { id: 'rival' })).admin_key;
  const s = await session();
  try {
    await logIn(s.page, other);
    assert.equal(await s.page.locator('h1').textContent(), 'Namespaces of rival');
    const text = (await s.page.locator('main').textContent()) ?? '';
    assert.ok(!text.includes('shelf') && !text.includes('private'), text);
    assert.equal(await s.page.getByRole('link', { name: 'shelf' }).count(), 0);
    for (const path of ['/ui/namespaces/shelf', '/ui/namespaces/shelf/collections/books']) {
      const r = await s.page.goto(`${n.node.url}${path}`);
      assert.equal(r?.status(), 404, path);
      assert.equal(await s.page.locator('h1').textContent(), 'Not found');
      assert.ok(!((await s.page.locator('main').textContent()) ?? '').includes('books'));
    }
    await s.page.goto(`${n.node.url}/ui/usage`);
    assert.ok(!((await s.page.locator('main').textContent()) ?? '').includes('shelf'));
  } finally {
    await s.close();
  }
});
