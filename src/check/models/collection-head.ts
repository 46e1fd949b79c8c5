// collectionHead: the documented read order of a composite read (spec §3.3).
//
// A collection's pointer (its link's pointer, whose value names the manifest) is written
// by casPointer with the manifest's applied offsets in args.applied; the partition heads
// of its stream move by commitWal. collectionHead reads the pointer, THEN the heads.
//
// How the read is checked: the call is split into a pointer read and one head read per
// partition, each an atomic step anywhere inside the call's interval, with every head read
// constrained to be linearized after the pointer read (the `after` relation). That is the
// read order, no more: the heads need not be one snapshot, but none may be older than the
// pointer. All of them share one partition of the history with the pointer and the
// stream's partitions (the after-relation joins their keys), so the constraint is checked
// exactly. Plus a static check on every read: heads are never below the pointer's applied
// offsets — the tail may look longer than the manifest's applied offsets, never shorter.
// (That holds for every linearizable history whose writers only publish applied offsets at
// most the heads at the time, which is the writer's discipline the model assumes.)
import type { Op } from '../history.js';
import {
  bad,
  canon,
  isObj,
  reject,
  reqInt,
  reqObj,
  reqString,
  SAME,
  type Alt,
  type OpHandler,
  type Precheck,
  type Violation,
} from '../model.js';
import { linkPointerKey } from '../../meta/contract.js';
import { headNever, headStep, parseHeads, partKey } from './log.js';
import { appliedArg, pointerKey, pointerMatches, pointerPassed, type PointerState } from './pointer.js';

type ReadPointer = { version: number; value?: string; applied?: string } | null;

type Data =
  | { kind: 'pointer'; key: string; pointer: ReadPointer }
  | { kind: 'head'; key: string; next: number; logStart: number | null };

function parseResult(op: Op) {
  const r = reqObj(op.result, 'result');
  let pointer: ReadPointer = null;
  if (r.pointer !== null && r.pointer !== undefined) {
    const p = reqObj(r.pointer, 'result.pointer');
    pointer = { version: reqInt(p, 'version', 'result.pointer') };
    if (p.value !== undefined) pointer.value = reqString(p, 'value', 'result.pointer');
    if (p.applied !== undefined) pointer.applied = appliedArg(p.applied, 'result.pointer.applied');
  } else if (r.pointer === undefined) bad('result.pointer is required (null before the first manifest)');
  return { pointer, heads: parseHeads(r.heads, 'result.heads') };
}

/**
 * The pointer key and stream: from args.key and args.stream, else from the result's
 * collection (linkId, streamId), which is what MetaStore.collectionHead returns.
 */
function keysOf(op: Op) {
  const c = isObj(op.result) && isObj(op.result.collection) ? op.result.collection : null;
  let key: string;
  if (op.args.key !== undefined) key = reqString(op.args, 'key', 'args');
  else if (c && typeof c.linkId === 'number') key = linkPointerKey(c.linkId);
  else bad('args.key (the pointer key) is required, or result.collection.linkId');
  let stream: number;
  if (op.args.stream !== undefined) stream = reqInt(op.args, 'stream', 'args');
  else if (c && typeof c.streamId === 'number') stream = c.streamId;
  else bad('args.stream is required, or result.collection.streamId');
  return { pkey: pointerKey(op.args.ns, key), stream };
}

const collectionHead: OpHandler<Data> = {
  name: 'collectionHead',
  doc: {
    args: '{ns?, key? (the collection\'s pointer key, e.g. "link/7"), stream?} — both default to result.collection\'s linkId and streamId',
    ok: '{pointer: {version, value?, applied?: {partition: offset}} | null, heads: {partition: next} | [{partition, next, logStart?}]}',
    notes:
      'read order: the pointer first, then the heads (each head no older than the pointer read); heads never below the ' +
      'pointer\'s applied offsets (from result.pointer.applied, else from the casPointer that wrote that version)',
  },
  prepare(op) {
    if (op.status !== 'ok') return []; // an unknown or failed read observes nothing
    const { pkey, stream } = keysOf(op);
    const { pointer, heads } = parseResult(op);
    return [
      { keys: [pkey], data: { kind: 'pointer', key: pkey, pointer }, label: 'pointer', readOnly: true },
      ...heads.map((h) => ({
        keys: [partKey(op.args.ns, stream, h.partition)],
        data: { kind: 'head' as const, key: partKey(op.args.ns, stream, h.partition), next: h.next, logStart: h.logStart },
        label: `head of partition ${h.partition}`,
        after: [0],
        readOnly: true,
      })),
    ];
  },
  step(d, s, get, why): Alt[] {
    if (d.kind === 'head') return headStep(d, s, get, why);
    const cur = get(d.key) as PointerState | null;
    return pointerMatches(cur, d.pointer)
      ? SAME
      : reject(why, () => `read pointer ${JSON.stringify(d.pointer)}, but it is ${cur === null ? 'absent' : `at version ${cur.version} (${cur.value})`}`);
  },
  never(d, s, get) {
    if (d.kind === 'head') return headNever(d, s, get);
    return pointerPassed(get(d.key) as PointerState | null, d.pointer?.version ?? null);
  },
};

/** Applied offsets per (pointer key, version), from the casPointer calls that wrote them. */
function appliedIndex(ops: readonly Op[]): Map<string, string> {
  const m = new Map<string, string>();
  for (const op of ops) {
    if (op.name !== 'casPointer' || op.status !== 'ok' || op.args.applied === undefined || typeof op.args.key !== 'string') continue;
    if (!isObj(op.result) || typeof op.result.version !== 'number') continue;
    m.set(`${pointerKey(op.args.ns, op.args.key)}#${op.result.version}`, canon(op.args.applied));
  }
  return m;
}

const readOrderPrecheck: Precheck = (ops, ctx) => {
  const out: Violation[] = [];
  for (const op of ops) {
    if (op.name !== 'collectionHead' || op.status !== 'ok') continue;
    const { pkey } = keysOf(op);
    const { pointer, heads } = parseResult(op);
    if (!pointer) continue;
    const applied = pointer.applied ?? ctx.index('appliedByVersion', appliedIndex).get(`${pkey}#${pointer.version}`);
    if (!applied) continue;
    const next = new Map(heads.map((h) => [h.partition, h.next]));
    for (const [p, off] of Object.entries(JSON.parse(applied) as Record<string, number>)) {
      const h = next.get(Number(p)) ?? 0;
      if (h < off) {
        out.push({
          message:
            `collectionHead read a head below the pointer's applied offsets: partition ${p} next ${h} < applied ${off} ` +
            `(pointer version ${pointer.version}); the tail may look longer than the manifest's applied offsets, never shorter (spec §3.3)`,
          ops: [op],
        });
        break;
      }
    }
  }
  return out;
};

export function collectionHeadHandlers(): { handlers: OpHandler[]; precheck: Precheck } {
  return { handlers: [collectionHead as OpHandler], precheck: readOrderPrecheck };
}
