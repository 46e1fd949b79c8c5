// URL settings in messages: the one place a URL (a metastore's, a store's, an endpoint's) is
// made safe to print. Errors and `loam config-check` show URLs; none may show a credential.

/**
 * A URL's userinfo, wherever a URL appears in a text (a query value such as ?endpoint=, a
 * sharded setting's JSON, a message). `user:password` may hold any character but whitespace,
 * quotes, `?` and `#` (a raw `/` or `@` in a password included), so it runs to the last `@`;
 * a user alone holds no `/` or `:`. A path with an `@` after a port may be masked too: the
 * safe side.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)(?:[^\s"'/?#@]*:[^\s"'?#]*|[^\s"'/?#:@]+)@/gi;
/** A query parameter, its name and its value. */
const PARAM = /([?&;])([A-Za-z0-9_.-]+)=([^&;#\s"']*)/g;
/** Parameter names whose values are credentials (password=, secretAccessKey=, sessionToken=, key=, sig=). */
const SECRET_PARAM = /password|passwd|secret|token|credential|(key|pwd|sig|signature)$/i;
/** What a masked part is shown as. */
export const MASK = '…';

/** `text` with every URL's userinfo and every credential-like query value masked (`postgres://…@host`). */
export function redactUrl(text: string): string {
  return text.replace(USERINFO, `$1${MASK}@`).replace(PARAM, (all, sep: string, name: string, value: string) => (value !== '' && SECRET_PARAM.test(name) ? `${sep}${name}=${MASK}` : all));
}

/** The credentials a URL (or a text holding URLs) carries, raw and percent-decoded. */
function credentialsIn(url: string): string[] {
  const out: string[] = [];
  for (const m of url.matchAll(new RegExp(USERINFO.source, 'gi'))) {
    const userinfo = m[0].slice(m[1]!.length, -1);
    const colon = userinfo.indexOf(':');
    out.push(colon >= 0 ? userinfo.slice(colon + 1) : userinfo);
  }
  for (const m of url.matchAll(new RegExp(PARAM.source, 'g'))) if (m[3] !== '' && SECRET_PARAM.test(m[2]!)) out.push(m[3]!);
  const decoded = out.map((s) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  });
  return [...new Set([...out, ...decoded])].filter((s) => s !== '');
}

/**
 * A message about `url` (a driver's, which may quote the URL or its password in any form),
 * made safe to print: the URLs in it masked, and the URL's own credentials removed wherever
 * they appear.
 */
export function redactSecrets(message: string, url: string): string {
  // Longest first, so a password containing another is removed whole.
  const secrets = credentialsIn(url).sort((a, b) => b.length - a.length);
  return secrets.reduce((m, s) => m.split(s).join(MASK), redactUrl(message));
}

/** The largest TCP port. */
export const MAX_PORT = 65_535;

/**
 * Why `new URL` refused a `scheme://…` text (it says only "Invalid URL"): the port, the host,
 * or the form expected. Reads the masked text, so nothing it says holds a credential.
 */
export function urlProblem(url: string, form: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(redactUrl(url));
  if (!m) return `is not a URL of the form ${form}`;
  const authority = m[1]!.slice(m[1]!.lastIndexOf('@') + 1);
  const hostPort = /^(\[[^\]]*\]|[^:]*)(?::(.*))?$/.exec(authority);
  const port = hostPort?.[2];
  if (port !== undefined && port !== '' && !(/^\d+$/.test(port) && Number(port) >= 1 && Number(port) <= MAX_PORT)) {
    return `port must be a number 1..${MAX_PORT}, got ${port}`;
  }
  if (hostPort && /[^A-Za-z0-9._~%!$&'()*+,;=[\]:-]/.test(hostPort[1]!)) return `host ${JSON.stringify(hostPort[1])} is not a host name or address (expected ${form})`;
  return `is not a URL of the form ${form}`;
}
