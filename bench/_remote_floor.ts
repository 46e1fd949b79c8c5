// The floors of `npm run bench -- remote` (issue 16): what any remote metastore over loopback
// could reach on this machine, measured in the same run as the real one. The bench server
// (./_remote_server.ts) serves two bare transports beside the RemoteServer, over the same
// embedded backend: each message asks for one round of WRITERS commitWal calls (run at once,
// so they share one group commit and one fsync, as the real server's batch does), and the
// answer comes once they have committed. No codec, no idempotency record, no deadline, no
// authentication, no metrics: only the transport and the backend's work.
//
// - tcp: one byte each way on a TCP socket with Nagle off — the kernel's loopback and the two
//   processes' wake-ups, the least any design pays.
// - grpc: one message each way on a grpc-js bidi stream (the transport issue 16 names), raw
//   buffers of the real batch's sizes (BATCH_BYTES in, ANSWER_BYTES out).
//
// The real path's ratio over these floors' tells how much of the gap is the transport and how
// much is the per-call work of the contract (docs/benchmarks.md, "The floors").
import { connect, createServer, type Socket } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import type { MetaStore, WalCommit } from '../src/meta/index.js';

/** Bytes of a batch of 8 commitWal calls and of its answer on the commitWal stream (`remote_commitWal_wire_bytes_batched`, rounded up). */
const BATCH_BYTES = 1_200;
const ANSWER_BYTES = 600;
/** How long a floor round waits for one answer before it gives up (a stuck server fails the bench, not hangs it). */
const ANSWER_DEADLINE_MS = 10_000;

const identity = (b: Buffer): Buffer => b;
const FLOOR_METHOD = {
  path: '/loam.bench.v1.Floor/Round',
  requestStream: true,
  responseStream: true,
  requestSerialize: identity,
  requestDeserialize: identity,
  responseSerialize: identity,
  responseDeserialize: identity,
} as const;

export interface FloorServers {
  tcpPort: number;
  grpcPort: number;
  close(): Promise<void>;
}

/** Serves both floors over `meta`: each message runs `writers` commitWal calls of `commit` at once, answered when all have committed. */
export async function serveFloors(commit: (i: number) => WalCommit, meta: MetaStore, writers: number): Promise<FloorServers> {
  let n = 0;
  const round = () => Promise.all(Array.from({ length: writers }, () => meta.commitWal(commit(n++))));
  const sockets = new Set<Socket>();
  const tcp = createServer({ noDelay: true }, (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => s.destroy());
    s.on('data', () => void round().then(() => s.write('k')));
  });
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', () => r()));
  const server = new grpc.Server();
  const answer = Buffer.alloc(ANSWER_BYTES);
  server.addService({ Round: FLOOR_METHOD } as unknown as grpc.ServiceDefinition, {
    Round: (call: grpc.ServerDuplexStream<Buffer, Buffer>) => {
      call.on('data', () => void round().then(() => call.write(answer)));
      call.on('end', () => call.end());
      call.on('error', () => undefined);
    },
  });
  const grpcPort = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, port) => (e ? reject(e) : resolve(port))),
  );
  const addr = tcp.address();
  return {
    tcpPort: typeof addr === 'object' && addr ? addr.port : 0,
    grpcPort,
    close: async () => {
      for (const s of sockets) s.destroy();
      server.forceShutdown();
      await new Promise<void>((r) => tcp.close(() => r()));
    },
  };
}

export interface FloorClient {
  /** commitWal calls per second over `seconds` of back-to-back rounds (each round `writers` calls). */
  rate(seconds: number): Promise<number>;
  close(): void;
}

/** Runs back-to-back rounds: the next message leaves as soon as the previous answer arrives. */
function rounds(send: () => void, onAnswer: (f: () => void) => () => void, writers: number, seconds: number, what: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const start = performance.now();
    const end = start + seconds * 1000;
    let done = 0;
    // Each answer within ANSWER_DEADLINE_MS of its message.
    const timer = setTimeout(() => {
      off();
      reject(new Error(`the ${what} floor's answer did not come within ${ANSWER_DEADLINE_MS} ms`));
    }, ANSWER_DEADLINE_MS);
    const off = onAnswer(() => {
      done++;
      const now = performance.now();
      if (now < end) {
        timer.refresh();
        send();
        return;
      }
      clearTimeout(timer);
      off();
      resolve((done * writers) / ((now - start) / 1000));
    });
    send();
  });
}

export async function tcpFloor(port: number, writers: number): Promise<FloorClient> {
  const sock = connect({ port, host: '127.0.0.1', noDelay: true });
  await new Promise<void>((resolve, reject) => (sock.once('connect', resolve), sock.once('error', reject)));
  const byte = Buffer.from('g');
  return {
    rate: (seconds) =>
      rounds(
        () => sock.write(byte),
        (f) => {
          sock.on('data', f);
          return () => sock.off('data', f);
        },
        writers,
        seconds,
        'tcp',
      ),
    close: () => sock.destroy(),
  };
}

export async function grpcFloor(port: number, writers: number): Promise<FloorClient> {
  const client = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  const call = client.makeBidiStreamRequest<Buffer, Buffer>(FLOOR_METHOD.path, identity, identity);
  call.on('error', () => undefined);
  const batch = Buffer.alloc(BATCH_BYTES);
  return {
    rate: (seconds) =>
      rounds(
        () => call.write(batch),
        (f) => {
          call.on('data', f);
          return () => call.off('data', f);
        },
        writers,
        seconds,
        'grpc',
      ),
    close: () => {
      call.cancel();
      client.close();
    },
  };
}
