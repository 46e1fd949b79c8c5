// `loam erase` and `loam erasures` (spec §9): erase documents for good, follow an erasure's
// progress, read the org's erasure log and verify that a key was erased — against a running
// node, with an org admin's LOAM_KEY for the log (a namespace admin's for erase).
import { Command, InvalidArgumentError } from 'commander';
import type { Erasure } from '../client/index.js';
import { InputError } from './docs-input.js';
import { formatOne, formatRows } from './output.js';
import { act, clientFor, jsonObject, numberKeys, print, remote, type Remote } from './data.js';

const SHOW_COLUMNS = ['id', 'phase', 'waiting', 'requested', 'expected_completion', 'deadline', 'completed'];
const LIST_COLUMNS = ['id', 'phase', 'namespace_id', 'collection_id', 'keys', 'requested', 'completed'];

const time = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

/** An erasure as `show` prints it: its progress, its counts, and when it is expected to finish. */
function shown(e: Erasure): Record<string, unknown> {
  return {
    id: e.id,
    phase: e.phase,
    waiting: e.waiting ?? null,
    requested: time(e.requested),
    expected_completion: time(e.expected_completion),
    deadline: time(e.deadline),
    completed: time(e.completed),
    ...e.counts,
    key_version: e.key_version,
    tags_rewritten_from: (e.tags ?? []).map((t) => `${t.name}@v${t.from_version}`).join(', ') || null,
  };
}

function keyValue(v: string): string {
  if (v === '') throw new InvalidArgumentError('expected a primary key value');
  return v;
}

export function erasureCommands(p: Command): void {
  remote(
    p
      .command('erase')
      .argument('<namespace>')
      .argument('<collection>')
      .argument('[keys...]', 'primary key values to erase')
      .option('--filter <json>', 'erase the documents this query filter matches now, instead of keys', jsonObject)
      .option('--number', 'the keys are numbers (a collection whose primary key is a number)')
      .description(
        'Erase documents for good (GDPR): deleted at once, then purged from every data file, manifest, tag, log segment, object version and cache ' +
          "by the erasure's deadline. Prints the erasure's id; follow it with `loam erasures show ID`. Takes a namespace admin's key.",
      ),
    "loam erase demo users user-17 user-18   |   loam erase demo users --filter '{\"email\":\"a@b.c\"}'",
  ).action(
    act(async (ns: string, coll: string, keys: string[], o: Remote & { filter?: Record<string, unknown>; number?: boolean }) => {
      if (keys.length > 0 && o.filter) throw new InputError('give keys or --filter, not both (see loam erase --help)');
      if (keys.length === 0 && !o.filter) throw new InputError('give the keys to erase, or --filter (see loam erase --help)');
      const body = o.filter ? { filter: o.filter } : { keys: o.number ? numberKeys(keys) : keys };
      const r = await clientFor(o).erase(ns, coll, body);
      print(formatOne({ ...shown(r.erasure!), token: r.token }, o.output, [...SHOW_COLUMNS, 'token']));
    }),
  );

  const er = p
    .command('erasures')
    .description("The org's erasure log: list, follow and verify erasures (an org admin's key).")
    .addHelpText('after', '\nExample:\n  loam erasures show er_0123abcd…\n');
  remote(er.command('list').option('--active', 'only erasures not yet complete').description("List the org's erasures."), 'loam erasures list --active').action(
    act(async (o: Remote & { active?: boolean }) => {
      const page = await clientFor(o).erasures.list(o.active ? { active: true } : {});
      print(formatRows((page.items ?? []).map((e) => ({ ...shown(e), namespace_id: e.namespace_id, collection_id: e.collection_id })), o.output, LIST_COLUMNS));
    }),
  );
  remote(er.command('show').argument('<id>').description("An erasure's phase, what it waits for, its counts and its expected completion."), 'loam erasures show er_0123abcd…').action(
    act(async (id: string, o: Remote) => print(formatOne(shown(await clientFor(o).erasures.get(id)), o.output))),
  );
  remote(
    er
      .command('verify')
      .argument('<id>')
      .requiredOption('--key <value>', 'the primary key value that was erased', keyValue)
      .option('--number', 'the key is a number')
      .description("Recomputes the key's HMAC-SHA256 under the org's erasure-log key (the record's key version) and shows the record when it holds it; exits 1 when it does not."),
    'loam erasures verify er_0123abcd… --key user-17',
  ).action(
    act(async (id: string, o: Remote & { key: string; number?: boolean }) => {
      const v = await clientFor(o).erasures.verify(id, o.number ? numberKeys([o.key])[0]! : o.key);
      print(formatOne({ verified: v.verified, key_hash: v.key_hash, key_version: v.key_version, ...shown(v.erasure!) }, o.output));
    }),
  );
}
