// The status page's rendering: every value is text. A name, message or search prefix holding
// markup comes out escaped, in element content and in attribute values alike, and links
// percent-encode what they carry.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml, href, html, trusted } from '../../src/ui/html.js';
import { collectionView, namespacesView } from '../../src/ui/views.js';
import { errorPage, loginPage } from '../../src/ui/layout.js';
import { barChart } from '../../src/ui/chart.js';
import type { Collection, Namespace } from '../../src/meta/types.js';
import type { CollectionStatus } from '../../src/ui/status.js';

const EVIL = `<script>alert(1)</script><img src=x onerror="alert(2)">'"&`;
const viewer = { org: EVIL, keyId: '0123456789abcdef' };

/** No tag or attribute of the hostile string survived: only its escaped text. */
function inert(page: string): void {
  assert.ok(!page.includes('<script'), 'no script element');
  assert.ok(!page.includes('<img'), 'no img element');
  assert.ok(!/onerror=/i.test(page.replace(/onerror=&quot;/g, '')), 'no event handler attribute');
  assert.ok(page.includes('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=&quot;alert(2)&quot;&gt;&#39;&quot;&amp;'), 'the text is there, escaped');
}

test('escapeHtml escapes the five characters that matter, and html escapes every hole but Html', () => {
  assert.equal(escapeHtml(`<a href="x">'&'</a>`), '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  assert.equal(html`<b>${EVIL}</b>`.text, `<b>${escapeHtml(EVIL)}</b>`);
  assert.equal(html`<p>${html`<i>${'<x>'}</i>`}${trusted('<br>')}${null}${undefined}${false}${[1, '<', 2]}</p>`.text, '<p><i>&lt;x&gt;</i><br>1&lt;2</p>');
});

test('href percent-encodes path segments and query values, and leaves out empty parameters', () => {
  assert.equal(href(['ui', 'namespaces', 'a/b?c'], { prefix: '<x> &y', cursor: undefined, page_size: 10 }), '/ui/namespaces/a%2Fb%3Fc?prefix=%3Cx%3E+%26y&page_size=10');
});

test('a namespace name and an org holding markup render as text, in content and in attributes', () => {
  const n: Namespace = { id: 1, org: 'default', name: EVIL, state: 'live', created: 0 };
  const page = namespacesView(viewer, [n], { prefix: EVIL, pageSize: 100, cursor: EVIL, next: EVIL }).text;
  inert(page);
  // The link to it and the search box carry it escaped or percent-encoded.
  assert.ok(page.includes(`href="/ui/namespaces/${encodeURIComponent(EVIL).replace(/'/g, '&#39;')}"`), page);
  assert.ok(page.includes(`value="${escapeHtml(EVIL)}"`));
});

test("a collection's name, its fields and its namespace holding markup render as text", () => {
  const n: Namespace = { id: 1, org: 'default', name: EVIL, state: 'live', created: 0 };
  const c = { id: 2, ns: 1, name: EVIL, partitions: 1, created: 0, schema: { primaryKey: EVIL, fields: { [EVIL]: 'string' } } } as unknown as Collection;
  const s: CollectionStatus = {
    backlog: { records: 3, bytes: 90, partitions: [{ partition: 0, records: 3, bytes: 90 }] },
    heads: [{ partition: 0, next: 3, logStart: 0, bytes: 90 }],
    applied: [0],
    maxPartitionLag: 3,
    manifest: null,
    worker: null,
  };
  const page = collectionView(viewer, n, c, s, 0).text;
  inert(page);
  assert.match(page, /<dt>Unapplied records<\/dt><dd>3<\/dd>/);
  assert.match(page, /never: no manifest yet/);
});

test("the server's message on an error page and on the login form is text", () => {
  inert(errorPage(404, 'not_found', EVIL, viewer).text);
  inert(loginPage(EVIL).text);
});

test('the chart is SVG with one bar per window and its figures escaped in tooltips', () => {
  const svg = barChart(EVIL, [{ at: 0, value: 5 }, { at: 3_600_000, value: 0 }, { at: 7_200_000, value: 10 }], (v) => `${v}<u>`).text;
  assert.equal((svg.match(/<rect /g) ?? []).length, 3);
  assert.ok(svg.includes('<title>02:00 UTC: 10&lt;u&gt;</title>'));
  assert.ok(!svg.includes('<script') && !svg.includes('<u>'));
  // The tallest bar fills the plot; an empty window has no height.
  assert.match(svg, /height="146\.0"><title>02:00/);
  assert.match(svg, /height="0\.0"><title>01:00/);
});
