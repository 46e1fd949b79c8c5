// `loam namespaces key show|rotate|destroy NS` (spec §9.8, docs/encryption.md): a namespace's
// encryption key, against a running node, with a namespace admin's LOAM_KEY. (`loam keys`
// is about API keys; these are the keys that seal a namespace's data.)
import type { Command } from 'commander';
import type { NamespaceKey } from '../client/index.js';
import { formatOne, formatRows } from './output.js';
import { act, clientFor, print, remote, type Remote } from './data.js';

const time = (ms: number | null | undefined) => (ms === null || ms === undefined ? null : new Date(ms).toISOString());

function printKey(k: NamespaceKey, o: Remote): void {
  if (o.output !== 'table') {
    print(formatOne(k as Record<string, unknown>, o.output));
    return;
  }
  print(formatOne({ namespace: k.namespace, encrypted: k.encrypted, state: k.state, provider: k.provider, current_version: k.current_version }, o.output));
  const rows = (k.versions ?? []).map((v) => ({ version: v.version, state: v.state, provider: v.provider, key_ref: v.key_ref, created: time(v.created), destroyed: time(v.destroyed) }));
  if (rows.length > 0) print(formatRows(rows, o.output, ['version', 'state', 'provider', 'key_ref', 'created', 'destroyed']));
}

export function namespaceKeyCommands(p: Command): void {
  const ns = p.commands.find((c) => c.name() === 'namespaces') ?? p.command('namespaces');
  const key = ns
    .command('key')
    .description("A namespace's encryption key: show its versions, rotate it, or destroy it (crypto-shred the namespace). A namespace admin's key.")
    .addHelpText('after', '\nExample:\n  loam namespaces key show demo\n  loam namespaces key rotate demo\n  loam namespaces key destroy demo --confirm demo\n');
  remote(key.command('show').argument('<namespace>').description('Whether the namespace is encrypted, its key versions, their state and provider (never key material).'), 'loam namespaces key show demo').action(
    act(async (name: string, o: Remote) => printKey(await clientFor(o).namespaceKeys.get(name), o)),
  );
  remote(
    key
      .command('rotate')
      .argument('<namespace>')
      .description(
        'Start a new key version: data written from now on is sealed under it (on other nodes within key_refresh_ms); data written before still reads. ' +
          'A namespace written unencrypted gets its first key (its older data stays as it is).',
      ),
    'loam namespaces key rotate demo',
  ).action(act(async (name: string, o: Remote) => printKey(await clientFor(o).namespaceKeys.rotate(name), o)));
  remote(
    key
      .command('destroy')
      .argument('<namespace>')
      .requiredOption('--confirm <namespace>', "the namespace's name again: destruction cannot be undone")
      .description(
        "Crypto-shred the namespace: destroy every version of its key, so none of its data in the bucket (WAL, segments, data files, old object versions, " +
          'backups of the bucket) can be decrypted again. Reads and writes of it then answer 410 key_destroyed. Cannot be undone.',
      ),
    'loam namespaces key destroy demo --confirm demo',
  ).action(act(async (name: string, o: Remote & { confirm: string }) => printKey(await clientFor(o).namespaceKeys.destroy(name, o.confirm), o)));
}
