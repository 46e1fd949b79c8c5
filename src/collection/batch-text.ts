// Where each document of a write batch lies in the request body's bytes, so the writer can
// store a document's JSON text as it was sent instead of JSON.stringify-ing the parsed value
// again (issue 20: that re-stringify was about half the write path's per-document CPU).
//
// The body was already parsed with JSON.parse (and checked: valid UTF-8, depth, numbers), so
// this is only a structural scan of text known to be valid JSON: it finds the top-level
// "upserts" member's array and the byte range of each element. JSON.parse keeps the last of
// duplicate members, so the scan does too. A document's text is then exactly what the parsed
// value was parsed from: reading it back with JSON.parse gives the value the writer validated
// (its whitespace and number spellings are the sender's, as an Elasticsearch _source is).
// Bounded: one pass over the body, each byte looked at a bounded number of times.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const UPSERTS = Buffer.from('"upserts"');

/** The position after JSON whitespace from `pos`. */
function skipWs(b: Buffer, pos: number): number {
  let c = b[pos];
  while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = b[++pos];
  return pos;
}

/** `pos` is at a string's opening quote: the position after its closing quote. */
function skipString(b: Buffer, pos: number): number {
  for (let i = pos + 1; ; ) {
    const q = b.indexOf(QUOTE, i);
    if (q < 0) throw new SyntaxError('unterminated string');
    // The quote closes the string unless an odd run of backslashes escapes it.
    let n = 0;
    while (b[q - 1 - n] === BACKSLASH) n++;
    if (n % 2 === 0) return q + 1;
    i = q + 1;
  }
}

/** `pos` is at a value's first byte: the position after the value. */
function skipValue(b: Buffer, pos: number): number {
  const c = b[pos];
  if (c === QUOTE) return skipString(b, pos);
  if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
    let depth = 0;
    for (let i = pos; i < b.length; ) {
      const x = b[i]!;
      if (x === QUOTE) {
        i = skipString(b, i);
        continue;
      }
      if (x === OPEN_OBJECT || x === OPEN_ARRAY) depth++;
      else if (x === CLOSE_OBJECT || x === CLOSE_ARRAY) {
        if (--depth === 0) return i + 1;
      }
      i++;
    }
    throw new SyntaxError('unterminated container');
  }
  // A number, true, false or null: up to the next delimiter.
  let i = pos;
  for (let x = b[i]; x !== undefined && x !== COMMA && x !== CLOSE_OBJECT && x !== CLOSE_ARRAY && x !== 0x20 && x !== 0x0a && x !== 0x0d && x !== 0x09; x = b[++i]);
  return i;
}

/** Whether the member name at [start, end) (quotes included) is "upserts", escapes decoded. */
function isUpserts(b: Buffer, start: number, end: number): boolean {
  if (end - start === UPSERTS.length && b.compare(UPSERTS, 0, UPSERTS.length, start, end) === 0) return true;
  const escape = b.indexOf(BACKSLASH, start);
  if (escape < 0 || escape >= end) return false;
  return JSON.parse(b.toString('utf8', start, end)) === 'upserts';
}

/**
 * The [start, end) byte offsets of every element of the body's top-level "upserts" array,
 * flattened ([s0, e0, s1, e1, …]), or null when the body has no such array. `body` must be
 * text JSON.parse accepted.
 */
export function upsertSpans(body: Buffer): number[] | null {
  let pos = skipWs(body, 0);
  if (body[pos] !== OPEN_OBJECT) return null;
  pos = skipWs(body, pos + 1);
  let spans: number[] | null = null;
  while (body[pos] === QUOTE) {
    const keyEnd = skipString(body, pos);
    const upserts = isUpserts(body, pos, keyEnd);
    pos = skipWs(body, keyEnd);
    if (body[pos] !== COLON) throw new SyntaxError('expected a colon');
    pos = skipWs(body, pos + 1);
    if (upserts && body[pos] === OPEN_ARRAY) {
      const found: number[] = [];
      pos = skipWs(body, pos + 1);
      while (body[pos] !== CLOSE_ARRAY) {
        const end = skipValue(body, pos);
        if (end <= pos) throw new SyntaxError('expected a value');
        found.push(pos, end);
        pos = skipWs(body, end);
        if (body[pos] === COMMA) pos = skipWs(body, pos + 1);
      }
      pos++;
      spans = found; // a later duplicate member replaces an earlier one, as in JSON.parse
    } else {
      pos = skipValue(body, pos);
      if (upserts) spans = null;
    }
    pos = skipWs(body, pos);
    if (body[pos] === COMMA) pos = skipWs(body, pos + 1);
  }
  return spans;
}
