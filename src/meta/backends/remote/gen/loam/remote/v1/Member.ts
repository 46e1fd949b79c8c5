// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface Member {
  'node'?: (string);
  'expires'?: (number | string | Long);
  'info'?: (string);
}

export interface Member__Output {
  'node': (string);
  'expires': (number);
  'info': (string);
}
