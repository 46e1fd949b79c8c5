// How the data commands print what the server answered: `--output table` (aligned columns,
// for people), `json` (one document: an object, or an array for lists) or `jsonl` (one JSON
// value per line, for pipes).
import Table from 'cli-table3';

export const OUTPUT_FORMATS = ['table', 'json', 'jsonl'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** A table shows at most this many columns (the first keys seen); json and jsonl show all. */
export const MAX_TABLE_COLUMNS = 12;
/** A table cell longer than this is cut with "…" (json and jsonl are never cut). */
export const MAX_CELL_CHARS = 60;

const BORDERLESS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
};

/** Columns holding epoch milliseconds: a table shows them as ISO 8601 (UTC); json and jsonl keep the numbers. */
export const TIME_COLUMNS: ReadonlySet<string> = new Set(['created', 'updated', 'lastUsed', 'expiry', 'revoked']);

function cell(v: unknown, column: string): string {
  if (typeof v === 'number' && TIME_COLUMNS.has(column) && Number.isSafeInteger(v)) return new Date(v).toISOString();
  const s = v === undefined ? '' : v === null ? 'null' : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return s.length > MAX_CELL_CHARS ? `${s.slice(0, MAX_CELL_CHARS - 1)}…` : s;
}

/** Rows as aligned columns: the given columns, or the keys of the rows in the order first seen. */
export function table(rows: readonly Record<string, unknown>[], columns?: readonly string[]): string {
  const cols = columns ?? [...new Set(rows.flatMap((r) => Object.keys(r)))].slice(0, MAX_TABLE_COLUMNS);
  if (cols.length === 0) return rows.length === 0 ? '(none)' : '';
  const t = new Table({ head: [...cols], chars: BORDERLESS, style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 } });
  for (const r of rows) t.push(cols.map((c) => cell(r[c], c)));
  return t
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n');
}

/** A list of rows in the chosen format. */
export function formatRows(rows: readonly Record<string, unknown>[], format: OutputFormat, columns?: readonly string[]): string {
  if (format === 'json') return JSON.stringify(rows, null, 2);
  if (format === 'jsonl') return rows.map((r) => JSON.stringify(r)).join('\n');
  return rows.length === 0 ? '(none)' : table(rows, columns);
}

/** One object (a namespace, a document, a write's result) in the chosen format. */
export function formatOne(row: Record<string, unknown>, format: OutputFormat, columns?: readonly string[]): string {
  if (format === 'json') return JSON.stringify(row, null, 2);
  if (format === 'jsonl') return JSON.stringify(row);
  return table([row], columns);
}
