// Human-readable reports of a check. The first line is the verdict alone
// (`linearizable`, `not linearizable`, `unknown`); details follow, indented.
import type { CheckResult, OpView } from './check.js';

/** Longest JSON shown for args or results before eliding. */
const MAX_JSON = 160;

function json(v: unknown): string {
  const s = JSON.stringify(v) ?? 'undefined';
  return s.length > MAX_JSON ? `${s.slice(0, MAX_JSON - 1)}…` : s;
}

export function formatOp(o: OpView): string {
  const outcome =
    o.status === 'info' ? 'info (outcome unknown)' : o.result === undefined ? o.status : `${o.status} ${json(o.result)}`;
  const part = o.part ? ` [${o.part}]` : '';
  return `line ${o.line}  process ${o.process}  ${o.op}${part} ${json(o.args)} -> ${outcome}  (t ${o.call} .. ${o.ret ?? 'inf'})`;
}

function stats(r: CheckResult): string {
  return (
    `${r.ops} operations (${r.steps} atomic steps, ${r.dropped} left out as constraining nothing` +
    (r.setAside ? `, ${r.setAside} unknown-outcome steps set aside as unobserved` : '') +
    `), ` +
    `${r.partitions} partitions, ${r.searchSteps} search steps, ${r.ms.toFixed(0)} ms, model ${r.model}`
  );
}

export function formatResult(r: CheckResult): string {
  const out: string[] = [r.verdict];
  if (r.verdict === 'unknown' && r.unknown) {
    const why = { deadline: 'the time budget ran out', steps: 'the step budget ran out' }[r.unknown.reason];
    out.push(`  ${why ?? r.unknown.reason} while checking ${r.unknown.partition.description} (${r.unknown.partition.steps} steps)`);
  }
  const v = r.violation;
  if (v) {
    out.push(`  ${v.message}`);
    if (v.ops) for (const o of v.ops) out.push(`    ${formatOp(o)}`);
    if (v.partition) out.push(`  partition: ${v.partition.description} (${v.partition.steps} atomic steps)`);
    if (v.prefix) {
      out.push(
        `  longest linearizable prefix: ${v.prefix.linearized} of ${v.prefix.of} steps` +
          (v.prefix.tail.length ? `; its last (and still-running) ones, in linearization order:` : ''),
      );
      for (const o of v.prefix.tail) out.push(`    ${formatOp(o)}`);
    }
    if (v.state) {
      out.push(`  state after that prefix:`);
      for (const [k, s] of Object.entries(v.state)) out.push(`    ${k} = ${json(s)}`);
    }
    if (v.unplaced) {
      out.push(`  operations that could not be placed next (the first had to be, before it returned):`);
      for (const u of v.unplaced) {
        out.push(`    ${formatOp(u.op)}`);
        for (const w of u.why) out.push(`        why: ${w}`);
      }
      if (v.unplacedTotal !== undefined && v.unplacedTotal > v.unplaced.length) {
        out.push(`    … and ${v.unplacedTotal - v.unplaced.length} more`);
      }
    }
  }
  out.push(`  ${stats(r)}`);
  return out.join('\n');
}
