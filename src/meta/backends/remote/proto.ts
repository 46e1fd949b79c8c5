// The remote metastore's wire definition (spec §8): loam_remote.proto, loaded at run time by
// @grpc/proto-loader with the options its generated types (./gen, `npm run gen:proto`) were
// made with, so the types the code is checked against are the ones the wire decodes to.
import { fileURLToPath } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { loadSync, type Options } from '@grpc/proto-loader';
import type { ProtoGrpcType } from './gen/loam_remote.js';

export const PROTO_PATH = fileURLToPath(new URL('./loam_remote.proto', import.meta.url));

/** Must match the flags of `npm run gen:proto` (test/remote/proto.test.ts checks both). */
export const LOADER_OPTIONS: Options = { keepCase: false, longs: Number, enums: String, defaults: true, oneofs: true, arrays: true };

/**
 * The largest message either side sends or accepts (the gRPC default is 4 MiB): a commitWal of
 * MAX_WAL_CHUNKS chunks is about 0.5 MB; anything near this limit is a caller's bug, refused
 * with RESOURCE_EXHAUSTED before it is decoded.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Trailing metadata carrying the refused call's ErrorDetail (binary: the key ends in -bin). */
export const ERROR_METADATA_KEY = 'loam-error-bin';
/** Request metadata naming the virtual cluster a call is for (a control plane serves many). */
export const CLUSTER_METADATA_KEY = 'loam-cluster';

let loaded: ProtoGrpcType | undefined;

/** The package's service constructors and message types (loaded once per process). */
export function remoteProto(): ProtoGrpcType {
  loaded ??= grpc.loadPackageDefinition(loadSync(PROTO_PATH, LOADER_OPTIONS)) as unknown as ProtoGrpcType;
  return loaded;
}

export const CHANNEL_OPTIONS: grpc.ChannelOptions = {
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  // Keepalive: a cut connection is noticed within seconds, not at the next call's deadline.
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Per-call work neither side uses: channelz call tracking (no channelz service is served), and
  // grpc-js's own retry layer, which copies every message for a retry (RemoteChannel retries
  // a transport failure itself, with the same idempotency key).
  'grpc.enable_channelz': 0,
  'grpc.enable_retries': 0,
};
