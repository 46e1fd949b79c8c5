// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface LeaseScope {
  'ns'?: (number | string | Long);
  'cluster'?: (boolean);
  'scope'?: "ns"|"cluster";
}

export interface LeaseScope__Output {
  'ns'?: (number);
  'cluster'?: (boolean);
  'scope'?: "ns"|"cluster";
}
