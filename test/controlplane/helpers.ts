// Helpers of the control-plane suite: a control plane in this process on loopback over
// temp files, and raw gRPC calls of any RPC of the service definition with chosen metadata
// (the matrix sends what no well-behaved client would).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { pino } from 'pino';
import { remoteProto } from '../../src/meta/backends/remote/proto.js';
import { resolveControlPlaneConfig } from '../../src/controlplane/config.js';
import { startControlPlane, type ControlPlane } from '../../src/controlplane/control-plane.js';

/** A call that hangs is a failure, not a stuck suite. */
export const CALL_DEADLINE_MS = 10_000;

export interface TestControlPlane {
  cp: ControlPlane;
  dir: string;
  template: string;
}

export async function testControlPlane(extra: Record<string, unknown> = {}, dir = mkdtempSync(join(tmpdir(), 'loam-cp-'))): Promise<TestControlPlane> {
  const template = `sqlite:${dir}/clusters/{cluster}.db`;
  const config = resolveControlPlaneConfig({ registry: `sqlite:${dir}/registry.db`, clusters: template, port: 0, log_level: 'silent', ...extra });
  const cp = await startControlPlane(config, { logger: pino({ level: 'silent' }) });
  return { cp, dir, template };
}

export interface Rpc {
  /** 'MetaStore.CommitWal' */
  name: string;
  def: grpc.MethodDefinition<unknown, unknown>;
}

/** Every RPC of the service definition (the .proto the server serves), by service and method. */
export function allRpcs(): Rpc[] {
  const v1 = remoteProto().loam.remote.v1;
  const out: Rpc[] = [];
  for (const [service, ctor] of [
    ['MetaStore', v1.MetaStore],
    ['ControlStore', v1.ControlStore],
  ] as const) {
    for (const [method, def] of Object.entries(ctor.service as unknown as grpc.ServiceDefinition)) out.push({ name: `${service}.${method}`, def: def as grpc.MethodDefinition<unknown, unknown> });
  }
  return out;
}

export interface Outcome {
  code: grpc.status;
  details: string;
  /** The response messages (a unary call's one, a stream's first few); empty when refused. */
  messages: unknown[];
}

export function metadataOf(key: string | undefined, cluster: string | undefined): grpc.Metadata {
  const md = new grpc.Metadata();
  if (key !== undefined) md.set('authorization', `Bearer ${key}`);
  if (cluster !== undefined) md.set('loam-cluster', cluster);
  return md;
}

/** Calls one RPC raw; a server stream is read for `streamMs` and then cancelled. */
export function callRaw(client: grpc.Client, rpc: Rpc, req: unknown, md: grpc.Metadata, streamMs = 300): Promise<Outcome> {
  const deadline = Date.now() + CALL_DEADLINE_MS;
  const { def } = rpc;
  return new Promise((resolve) => {
    if (def.requestStream && def.responseStream) {
      // A bidirectional stream (CommitWalStream): the one request as its message, then half-closed.
      const messages: unknown[] = [];
      const s = client.makeBidiStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, md, { deadline });
      const t = setTimeout(() => s.cancel(), streamMs);
      s.on('data', (m: unknown) => messages.push(m));
      s.on('error', (e: grpc.ServiceError) => {
        clearTimeout(t);
        resolve({ code: e.code, details: e.details, messages });
      });
      s.on('status', (st: grpc.StatusObject) => {
        if (st.code !== grpc.status.OK) return;
        clearTimeout(t);
        resolve({ code: grpc.status.OK, details: '', messages });
      });
      s.write(req);
      s.end();
      return;
    }
    if (def.responseStream) {
      const messages: unknown[] = [];
      const s = client.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, req, md, { deadline });
      const t = setTimeout(() => s.cancel(), streamMs);
      s.on('data', (m: unknown) => messages.push(m));
      s.on('error', (e: grpc.ServiceError) => {
        clearTimeout(t);
        resolve({ code: e.code, details: e.details, messages });
      });
      s.on('end', () => {
        clearTimeout(t);
        resolve({ code: grpc.status.OK, details: '', messages });
      });
      return;
    }
    client.makeUnaryRequest(def.path, def.requestSerialize, def.responseDeserialize, req, md, { deadline }, (e, res) => {
      if (e) resolve({ code: e.code, details: e.details, messages: res === undefined ? [] : [res] });
      else resolve({ code: grpc.status.OK, details: '', messages: [res] });
    });
  });
}
