// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface BindingTarget {
  'org'?: (boolean);
  'ns'?: (number | string | Long);
  'target'?: "org"|"ns";
}

export interface BindingTarget__Output {
  'org'?: (boolean);
  'ns'?: (number);
  'target'?: "org"|"ns";
}
