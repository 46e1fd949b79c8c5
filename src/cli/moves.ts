// `loam namespaces move NS --to SHARD` (docs/sharding.md "Moves", spec §5.5): moves a namespace
// to another shard of a sharded metastore, metadata only, printing each phase as it completes
// with the counts of what was copied. Run again after a crash to finish the move.
import type { Command } from 'commander';
import { MOVE_LEASE_TTL_MS, type MoveProgress } from '../meta/backends/sharded/move.js';

const MOVE_HELP = `
Copies the namespace's metadata (collections, streams, log index, pointers, leases, tags,
object references: docs/sharding.md "What moves") to the shard named by --to and flips the
directory entry; its data stays where it is in the bucket. Writes to the namespace pause for
the moment of the flip instead of failing; reads go on. Phases, in order:
  checked tracked precopied marked synced fenced copied flipped retired unfenced live removed done
Writes pause from "fenced" to "unfenced"; the old shard's rows are removed after "live",
while writes go on at the new shard. A move that fails before "flipped" is undone (the
namespace stays on its shard, readable and writable). If the command dies, run it again: it
finishes the move from where it stopped (another run's move lease expires
${MOVE_LEASE_TTL_MS / 1000} s after that run died); a node that opens the metastore also
finishes a removal left unfinished.

Example:
  loam namespaces move prod --to eu --org acme --config loam.json
`;

function describe(p: MoveProgress): string {
  const c = p.counts;
  const what =
    p.phase === 'checked'
      ? `namespace ${p.ns}: ${p.from} → ${p.to}${p.resumed ? ' (resuming an unfinished move)' : ''}, move epoch ${p.epoch}`
      : p.phase === 'precopied' && c
        ? `${c.rows} rows: ${c.collections} collections, ${c.streams} streams, ${c.indexEntries} index entries, ${c.pointers} pointers, ${c.leases} leases, ${c.tags} tags, ${c.objects} object references`
        : p.phase === 'synced' && c
          ? `${c.caughtUp} rows changed during the pre-copy`
          : p.phase === 'copied' && c
            ? `${c.changed} rows changed since`
            : '';
  return `${p.phase.padEnd(9)}${String(Math.round(p.ms)).padStart(7)} ms  ${what}`.trimEnd();
}

export function moveCommands(p: Command): void {
  const ns = p.commands.find((c) => c.name() === 'namespaces') ?? p.command('namespaces');
  ns.command('move')
    .argument('<namespace>', 'the namespace name')
    .description('Move a namespace to another shard of a sharded metastore (metadata only), printing each phase.')
    .requiredOption('--to <shard>', 'the shard to move it to (loam shards list)')
    .requiredOption('--config <file>', 'the node config file (its metastore)')
    .option('--org <org>', 'the org', 'default')
    .option('-o, --output <format>', 'table (a line per phase) or json (a JSON line per phase, then the report)', 'table')
    .addHelpText('after', MOVE_HELP)
    .action(async (name: string, o: { to: string; config: string; org: string; output: string }) => {
      try {
        if (o.output !== 'table' && o.output !== 'json') throw new Error(`--output must be table or json; got ${JSON.stringify(o.output)}`);
        // Loaded here, not at the top: the rest of the CLI starts without the backends (see main.ts).
        const [{ envOverrides, readConfigFile, resolveConfig }, { openMetastore }, { ShardedMetaStore }] = await Promise.all([
          import('../node/config.js'),
          import('../node/backends.js'),
          import('../meta/backends/sharded/index.js'),
        ]);
        const c = resolveConfig(readConfigFile(o.config), envOverrides());
        const { meta } = await openMetastore(c.metastore);
        try {
          if (!(meta instanceof ShardedMetaStore)) throw new Error('the metastore is not sharded: a namespace can move only between the shards of "metastore": { "shards": [...] }');
          const e = await meta.router.directory.entryByName(o.org, name);
          if (!e) throw new Error(`no namespace ${o.org}/${name} in the directory`);
          const report = await meta.moveNamespace(e.id, o.to, {
            onProgress: (p) => console.log(o.output === 'json' ? JSON.stringify(p) : describe(p)),
          });
          if (o.output === 'json') console.log(JSON.stringify(report));
          else console.log(`${o.org}/${name} is on shard ${o.to} (${Math.round(report.ms)} ms)`);
        } finally {
          await meta.close();
        }
      } catch (err) {
        console.error(`loam: ${(err as Error).message}`);
        process.exit(1);
      }
    });
}
