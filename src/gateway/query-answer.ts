// The query route's answer, {"documents":[…],"next_cursor":…}, spliced from each document's
// stored text, as GET …/documents/{id} answers the stored text: a parsed document
// serialized again loses what docs/api.md promises to keep (every digit of
// 12345678901234567890, 1.50, spacing, key order, a repeated member). The stored text was
// parsed and checked when it was written, so the splice is valid JSON.
import type { QueryPage } from '../collection/reader.js';

const OPEN = Buffer.from('{"documents":[');
const COMMA = Buffer.from(',');

/** The answer's bytes: one copy of the page's text, never a JS string of it. */
export function queryAnswer(p: QueryPage): Buffer {
  const parts: Buffer[] = [OPEN];
  for (const d of p.documents) {
    if (parts.length > 1) parts.push(COMMA);
    parts.push(d.text);
  }
  parts.push(Buffer.from(`],"next_cursor":${JSON.stringify(p.nextCursor)}}`));
  return Buffer.concat(parts);
}
