// Histories for the linearizability checker (DESIGN §6): JSON lines, one event per line,
// Jepsen style. The format and every model's op shapes are documented in ./README.md.
//
//   { "process": 3, "type": "invoke", "op": "casPointer", "args": {...}, "time": 1200 }
//   { "process": 3, "type": "ok",     "op": "casPointer", "result": {"version": 4}, "time": 1260 }
//
// `ok` = applied, with its result; `fail` = definitely not applied (result: the error,
// `{code, message?, details?}` as MetaError.toJSON gives it); `info` = outcome unknown: it may
// take effect at any point after its invocation, or never. An invocation still pending at
// the end of the history counts as `info`. Malformed histories are rejected with a
// HistoryError naming the line — never a silent pass.

export type EventType = 'invoke' | 'ok' | 'fail' | 'info';
export type Process = number | string;

export interface HistoryEvent {
  process: Process;
  type: EventType;
  op: string;
  args?: Record<string, unknown>;
  result?: unknown;
  time: number;
}

/** One call after pairing its invocation with its completion. */
export interface Op {
  /** 0-based, in the order the invocations appear in the history. */
  index: number;
  process: Process;
  name: string;
  args: Record<string, unknown>;
  /** `info` also for an invocation never completed. */
  status: 'ok' | 'fail' | 'info';
  /** ok: the result; fail: the error; info: undefined. */
  result: unknown;
  call: number;
  /** Infinity for `info`: an unknown outcome may take effect at any later point. */
  ret: number;
  /** 1-based line numbers of the invocation and of the completion (null if none). */
  line: number;
  retLine: number | null;
}

/** A history that cannot be checked (bad JSON, bad pairing, unknown op or model). */
export class HistoryError extends Error {
  readonly line: number | null;
  constructor(message: string, line: number | null = null) {
    super(line === null ? message : `line ${line}: ${message}`);
    this.name = 'HistoryError';
    this.line = line;
  }
}

const TYPES: ReadonlySet<string> = new Set(['invoke', 'ok', 'fail', 'info']);
/** A bound on one history, so a runaway recorder cannot exhaust memory here. */
export const MAX_HISTORY_EVENTS = 10_000_000;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Validates one decoded event. `line` is 1-based, for messages. */
export function validateEvent(v: unknown, line: number | null = null): HistoryEvent {
  if (!isPlainObject(v)) throw new HistoryError('an event must be a JSON object', line);
  const { process, type, op, args, time } = v;
  if (!(typeof process === 'number' && Number.isFinite(process)) && !(typeof process === 'string' && process !== '')) {
    throw new HistoryError(`"process" must be a number (got ${JSON.stringify(process)})`, line);
  }
  if (typeof type !== 'string' || !TYPES.has(type)) {
    throw new HistoryError(`"type" must be one of invoke, ok, fail, info (got ${JSON.stringify(type)})`, line);
  }
  if (typeof op !== 'string' || op === '') throw new HistoryError(`"op" must be a non-empty string`, line);
  if (args !== undefined && !isPlainObject(args)) throw new HistoryError(`"args" must be an object`, line);
  if (typeof time !== 'number' || !Number.isFinite(time)) {
    throw new HistoryError(`"time" must be a finite number (got ${JSON.stringify(time)})`, line);
  }
  const ev: HistoryEvent = { process, type: type as EventType, op, time };
  if (args !== undefined) ev.args = args;
  if ('result' in v) ev.result = v.result;
  return ev;
}

/** Parses JSON lines (blank lines and lines starting with `#` or `//` are skipped). */
export function parseHistory(text: string): { events: HistoryEvent[]; lines: number[] } {
  const events: HistoryEvent[] = [];
  const lines: number[] = [];
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const raw = rows[i]!.trim();
    if (raw === '' || raw.startsWith('#') || raw.startsWith('//')) continue;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch (e) {
      throw new HistoryError(`not valid JSON (${(e as Error).message})`, i + 1);
    }
    if (events.length >= MAX_HISTORY_EVENTS) throw new HistoryError(`more than ${MAX_HISTORY_EVENTS} events`, i + 1);
    events.push(validateEvent(v, i + 1));
    lines.push(i + 1);
  }
  return { events, lines };
}

/**
 * Pairs each completion with its process's pending invocation. Errors: a completion without
 * an invocation, two invocations pending on one process, a completion naming another op,
 * a completion earlier than its invocation. Invocations left pending become `info`.
 * `lines` gives each event's line number (defaults to its 1-based position).
 */
export function pairHistory(events: readonly HistoryEvent[], lines?: readonly number[]): Op[] {
  return pair(events, lines, true);
}

/** Pairs events; `validate` false for events parseHistory has validated already. */
function pair(events: readonly HistoryEvent[], lines: readonly number[] | undefined, validate: boolean): Op[] {
  const lineOf = (i: number) => lines?.[i] ?? i + 1;
  const ops: Op[] = [];
  const pending = new Map<Process, Op>();
  for (let i = 0; i < events.length; i++) {
    const ev = validate ? validateEvent(events[i], lineOf(i)) : events[i]!;
    const line = lineOf(i);
    if (ev.type === 'invoke') {
      const open = pending.get(ev.process);
      if (open) {
        throw new HistoryError(
          `process ${ev.process} invokes ${ev.op} while its ${open.name} from line ${open.line} is still pending ` +
            `(two invocations pending on one process; after an unknown outcome, complete it with "info")`,
          line,
        );
      }
      const op: Op = {
        index: ops.length,
        process: ev.process,
        name: ev.op,
        args: ev.args ?? {},
        status: 'info',
        result: undefined,
        call: ev.time,
        ret: Infinity,
        line,
        retLine: null,
      };
      ops.push(op);
      pending.set(ev.process, op);
      continue;
    }
    const op = pending.get(ev.process);
    if (!op) throw new HistoryError(`"${ev.type}" of ${ev.op} on process ${ev.process} without an invocation`, line);
    if (op.name !== ev.op) {
      throw new HistoryError(
        `"${ev.type}" of ${ev.op} on process ${ev.process}, but its pending invocation (line ${op.line}) is ${op.name}`,
        line,
      );
    }
    if (ev.time < op.call) {
      throw new HistoryError(`completion at time ${ev.time} is earlier than its invocation at ${op.call} (line ${op.line})`, line);
    }
    if (ev.type === 'fail' && isPlainObject(ev.result) && ev.result.code === 'Unknown') {
      throw new HistoryError(`a "fail" is definitely not applied; record an Unknown outcome as "info"`, line);
    }
    pending.delete(ev.process);
    op.status = ev.type;
    op.retLine = line;
    if (ev.type === 'info') continue; // unknown outcome: may apply at any later point, or never
    op.ret = ev.time;
    op.result = ev.result;
  }
  return ops;
}

/** Parses and pairs a JSON-lines history. */
export function readHistory(text: string): Op[] {
  const { events, lines } = parseHistory(text);
  return pair(events, lines, false);
}

/** The error a `fail` carries: `{code, message?, details?}`; null when it names no code. */
export function failCode(op: Op): { code: string; details: Record<string, unknown> } | null {
  const r = op.result;
  if (!isPlainObject(r) || typeof r.code !== 'string') return null;
  return { code: r.code, details: isPlainObject(r.details) ? r.details : {} };
}
