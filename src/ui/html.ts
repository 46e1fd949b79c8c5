// HTML with every interpolated value escaped: `html` is a tagged template whose holes are
// text unless they are already Html (a fragment built the same way), so a value reaches the
// page unescaped only through `trusted`, which takes constant markup written here.

/** Markup that is safe to emit as is. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text → HTML text, safe in element content and in quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Hole = Html | string | number | boolean | null | undefined | readonly Hole[];

function render(v: Hole): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.text;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/** A fragment: the literal parts as written, every hole escaped (arrays are joined, null/undefined/false are empty). */
export function html(parts: TemplateStringsArray, ...holes: Hole[]): Html {
  let out = parts[0]!;
  for (let i = 0; i < holes.length; i++) out += render(holes[i]!) + parts[i + 1]!;
  return new Html(out);
}

/** Constant markup written in this code (never a value from a request or the metastore). */
export function trusted(markup: string): Html {
  return new Html(markup);
}

/** A URL path of segments, each percent-encoded, and a query of the parameters that are set. */
export function href(segments: readonly string[], query: Record<string, string | number | undefined> = {}): string {
  const path = '/' + segments.map(encodeURIComponent).join('/');
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') q.set(k, String(v));
  const qs = q.toString();
  return qs ? `${path}?${qs}` : path;
}
