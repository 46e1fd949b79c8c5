// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface Retention {
  'ms'?: (number | string | Long);
  'bytes'?: (number | string | Long);
  '_ms'?: "ms";
  '_bytes'?: "bytes";
}

export interface Retention__Output {
  'ms'?: (number);
  'bytes'?: (number);
  '_ms'?: "ms";
  '_bytes'?: "bytes";
}
