// Placement commands of `loam` (docs/sharding.md): `loam shards list` and `loam namespaces
// where NS`. They read the config's metastore directly (as the operator's tenancy commands
// do): a sharded metastore's directory says where each namespace lives.
import type { Command } from 'commander';
import type { ShardedMetaStore } from '../meta/backends/sharded/index.js';
import type { MetaStore } from '../meta/contract.js';

const SHARDS_HELP = `
A sharded metastore ("metastore": { "shards": [...], "directory": "<URL>" } in the config)
keeps each namespace's metadata on one shard; the directory (beside the ControlStore) records
which. Adding a shard is a config change: list it last (or give it a name), and the next
start records it in the directory; new namespaces are then placed on it too.

Example:
  loam shards list --config loam.json
  loam namespaces where prod --org acme --config loam.json
`;

async function withMeta<T>(config: string, fn: (meta: MetaStore, sharded: ShardedMetaStore | null) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: the rest of the CLI starts without the backends (see main.ts).
  const [{ envOverrides, readConfigFile, resolveConfig }, { openMetastore }, { ShardedMetaStore }] = await Promise.all([
    import('../node/config.js'),
    import('../node/backends.js'),
    import('../meta/backends/sharded/index.js'),
  ]);
  const c = resolveConfig(readConfigFile(config), envOverrides());
  const { meta } = await openMetastore(c.metastore);
  try {
    return await fn(meta, meta instanceof ShardedMetaStore ? meta : null);
  } finally {
    await meta.close();
  }
}

function fail(e: unknown): never {
  console.error(`loam: ${(e as Error).message}`);
  process.exit(1);
}

export function shardCommands(p: Command): void {
  const shards = p.command('shards').description('Show the shards of a sharded metastore.').addHelpText('after', SHARDS_HELP);
  shards
    .command('list')
    .description('List the shards (by directory order: the first is the home of cluster leases) and the directory version.')
    .requiredOption('--config <file>', 'the node config file (its metastore)')
    .option('-o, --output <format>', 'table or json', 'table')
    .action(async (o: { config: string; output: string }) => {
      try {
        await withMeta(o.config, async (_meta, sharded) => {
          if (!sharded) {
            console.log('the metastore is not sharded: every namespace lives on its one backend');
            return;
          }
          const version = await sharded.router.directory.version();
          const rows = sharded.shardRecords();
          if (o.output === 'json') {
            console.log(JSON.stringify({ directoryVersion: version, shards: rows }, null, 2));
            return;
          }
          console.log(`directory version ${version}`);
          console.log(['SHARD', 'SEQ', 'ADDED', 'WHERE'].join('\t'));
          for (const r of rows) console.log([r.name, r.seq, new Date(r.added).toISOString(), r.identity].join('\t'));
        });
      } catch (e) {
        fail(e);
      }
    });

  const ns = p.commands.find((c) => c.name() === 'namespaces') ?? p.command('namespaces');
  ns.command('where')
    .argument('<namespace>', 'the namespace name')
    .description('Show which shard holds a namespace, and its directory entry (id, state, size class, version).')
    .requiredOption('--config <file>', 'the node config file (its metastore)')
    .option('--org <org>', 'the org', 'default')
    .option('-o, --output <format>', 'table or json', 'table')
    .addHelpText('after', '\nExample:\n  loam namespaces where prod --org acme --config loam.json\n')
    .action(async (name: string, o: { config: string; org: string; output: string }) => {
      try {
        await withMeta(o.config, async (meta, sharded) => {
          if (!sharded) {
            const n = await meta.namespaceByName(o.org, name);
            console.log(o.output === 'json' ? JSON.stringify({ ...n, shard: null }, null, 2) : `${o.org}/${name} (id ${n.id}) is on the one metastore backend (not sharded)`);
            return;
          }
          const e = await sharded.router.directory.entryByName(o.org, name);
          if (!e) throw new Error(`no namespace ${o.org}/${name} in the directory`);
          const where = sharded.shardRecords().find((r) => r.name === e.shard);
          if (o.output === 'json') {
            console.log(JSON.stringify({ ...e, where: where?.identity ?? null }, null, 2));
            return;
          }
          console.log(`${e.org}/${e.name} (id ${e.id}) is on shard ${e.shard} (${where?.identity ?? 'not in this config'}); state ${e.state}, size class ${e.sizeClass}, entry version ${e.version}`);
        });
      } catch (e) {
        fail(e);
      }
    });
}
