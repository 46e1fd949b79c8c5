// The page shell of the status page: one style sheet inline (allowed by its hash in the
// Content-Security-Policy, which allows no script at all), the navigation, the login form,
// error pages, and the formatting of figures.
import { createHash } from 'node:crypto';
import { html, trusted, type Html } from './html.js';

const CSS = `
:root{color-scheme:light;--fg:#1d2430;--muted:#5b6472;--line:#d9dee5;--bg:#f6f7f9;--accent:#2457a6;--warn:#a14b00}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:var(--bg)}
header{display:flex;gap:1.5rem;align-items:center;padding:.6rem 1.2rem;background:#fff;border-bottom:1px solid var(--line)}
header .brand{font-weight:700}header nav{display:flex;gap:1rem;flex:1}header a{color:var(--accent);text-decoration:none}
header .who{color:var(--muted)}header form.logout{margin:0}header form.logout button{background:none;border:0;color:var(--accent);padding:0}main{padding:1rem 1.2rem;max-width:1200px}
h1{font-size:1.3rem;margin:.2rem 0 1rem}h2{font-size:1.05rem;margin:1.4rem 0 .5rem}
table{border-collapse:collapse;background:#fff;border:1px solid var(--line);min-width:50%}
th,td{padding:.35rem .7rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
th{font-weight:600;background:#eef1f5}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
a{color:var(--accent)}.muted{color:var(--muted)}.warn{color:var(--warn)}.empty{color:var(--muted);padding:.6rem 0}
form.search{display:flex;gap:.5rem;margin:0 0 1rem}input{font:inherit;padding:.35rem .5rem;border:1px solid var(--line);border-radius:4px}
button{font:inherit;padding:.35rem .9rem;border:1px solid var(--accent);background:var(--accent);color:#fff;border-radius:4px;cursor:pointer}
.login{max-width:30rem;margin:3rem auto;background:#fff;border:1px solid var(--line);padding:1.2rem 1.5rem;border-radius:6px}
.login input{width:100%;margin:.3rem 0 .8rem}.error{border-left:4px solid #b3261e;background:#fdecea;padding:.6rem .8rem;margin:0 0 1rem}
.pager{margin:.8rem 0}dl{display:grid;grid-template-columns:max-content auto;gap:.25rem 1rem}dt{color:var(--muted)}dd{margin:0}
svg.chart{background:#fff;border:1px solid var(--line);max-width:720px;width:100%;height:auto}
svg .bar{fill:var(--accent)}svg .axis{stroke:var(--line)}svg text{font:11px system-ui,sans-serif;fill:var(--muted)}
`;

/** The Content-Security-Policy of every page: no script, no plugin, no frame; only the style sheet above. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'`,
  'img-src data:',
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** Who is signed in, for the header. */
export interface Viewer {
  org: string;
  keyId: string | null;
}

export function page(title: string, body: Html, viewer: Viewer | null): Html {
  const nav = viewer
    ? html`<nav><a href="/ui/namespaces">Namespaces</a><a href="/ui/usage">Quotas &amp; usage</a><a href="/ui/cluster">Gateways &amp; nodes</a></nav>
<span class="who">org <b>${viewer.org}</b>${viewer.keyId ? html` · key ${viewer.keyId}` : ''}</span><form class="logout" method="post" action="/ui/logout"><button type="submit">Log out</button></form>`
    : html`<nav></nav>`;
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Loam</title><link rel="icon" href="data:,"><style>${trusted(CSS)}</style></head>
<body><header><span class="brand">Loam</span>${nav}</header><main>
<h1>${title}</h1>
${body}
</main></body></html>`;
}

/** The login form, with the server's message when a key was refused. */
export function loginPage(message: string | null): Html {
  return page(
    'Sign in',
    html`<div class="login">
${message ? html`<p class="error" role="alert">${message}</p>` : ''}
<form method="post" action="/ui/login">
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="off" placeholder="loam_…" required>
<button type="submit">Sign in</button>
</form>
<p class="muted">The key is kept in this browser session only (a cookie the page's scripts cannot read, sent only to /ui), and forgotten when you log out or close the browser.</p>
</div>`,
    null,
  );
}

/** A refusal or failure, as the server's code and message (never a stack trace). */
export function errorPage(status: number, code: string, message: string, viewer: Viewer | null): Html {
  return page(status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : 'Something went wrong', html`<p class="error" role="alert"><b>${code}</b>: ${message}</p><p><a href="/ui">Back to the status page</a></p>`, viewer);
}

export function fmtInt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
export function fmtBytes(n: number): string {
  let v = n;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${v} B` : `${v.toFixed(v < 10 ? 1 : 0)} ${UNITS[u]}`;
}

export function fmtTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

/** How long ago, coarsely: "12 s ago", "3 min ago", "5 h ago", "2 d ago". */
export function fmtAgo(ms: number, now: number): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 120) return `${s} s ago`;
  if (s < 7200) return `${Math.round(s / 60)} min ago`;
  if (s < 172_800) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86_400)} d ago`;
}
