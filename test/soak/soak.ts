// A soak (issue 22, spec §4.2): a cluster of `loam serve` nodes on one metastore and one
// bucket, clients writing and reading through the HTTP API with tokens, while a seeded
// schedule of Toxiproxy toxics runs on the metastore and store links and nodes are SIGKILLed
// and restarted. Then, with every toxic removed, the end checks (checks.ts) and a table.
import Table from 'cli-table3';
import { setTimeout as sleep } from 'node:timers/promises';
import { endChecks, type EndReport } from './checks.js';
import { counter, kill9, startNode, superviseStart, startWorld, stopNode, waitReady, READY_BOUND_MS, type Link, type NodeProc, type SoakBackend, type World } from './cluster.js';
import { load, type LoadStats } from './load.js';
import { describeSchedule, makeSchedule, FAULT_KINDS, type FaultEvent, type FaultKind, type Schedule } from './schedule.js';

export const NS = 'soak';
export const COLLECTION = 'docs';
export const PARTITIONS = 4;
import { DEFAULT_CLIENTS, DEFAULT_NODES } from './backends.js';
const GC_DELETED = 'loam_gc_deleted_objects_total';
/** After the last toxic is removed, the clients keep writing this long. */
const SETTLE_MS = 2_000;

export interface SoakOptions {
  backend: SoakBackend;
  durationMs: number;
  seed: number;
  nodes?: number;
  clients?: number;
  log?: (line: string) => void;
}

export interface SoakResult {
  schedule: Schedule;
  stats: LoadStats;
  end: EndReport;
  /** Per fault kind (and `kill`): how many, and the times to recover (ms). */
  recovery: Map<string, number[]>;
  injected: Map<string, number>;
  table: string;
  ok: boolean;
}

/** Applies and removes the schedule's toxics at their times; `down` is counted per link. */
async function runFaults(world: World, s: Schedule, t0: number, ended: Map<number, number>, log: (l: string) => void): Promise<void> {
  type Action = { at: number; e: FaultEvent; on: boolean };
  const actions: Action[] = s.faults.flatMap((e) => [
    { at: e.at, e, on: true },
    { at: e.at + e.duration, e, on: false },
  ]);
  actions.sort((a, b) => a.at - b.at || Number(a.on) - Number(b.on));
  const downs = new Map<Link, number>();
  for (const a of actions) {
    const wait = t0 + a.at - Date.now();
    if (wait > 0) await sleep(wait);
    const proxy = world.proxies[a.e.link]!.name;
    try {
      if (a.e.kind === 'down') {
        const n = (downs.get(a.e.link) ?? 0) + (a.on ? 1 : -1);
        downs.set(a.e.link, n);
        if (a.on && n === 1) await world.toxiproxy.setEnabled(proxy, false);
        if (!a.on && n === 0) await world.toxiproxy.setEnabled(proxy, true);
      } else if (a.on) {
        await world.toxiproxy.addToxic(proxy, { name: `${a.e.kind}-${a.e.id}`, stream: a.e.stream ?? 'downstream', toxic: a.e.toxic! });
      } else {
        await world.toxiproxy.removeToxic(proxy, `${a.e.kind}-${a.e.id}`);
      }
    } catch (e) {
      log(`toxiproxy: ${(e as Error).message}`);
    }
    if (!a.on) ended.set(a.e.id, Date.now());
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)]!;
}

export async function runSoak(o: SoakOptions): Promise<SoakResult> {
  const log = o.log ?? ((l: string) => console.log(l));
  const nodesN = o.nodes ?? DEFAULT_NODES;
  const began = Date.now();
  const phase = (what: string, since: number) => log(`${what} took ${((Date.now() - since) / 1000).toFixed(1)} s`);
  const world = await startWorld({ backend: o.backend, store: 'minio', tag: `${o.backend}${o.seed}` });
  const nodes: (NodeProc | null)[] = [];
  let stop = false;
  try {
    const links = (['meta', 'store'] as Link[]).filter((l) => world.proxies[l]);
    const schedule = makeSchedule({ seed: o.seed, durationMs: o.durationMs, links, nodes: nodesN });
    log(`soak on ${o.backend}: ${nodesN} nodes, ${o.clients ?? DEFAULT_CLIENTS} clients, ${(o.durationMs / 1000).toFixed(0)} s, links: ${links.join(', ')}`);
    log(describeSchedule(schedule));
    nodes.push(...(await Promise.all(Array.from({ length: nodesN }, (_, i) => startNode(world, `n${i}`)))));
    for (const n of nodes) await waitReady(n!.url);
    let gcDeleted = 0;
    let failedStarts = 0;
    const first = nodes[0]!.url;
    const post = (path: string, body: unknown) =>
      fetch(first + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
    for (const [path, body] of [
      ['/v1/namespaces', { name: NS }],
      [`/v1/namespaces/${NS}/collections`, { name: COLLECTION, primary_key: 'id', partitions: PARTITIONS }],
    ] as const) {
      const r = await post(path, body);
      if (r.status !== 201) throw new Error(`setup ${path}: ${r.status} ${await r.text()}`);
    }

    phase('setup (services, nodes, collection)', began);
    const t0 = Date.now();
    const recovery = new Map<string, number[]>();
    const injected = new Map<string, number>();
    const ended = new Map<number, number>();
    const loading = load({
      clients: o.clients ?? DEFAULT_CLIENTS,
      nodes: () => nodes.filter((n): n is NodeProc => n !== null).map((n) => n.url),
      path: `/v1/namespaces/${NS}/collections/${COLLECTION}`,
      stop: () => stop,
      seed: o.seed,
      run: 's',
    });
    const faults = runFaults(world, schedule, t0, ended, log);
    const kills = (async () => {
      for (const k of schedule.kills) {
        const wait = t0 + k.at - Date.now();
        if (wait > 0) await sleep(wait);
        const n = nodes[k.node]!;
        nodes[k.node] = null;
        gcDeleted += await counter(n, GC_DELETED);
        await kill9(n);
        injected.set('kill', (injected.get('kill') ?? 0) + 1);
        const started = Date.now();
        const { node: again, failedStarts: f } = await superviseStart(world, `n${k.node}`);
        failedStarts += f;
        // Under a toxic the node may take a while; "stuck" is beyond the bound once links heal.
        await waitReady(again.url, READY_BOUND_MS + 12_000);
        (recovery.get('kill') ?? recovery.set('kill', []).get('kill')!).push(Date.now() - started);
        nodes[k.node] = again;
      }
    })();
    await Promise.all([faults, kills]);
    await world.toxiproxy.reset();
    await sleep(Math.max(0, t0 + o.durationMs - Date.now()) + SETTLE_MS);
    stop = true;
    const stats = await loading;

    for (const f of schedule.faults) {
      injected.set(f.kind, (injected.get(f.kind) ?? 0) + 1);
      const end = ended.get(f.id);
      if (end === undefined) continue;
      const next = stats.acked.filter((a) => a.sent >= end).reduce((m, a) => Math.min(m, a.answered), Infinity);
      if (Number.isFinite(next)) (recovery.get(f.kind) ?? recovery.set(f.kind, []).get(f.kind)!).push(next - end);
    }

    phase('the faults and the load', t0);
    const checksStarted = Date.now();
    // Not stuck: every node ready within the bound, now that the links are healthy.
    const stuck: string[] = [];
    for (const n of nodes) {
      await waitReady(n!.url).catch((e: Error) => stuck.push(e.message));
    }
    for (const n of nodes) gcDeleted += await counter(n!, GC_DELETED);
    const end = await endChecks({ world, nodes: nodes.map((n) => n!.url), nsName: NS, collName: COLLECTION, acked: stats.acked });
    end.problems.push(...stuck, ...stats.reads.wrong.map((w) => `token read during the run: ${w}`));
    end.gcDeleted = gcDeleted;
    phase('the end checks', checksStarted);
    const table = soakTable(o.backend, schedule, stats, end, injected, recovery, failedStarts);
    log(table);
    for (const p of end.problems.slice(0, 20)) log(`problem: ${p}`);
    for (const p of end.lost.slice(0, 20)) log(`lost: ${p}`);
    for (const p of end.duplicated.slice(0, 20)) log(`duplicated: ${p}`);
    const ok = end.lost.length === 0 && end.duplicated.length === 0 && end.problems.length === 0 && stats.acked.length > 0;
    return { schedule, stats, end, recovery, injected, table, ok };
  } finally {
    stop = true;
    for (const n of nodes) if (n) await stopNode(n).catch(() => undefined);
    await world.close();
  }
}

/** No colours: the table goes into CI logs and notes. */
const PLAIN = { head: [] as string[], border: [] as string[] };

export function soakTable(backend: string, s: Schedule, stats: LoadStats, end: EndReport, injected: Map<string, number>, recovery: Map<string, number[]>, failedStarts: number): string {
  const faults = new Table({ head: ['fault', 'injected', 'recovered: median ms', 'max ms'], style: PLAIN });
  for (const k of [...FAULT_KINDS, 'kill'] as (FaultKind | 'kill')[]) {
    const r = recovery.get(k) ?? [];
    faults.push([k === 'kill' ? 'SIGKILL + restart (to /readyz)' : k, injected.get(k) ?? 0, r.length ? median(r) : '-', r.length ? Math.max(...r) : '-']);
  }
  const refused = [...stats.refused].sort((a, b) => a[0] - b[0]).map(([st, n]) => `${n}×${st}`).join(', ') || '0';
  const writes = new Table({ head: ['writes', ''], style: PLAIN });
  writes.push(
    ['acknowledged', stats.acked.length],
    ['refused (by status)', refused],
    ['no answer (outcome unknown)', stats.unknown],
    ['connection refused (a node down; nothing sent)', stats.unreachable],
    ['lost (must be 0)', end.lost.length],
    ['duplicated (must be 0)', end.duplicated.length],
    ['token reads during the run: ok / refused / no answer / wrong', `${stats.reads.ok} / ${stats.reads.refused} / ${stats.reads.unknown} / ${stats.reads.wrong.length}`],
    ['log records, pointer version, objects referenced', `${end.logRecords}, ${end.pointerVersion}, ${end.referenced}`],
    ['restarts that exited at start (a link down; started again)', failedStarts],
    ['objects GC deleted (counted on nodes before their kill)', end.gcDeleted],
    ['other problems (must be 0)', end.problems.length],
  );
  return [`soak ${backend} (seed ${s.seed})`, faults.toString(), writes.toString()].join('\n');
}
