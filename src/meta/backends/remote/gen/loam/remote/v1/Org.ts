// Original file: src/meta/backends/remote/loam_remote.proto

import type { Long } from '@grpc/proto-loader';

export interface Org {
  'id'?: (string);
  'created'?: (number | string | Long);
}

export interface Org__Output {
  'id': (string);
  'created': (number);
}
