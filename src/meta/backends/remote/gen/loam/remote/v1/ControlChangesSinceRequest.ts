// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface ControlChangesSinceRequest {
  'after'?: (number | string | Long);
  'limit'?: (number);
  '_limit'?: "limit";
}

export interface ControlChangesSinceRequest__Output {
  'after': (number);
  'limit'?: (number);
  '_limit'?: "limit";
}
