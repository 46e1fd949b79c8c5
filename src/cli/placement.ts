// `loam placement` (spec §5.3, docs/placement.md): where a namespace's keys are placed in a
// running node's membership view — the owner (and replicas) of its namespace key and of its
// collections — and the load per node, through GET /v1/placement.
import { Command, InvalidArgumentError } from 'commander';
import type { Placement } from '../client/index.js';
import { formatOne, formatRows } from './output.js';
import { act, clientFor, print, remote, type Remote } from './data.js';

const KEY_COLUMNS = ['kind', 'collection', 'key', 'role', 'owner', 'replicas'];
const NODE_COLUMNS = ['id', 'roles', 'zone', 'weight', 'owned', 'in_flight'];

function replicas(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 8) throw new InvalidArgumentError('expected an integer in 1..8');
  return n;
}

/** The table form: the keys, then the nodes; json and jsonl print the answer as it came. */
function printed(p: Placement, o: Remote): string {
  if (o.output !== 'table') return formatOne(p as Record<string, unknown>, o.output);
  const keys = (p.keys ?? []).map((k) => ({ ...k, collection: k.collection ?? '', replicas: (k.replicas ?? []).join(', ') }));
  const nodes = (p.nodes ?? []).map((n) => ({ ...n, roles: (n.roles ?? []).join(','), zone: n.zone ?? '' }));
  const ns = p.namespace;
  return [
    `${ns?.name} (id ${ns?.id}, size class ${ns?.size_class}); membership view ${p.view?.version}, ${p.view?.nodes} nodes`,
    formatRows(keys, 'table', KEY_COLUMNS),
    formatRows(nodes, 'table', NODE_COLUMNS),
  ].join('\n');
}

export function placementCommand(p: Command): void {
  remote(
    p
      .command('placement')
      .argument('<namespace>')
      .description("Show which node owns a namespace's keys (its quota bucket, each collection's reads) and the load per node, as the node at --url sees the cluster (an org admin's key).")
      .option('--collection <name>', 'only this collection')
      .option('--replicas <n>', 'replicas to list per key, zone-aware (1..8)', replicas)
      .option('--org <org>', "the namespace's org (required with the operator's key)"),
    'loam placement demo --collection books --replicas 2',
  ).action(
    act(async (ns: string, o: Remote & { collection?: string; replicas?: number; org?: string }) => {
      const got = await clientFor(o).placement.get(ns, {
        ...(o.collection ? { collection: o.collection } : {}),
        ...(o.replicas ? { replicas: o.replicas } : {}),
        ...(o.org ? { org: o.org } : {}),
      });
      print(printed(got, o));
    }),
  );
}
