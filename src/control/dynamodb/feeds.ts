// The ControlStore's feeds on DynamoDB: the change feed, the authorization outbox (spec §7)
// and the positions of the background jobs that read them:
//
//   pk ctl#ctr      sk ver                     v (the change feed's counter, ADD 1)
//   pk ctl#chg      sk <version, 16 digits>    version, kind, org, id, at
//   pk ctl#ctr      sk outbox                  v (the outbox's counter, ADD 1)
//   pk ctl#outbox   sk <seq, 16 digits>        seq, org, subject, relation, target, at (opened with outbox: true)
//   pk ctl#job      sk <job>                   position, at (where a background job stopped)
//
// Feed and outbox entries are written by the context's `write`, beside the change they report;
// this module reads them (one Query in version or seq order), acknowledges outbox entries
// (single-item deletes, several at a time) and keeps job positions (one item a job).
import { changesLimit, outboxLimit } from '../rules.js';
import { MAX_CHANGES_PAGE, MAX_OUTBOX_PAGE, type ControlChange, type ControlChangeKind, type OutboxEntry } from '../types.js';
import { checkBatch, checkJob, checkJobPosition } from '../validate.js';
import { P16, enc } from './codec.js';
import { inParallel, type ControlContext } from './context.js';

export async function controlVersion(cx: ControlContext): Promise<number> {
  const it = await cx.get('ctl#ctr', 'ver');
  return it ? Number(it.v) : 0;
}

export async function changesSince(cx: ControlContext, after: number, limit = MAX_CHANGES_PAGE): Promise<ControlChange[]> {
  const rows = await cx.query('ctl#chg', { after: P16(after), max: changesLimit(limit) });
  return rows.map((r) => ({ version: Number(r.version), kind: String(r.kind) as ControlChangeKind, org: String(r.org), id: String(r.id), at: Number(r.at) }));
}

export async function outbox(cx: ControlContext, limit = MAX_OUTBOX_PAGE): Promise<OutboxEntry[]> {
  const rows = await cx.query('ctl#outbox', { after: '', max: outboxLimit(limit) });
  return rows.map((r) => ({ seq: Number(r.seq), org: String(r.org), subject: String(r.subject), relation: String(r.relation), target: String(r.target), at: Number(r.at) }));
}

export async function ackOutbox(cx: ControlContext, seqs: number[]): Promise<void> {
  checkBatch('MAX_OUTBOX_PAGE', seqs);
  await inParallel(seqs, (seq) => cx.one({ Delete: { TableName: cx.table, Key: enc({ pk: 'ctl#outbox', sk: P16(seq) }) } }));
}

export async function jobPosition(cx: ControlContext, job: string): Promise<string | null> {
  checkJob(job);
  const it = await cx.get('ctl#job', job);
  return it ? String(it.position) : null;
}

export async function saveJobPosition(cx: ControlContext, job: string, position: string | null, at = Date.now()): Promise<void> {
  checkJob(job);
  checkJobPosition(position);
  if (position === null) await cx.one({ Delete: { TableName: cx.table, Key: enc({ pk: 'ctl#job', sk: job }) } });
  else await cx.one({ Put: { TableName: cx.table, Item: enc({ pk: 'ctl#job', sk: job, position, at }) } });
}
