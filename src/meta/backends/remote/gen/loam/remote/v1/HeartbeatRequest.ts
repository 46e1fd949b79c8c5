// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface HeartbeatRequest {
  'node'?: (string);
  'ttlMs'?: (number | string | Long);
  'at'?: (number | string | Long);
  'requestId'?: (string);
  'info'?: (string);
  '_at'?: "at";
  '_info'?: "info";
}

export interface HeartbeatRequest__Output {
  'node': (string);
  'ttlMs': (number);
  'at'?: (number);
  'requestId': (string);
  'info'?: (string);
  '_at'?: "at";
  '_info'?: "info";
}
