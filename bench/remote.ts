// `npm run bench -- remote [--synchronous FULL|NORMAL] [--seconds N] [--wal-transport stream|rpc]`
//
// The remote metastore (spec §8) against the embedded backend in process, measured in the same
// run: 8 concurrent writers' commitWal/s through the remote client to a server on loopback (a
// process of its own) backed by the embedded backend, ÷ the same load on the embedded backend
// in this process (`remote_commitWal_ratio`, target ≥ 0.7); the CPU time one commitWal costs
// the client and the server process against the in-process call (what decides the ratio on a
// machine without spare cores) and the calls each batch carried (concurrent calls share a
// batch: a message of one CommitWalStream, or with --wal-transport rpc a CommitWalBatch RPC
// each); collectionHead's p50/p99 over the wire and in process; and the bytes one commitWal
// puts on the wire (request and response, HTTP/2 framing included) from one caller and from
// WRITERS concurrent ones, counted by a proxy in front of the server; and the calls
// each group commit carried on both sides (the embedded backend's commitWal calls queued
// together share one COMMIT, in process and on the server alike). Every line carries the
// 1-minute load average at the start and the end of the run. And the floors (./_remote_floor.ts),
// in the same alternating rounds: the same rounds of WRITERS calls on the same served backend
// over a bare TCP socket and over a bare grpc-js stream, without the contract's per-call work
// (`remote_floor_tcp_ratio`, `remote_floor_grpc_ratio`): what any remote design could reach here.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Command } from 'commander';
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { openRemote } from '../src/meta/backends/remote/client.js';
import type { MetaStore, WalCommit } from '../src/meta/index.js';
import { median, medianOf, pct, round, timed, type Sample } from './_stats.js';
import { simFsyncHook, simFsyncOf, type SimFsync } from './_sim_fsync.js';
import { grpcFloor, tcpFloor } from './_remote_floor.js';
import { FLOOR_PARTITIONS, WRITERS } from './_remote_types.js';

/** Alternating remote/in-process rounds; the median round is reported. */
const ROUNDS = 3;
/**
 * One unmeasured round per side first, this long: the JIT still compiles the hot paths of a
 * fresh process (on the server too) for its first seconds, which the in-process side pays
 * once and the remote side twice; both sides warm the same way.
 */
const WARMUP_SECONDS = 1;
const PARTITIONS = FLOOR_PARTITIONS;
/** commitWal calls whose bytes on the wire are counted. */
const BYTES_SAMPLE = 200;
/** collectionHead calls per latency round. */
const HEAD_CALLS = 2_000;
export const TARGET_RATIO = 0.7;

interface Fixture {
  store: MetaStore;
  commit(i: number): WalCommit;
  ns: number;
  collection: number;
}

async function fixture(store: MetaStore): Promise<Fixture> {
  const ns = await store.createNamespace({ org: 'bench', name: 'ns' });
  const coll = await store.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: PARTITIONS });
  const objectStamp = Date.now();
  return {
    store,
    ns: ns.id,
    collection: coll.id,
    commit: (i) => ({
      object: `wal/${i}`,
      objectStamp,
      chunks: Array.from({ length: PARTITIONS }, (_, p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 10, byteStart: p * 100, byteEnd: p * 100 + 100 })),
    }),
  };
}

/** A loopback proxy that counts the bytes each way. */
async function countingProxy(port: number): Promise<{ port: number; bytes(): number; close(): Promise<void> }> {
  let total = 0;
  const socks = new Set<Socket>();
  const srv = createServer((c) => {
    const t = connect(port, '127.0.0.1');
    for (const s of [c, t]) {
      socks.add(s);
      s.on('close', () => socks.delete(s));
      s.on('error', () => s.destroy());
    }
    c.on('data', (d: Buffer) => {
      total += d.length;
      t.write(d);
    });
    t.on('data', (d: Buffer) => {
      total += d.length;
      c.write(d);
    });
    c.on('close', () => t.destroy());
    t.on('close', () => c.destroy());
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const addr = srv.address();
  return {
    port: typeof addr === 'object' && addr ? addr.port : 0,
    bytes: () => total,
    close: async () => {
      for (const s of socks) s.destroy();
      await new Promise<void>((r) => srv.close(() => r()));
    },
  };
}

interface BenchServer {
  port: number;
  /** The floors' ports (./_remote_floor.ts). */
  tcpFloorPort: number;
  grpcFloorPort: number;
  /** The server process's CPU time so far, µs. */
  cpu(): Promise<Cpu>;
  /** The served backend's group commits so far. */
  groups(): Promise<{ groups: number; calls: number }>;
  stop(): Promise<void>;
}

async function startServer(path: string, synchronous: string, sim: SimFsync | null): Promise<BenchServer> {
  const args = [new URL('./_remote_server.ts', import.meta.url).pathname, path, synchronous, ...(sim ? [String(sim.us), sim.block] : [])];
  const child = spawn(process.execPath, [...process.execArgv.filter((a) => a.startsWith('--cpu-prof')), '--import', 'tsx', ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const waiting: ((l: string) => void)[] = [];
  lines.on('line', (l) => waiting.shift()?.(l));
  const nextLine = (what: string, ms: number) =>
    new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the bench server did not answer (${what}) within ${ms} ms`)), ms);
      waiting.push((l) => {
        clearTimeout(timer);
        resolve(l);
      });
    });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`the bench server exited (${code})`))));
  exited.catch(() => undefined);
  const [port, tcpFloorPort, grpcFloorPort] = (await Promise.race([nextLine('its ports', 60_000), exited])).split(' ').map(Number) as [number, number, number];
  return {
    port,
    tcpFloorPort,
    grpcFloorPort,
    cpu: async () => {
      const answer = nextLine('cpu', 10_000);
      child.stdin!.write('cpu\n');
      const [user, system] = (await answer).split(' ').map(Number);
      return { user: user!, system: system! };
    },
    groups: async () => {
      const answer = nextLine('groups', 10_000);
      child.stdin!.write('groups\n');
      const [groups, calls] = (await answer).split(' ').map(Number);
      return { groups: groups!, calls: calls! };
    },
    stop: () =>
      new Promise<void>((resolve) => {
        const t = setTimeout(() => {
          child.kill('SIGKILL');
          resolve();
        }, 5_000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.stdin!.end();
      }),
  };
}

/** A process's CPU time so far, µs: in user space and in the kernel (its syscalls: fsync, the socket's reads and writes). */
interface Cpu {
  user: number;
  system: number;
}
const NO_CPU: Cpu = { user: 0, system: 0 };
const ownCpu = (): Cpu => process.cpuUsage();
const cpuSince = (a: Cpu, b: Cpu): Cpu => ({ user: b.user - a.user, system: b.system - a.system });

export async function main(argv: string[]): Promise<void> {
  const opts = new Command('bench remote')
    .option('--synchronous <mode>', 'the embedded backend on both sides: FULL (fsync per commit) or NORMAL', 'FULL')
    .option('--seconds <n>', 'time budget per round', '2')
    .option('--wal-transport <t>', 'how commitWal batches travel: stream (one long-lived CommitWalStream, the default) or rpc (a CommitWalBatch RPC each)', 'stream')
    .option('--sim-group-us <n>', 'A/B tool (bench/_sim_fsync.ts): both sides synchronous=NORMAL and each commitWal group blocks this long instead of its fsync; 0: off', '0')
    .option('--sim-block <how>', 'with --sim-group-us: sleep (Atomics.wait, as in fsync) or spin (busy)', 'sleep')
    .parse(argv, { from: 'user' })
    .opts<{ synchronous: string; seconds: string; walTransport: string; simGroupUs: string; simBlock: string }>();
  if (!['stream', 'rpc'].includes(opts.walTransport)) throw new Error('--wal-transport must be stream or rpc');
  const walStream = opts.walTransport === 'stream';
  if (!['FULL', 'NORMAL'].includes(opts.synchronous)) throw new Error('--synchronous must be FULL or NORMAL');
  const seconds = Number(opts.seconds);
  if (!(seconds > 0 && seconds <= 60)) throw new Error('--seconds must be in (0, 60]');
  const sim = simFsyncOf(opts.simGroupUs, opts.simBlock);
  const sync = sim ? 'NORMAL' : (opts.synchronous as 'FULL' | 'NORMAL');
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-remote-'));
  const server = await startServer(join(dir, 'served.db'), sync, sim);
  const local = openEmbedded({ path: join(dir, 'local.db'), synchronous: sync, ...(sim ? { faults: simFsyncHook(sim) } : {}) });
  const remote = await openRemote({ target: `127.0.0.1:${server.port}`, walStream });
  const floors = [await tcpFloor(server.tcpFloorPort, WRITERS), await grpcFloor(server.grpcFloorPort, WRITERS)];
  try {
    const r = await fixture(remote);
    const l = await fixture(local);
    const backend = `remote(embedded, synchronous=${sync}, loopback, wal_transport=${opts.walTransport}${sim ? `, sim_group_us=${sim.us}, sim_block=${sim.block}` : ''})`;
    const load0 = round(loadavg()[0]!);
    const out: Record<string, unknown>[] = [];
    const line = (metric: string, value: number, unit: string, baseline?: number, extra: Record<string, unknown> = {}) =>
      out.push({ bench: 'remote', backend, metric, value: round(value), unit, ...(baseline !== undefined ? { baseline: round(baseline), ratio: round(value / baseline, 3) } : {}), ...extra });

    // commitWal/s from 8 writers: remote and in process, alternating rounds; the CPU each round took.
    type Round = Sample & { ops: number; client: Cpu; server: Cpu };
    const rs: Round[] = [];
    const ls: Round[] = [];
    let n = 0;
    const measure = async (f: Fixture, remoteRound: boolean): Promise<Round> => {
      const [c0, s0, n0] = [ownCpu(), remoteRound ? await server.cpu() : NO_CPU, n];
      const sample = await timed(seconds, () => f.store.commitWal(f.commit(n++)), WRITERS);
      return { ...sample, ops: n - n0, client: cpuSince(c0, ownCpu()), server: remoteRound ? cpuSince(s0, await server.cpu()) : NO_CPU };
    };
    // The RPCs (or stream messages) the remote rounds took: concurrent calls share a batch (docs/remote.md).
    const rpcs = async () =>
      (await remote.channel.metrics.calls.get()).values.filter((x) => ['CommitWal', 'CommitWalBatch', 'CommitWalStream'].includes(String(x.labels.method))).reduce((a, x) => a + x.value, 0);
    await timed(WARMUP_SECONDS, () => r.store.commitWal(r.commit(n++)), WRITERS);
    await timed(WARMUP_SECONDS, () => l.store.commitWal(l.commit(n++)), WRITERS);
    const rpcs0 = await rpcs();
    for (const f of floors) await f.rate(WARMUP_SECONDS);
    const floorRates: [number[], number[]] = [[], []];
    const served = { groups: 0, calls: 0 };
    const lg0 = local.groupCommits();
    for (let k = 0; k < ROUNDS; k++) {
      const sg0 = await server.groups();
      rs.push(await measure(r, true));
      const sg1 = await server.groups();
      served.groups += sg1.groups - sg0.groups;
      served.calls += sg1.calls - sg0.calls;
      ls.push(await measure(l, false));
      for (let i = 0; i < floors.length; i++) floorRates[i]!.push(await floors[i]!.rate(seconds));
    }
    const remoteCalls = rs.reduce((a, x) => a + x.ops, 0);
    const remoteRpcs = (await rpcs()) - rpcs0;
    const rm = median(rs) as Round;
    const lm = median(ls) as Round;
    line('remote_commitWal_per_s', rm.rate, 'ops/s', lm.rate);
    line('remote_commitWal_ratio', rm.rate / lm.rate, 'ratio', undefined, { target: TARGET_RATIO, met: rm.rate / lm.rate >= TARGET_RATIO });
    // The floors against the same in-process median; and the real path against the gRPC floor (the contract's own share).
    const [tcpRate, grpcRate] = floorRates.map(medianOf) as [number, number];
    line('remote_floor_tcp_ratio', tcpRate / lm.rate, 'ratio', undefined, { per_s: round(tcpRate), note: 'one TCP byte each way per round of the same calls on the served backend: no gRPC, no per-call work' });
    line('remote_floor_grpc_ratio', grpcRate / lm.rate, 'ratio', undefined, { per_s: round(grpcRate), note: 'one raw message each way per round on a grpc-js bidi stream: no codec, idempotency, deadlines, authentication or metrics' });
    line('remote_commitWal_over_grpc_floor', rm.rate / grpcRate, 'ratio', undefined, { note: 'the real path over its transport alone: the share the per-call work leaves' });
    line('remote_commitWal_p50_ms', pct(rm.lat, 50), 'ms', pct(lm.lat, 50));
    line('remote_commitWal_p99_ms', pct(rm.lat, 99), 'ms', pct(lm.lat, 99));
    // CPU per commit (process-wide: JIT and GC threads included), client + server against in process.
    // The system part is the kernel's work for the process (fsync, the socket's reads and writes).
    const perOp = (x: Round) => ({ client: (x.client.user + x.client.system) / x.ops, server: (x.server.user + x.server.system) / x.ops, clientSys: x.client.system / x.ops, serverSys: x.server.system / x.ops });
    const rc = perOp(rm);
    const lc = perOp(lm);
    line('remote_commitWal_cpu_us', rc.client + rc.server, 'us', lc.client, {
      client_us: round(rc.client),
      server_us: round(rc.server),
      client_system_us: round(rc.clientSys),
      server_system_us: round(rc.serverSys),
      in_process_system_us: round(lc.clientSys),
    });
    line('remote_commitWal_calls_per_rpc', remoteCalls / Math.max(1, remoteRpcs), 'calls', undefined, { calls: remoteCalls, rpcs: remoteRpcs });
    // Group commit (docs/operations.md, "Embedded"): the commits each COMMIT carried, served and in process.
    const lg1 = local.groupCommits();
    const perGroup = (a: { groups: number; calls: number }, b: typeof a) => (b.calls - a.calls) / Math.max(1, b.groups - a.groups);
    line('remote_commitWal_calls_per_group', perGroup({ groups: 0, calls: 0 }, served), 'calls', perGroup(lg0, lg1), { note: 'served backend against in process: commitWal calls per group transaction (one COMMIT, one fsync)' });

    // collectionHead latency, one caller: over the wire and in process.
    const heads = async (f: Fixture) => {
      const lat: number[] = [];
      for (let i = 0; i < HEAD_CALLS; i++) {
        const a = performance.now();
        await f.store.collectionHead(f.ns, f.collection);
        lat.push(performance.now() - a);
      }
      return lat;
    };
    const rh = await heads(r);
    const lh = await heads(l);
    line('remote_call_p50_ms', pct(rh, 50), 'ms', pct(lh, 50), { call: 'collectionHead' });
    line('remote_call_p99_ms', pct(rh, 99), 'ms', pct(lh, 99), { call: 'collectionHead' });

    // Bytes per commitWal on the wire: a client through a counting proxy, its connection warmed first.
    const proxy = await countingProxy(server.port);
    const counted = await openRemote({ target: `127.0.0.1:${proxy.port}`, walStream });
    try {
      await counted.commitWal(r.commit(n++));
      const before = proxy.bytes();
      for (let i = 0; i < BYTES_SAMPLE; i++) await counted.commitWal(r.commit(n++));
      line('remote_commitWal_wire_bytes', (proxy.bytes() - before) / BYTES_SAMPLE, 'bytes', undefined, { chunks: PARTITIONS, note: walStream ? 'one caller: each call its own message on the commitWal stream; request + response, HTTP/2 frames included' : 'one caller: each call its own RPC; request + response, HTTP/2 frames and headers included' });
      // The same from WRITERS concurrent callers, whose calls share batches.
      const batched = proxy.bytes();
      for (let i = 0; i < BYTES_SAMPLE / WRITERS; i++) await Promise.all(Array.from({ length: WRITERS }, () => counted.commitWal(r.commit(n++))));
      line('remote_commitWal_wire_bytes_batched', (proxy.bytes() - batched) / BYTES_SAMPLE, 'bytes', undefined, { chunks: PARTITIONS, writers: WRITERS, note: walStream ? 'concurrent callers: calls share batches on the commitWal stream' : 'concurrent callers: calls share CommitWalBatch RPCs' });
    } finally {
      await counted.close();
      await proxy.close();
    }
    const load = [load0, round(loadavg()[0]!)];
    for (const o of out) console.log(JSON.stringify({ ...o, loadavg_1m: load }));
  } finally {
    for (const f of floors) f.close();
    await remote.close();
    await local.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
