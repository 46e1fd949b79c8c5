// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface ChangesSinceRequest {
  'version'?: (number | string | Long);
  'limit'?: (number);
  '_limit'?: "limit";
}

export interface ChangesSinceRequest__Output {
  'version': (number);
  'limit'?: (number);
  '_limit'?: "limit";
}
